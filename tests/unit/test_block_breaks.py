"""Blocks end where CommonMark and Obsidian end them (issue 28, item 1).

Rendered with the extensions a vault gets (``markdown_defaults``: superfences and
the rest, callouts, Obsidian's rules, math) and, for the sites without
superfences, with plain ``fenced_code``.
"""

from __future__ import annotations

import markdown
import pytest
from beliefbase.site.markdown.callouts import CalloutExtension
from beliefbase.site.markdown.markdown_defaults import DEFAULTS
from beliefbase.site.markdown.math import MathExtension
from beliefbase.site.markdown.obsidian_markdown import ObsidianMarkdownExtension


def render(text: str, superfences: bool = True) -> str:
    if superfences:
        names = [name for name, _options, _replaced in DEFAULTS]
        configs = {name: options for name, options, _replaced in DEFAULTS}
    else:
        names, configs = ["fenced_code", "sane_lists"], {}
    md = markdown.Markdown(extensions=[*names, CalloutExtension(), ObsidianMarkdownExtension(),
                                       MathExtension()], extension_configs=configs)
    return md.convert(text)


@pytest.mark.parametrize("superfences", [True, False])
def test_fence_under_a_paragraph_line_is_code(superfences: bool) -> None:
    html = render("Code:\n```matlab\nx = 1;\n```\n", superfences)
    assert html.startswith("<p>Code:</p>\n") and "<code" in html
    assert "<p>Code:<div" not in html and "<p>Code:<pre" not in html


@pytest.mark.parametrize("superfences", [True, False])
def test_fence_under_a_callout_ends_it_and_the_callouts_after_it_render(
        superfences: bool) -> None:
    html = render("> [!note] A\n> last line\n```python\nx\n```\n\n> [!info] B\n> body\n\n"
                  "> [!tip] C\n> body\n", superfences)
    assert "[!" not in html
    assert html.count('<div class="admonition') == 3
    note = html[:html.index('data-callout="info"')]
    assert note.index("</div>") < note.index("<code")  # the code is after the callout


def test_fence_under_a_quote_or_a_list_item_ends_them() -> None:
    html = render("> quoted\n```\ncode\n```\n")
    assert html.index("</blockquote>") < html.index("<code")
    html = render("- item\n```\ncode\n```\nafter\n")
    assert html.index("</ul>") < html.index("<code") and "<p>after</p>" in html


def test_fence_inside_a_callout_under_its_text_is_code_in_the_callout() -> None:
    html = render("> [!note]\n> Text:\n> ```py\n> x = 1\n> ```\n> more\n")
    assert "<p>Text:</p>" in html and "<p>more</p>" in html
    assert html.index("<code") < html.rindex("</div>")


def test_indented_fence_stays_in_its_list_item() -> None:
    html = render("- item\n  ```\n  code\n  ```\n- next\n")
    assert html.count("<li>") == 2 and html.index("<code") < html.index("next")


@pytest.mark.parametrize("text", [
    "```sh\nls\n```\n- one\n- two\n",
    "$N$ cells in series:\n- one\n- two\n",
    "$$x$$ then:\n- one\n- two\n",
])
def test_list_directly_after_a_fence_or_a_math_line(text: str) -> None:
    html = render(text)
    assert "<li>one</li>" in html and "<li>two</li>" in html


def test_two_quotes_apart_are_two_quotes() -> None:
    assert render("> one\n\n> two\n").count("<blockquote>") == 2
    assert render("> one\n>\n> two\n").count("<blockquote>") == 1


def test_a_list_under_a_quote_ends_it() -> None:
    html = render("> quote\n- list\n")
    assert html.index("</blockquote>") < html.index("<ul>")


def test_callout_metadata_is_kept_as_classes() -> None:
    html = render("> [!warning|clean no-icon] Title\n> body\n")
    assert ('<div class="admonition warning clean no-icon" data-callout="warning" '
            'data-callout-metadata="clean no-icon">') in html
    assert '<p class="admonition-title">Title</p>' in html
    html = render("> [!tip|wide]- Folded\n> body\n")
    assert '<details class="tip wide" data-callout="tip" data-callout-metadata="wide">' in html


def test_callout_metadata_is_never_markup() -> None:
    html = render('> [!note|a"><script>x</script> ok-class] T\n> body\n')
    assert "<script>" not in html and 'class="admonition note ok-class"' in html


def test_callouts_nest_at_any_depth() -> None:
    html = render("> [!column|flex]\n> > [!note] In\n> > body\n> > > [!tip] Deep\n"
                  "> > > > [!bug] Deeper\n> > > > deepest\n")
    assert "[!" not in html
    for name in ("column", "note", "tip", "bug"):
        assert f'data-callout="{name}"' in html
    assert "<p>deepest</p>" in html


def test_math_backticks_and_headings() -> None:
    html = render("$$\\text{`Roma`}$$\n\n## Heading\n\ntext\n")
    assert "<code>" not in html and "<h2>Heading</h2>" in html
    html = render("Opens $$a\nb\n\nc$$ and goes on.\n")
    assert "$" not in html.replace("$$", "") and html.count("<p>") == 1


def test_a_code_span_of_backticks_in_a_list_item_opens_no_fence() -> None:
    html = render("- see (`a` then\n  ```` ```matlab ````), and more\n\ntext\n\n## Heading\n")
    assert "<h2>Heading</h2>" in html and "<code>```matlab</code>" in html

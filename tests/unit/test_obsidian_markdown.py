"""Obsidian's Markdown with the Markdown defaults: one rendering rule per test."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from beliefbase.config import BeliefbaseConfig
from beliefbase.obsidian import ObsidianSettings
from beliefbase.site.markdown.markdown_defaults import add_markdown_defaults, line_breaks


def _config(**options: object) -> BeliefbaseConfig:
    config = BeliefbaseConfig()
    config.load_dict(dict(options))
    config.validate()
    return config


def render(text: str, settings: ObsidianSettings | None = None, **options: object) -> str:
    """``text`` as MkDocs would convert it with only our defaults added."""
    mkdocs = SimpleNamespace(markdown_extensions=["toc", "tables", "fenced_code"],
                             mdx_configs={})
    add_markdown_defaults(mkdocs, _config(**options), settings or ObsidianSettings())
    md = markdown.Markdown(extensions=mkdocs.markdown_extensions,
                           extension_configs=mkdocs.mdx_configs)
    return md.convert(text)


def test_list_right_after_a_paragraph_line() -> None:
    assert render("Intro:\n- a\n- b") == "<p>Intro:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>"
    assert render("Steps\n1. one\n2. two").startswith("<p>Steps</p>\n<ol>")
    assert render("Steps\n* one").startswith("<p>Steps</p>\n<ul>")


@pytest.mark.parametrize("text", [
    "It was cold:\n-5 degrees",  # no space: not a list marker
    "In the year\n2024. was long",  # only 1. interrupts a paragraph (CommonMark)
    "Text\n-",  # an empty item does not either
    "Text\n2) two",  # only 1) interrupts a paragraph, as 1. does
])
def test_not_a_list(text: str) -> None:
    assert "<li>" not in render(text)


def test_parenthesis_ordered_lists() -> None:
    # "1)" is an ordered list in CommonMark and Obsidian; Python-Markdown knows only "1."
    assert render("1) first\n2) second") == "<ol>\n<li>first</li>\n<li>second</li>\n</ol>"
    assert render("Steps:\n1) one\n2) two").startswith("<p>Steps:</p>\n<ol>\n<li>one</li>")
    assert "<ol>" in render("> [!note]\n> Do:\n> 1) this\n> 2) that")
    assert render("Some text\n2) goes on") == "<p>Some text\n2) goes on</p>"
    assert render("He said 1) no") == "<p>He said 1) no</p>"
    assert render("```\n1) code\n```").count("1) code") == 1


def test_rules_and_setext_headings_stay() -> None:
    assert render("Title\n---") == '<h2 id="title">Title</h2>'
    assert render("Text\n- - -") == "<p>Text</p>\n<hr />"


def test_not_inside_code_or_math() -> None:
    html = render("```\nIntro:\n- a\n```")
    assert "Intro:\n- a" in html and "<li>" not in html
    html = render("> ```\n> Intro:\n> - a\n> ```")
    assert "Intro:\n- a" in html and "<li>" not in html
    html = render("$$\nx\n- y\n$$")
    assert "x\n- y" in html
    assert "<li>" not in render("    code\n    - a")  # indented code
    assert "<li>" not in render("<div>\nIntro:\n- a\n</div>")  # an HTML block


def test_inside_quotes_and_callouts() -> None:
    assert render("> quote\n> - a") == ("<blockquote>\n<p>quote</p>\n<ul>\n<li>a</li>\n</ul>"
                                        "\n</blockquote>")
    # a list that continues a list is left alone (no loose list)
    assert render("- a\ncontinued\n- b") == "<ul>\n<li>a\ncontinued</li>\n<li>b</li>\n</ul>"


def test_inside_callouts() -> None:
    from beliefbase.site.markdown.callouts import CalloutExtension

    md = markdown.Markdown(extensions=["pymdownx.superfences", CalloutExtension(),
                                       *_obsidian()])
    html = md.convert("> [!note] Title\n> Intro:\n> - a\n> - b")
    assert '<p class="admonition-title">Title</p>\n<p>Intro:</p>\n<ul>' in html
    html = md.convert("> [!note]\n> - a")
    assert '<p class="admonition-title">Note</p>\n<ul>\n<li>a</li>' in html


def _obsidian() -> list[object]:
    from beliefbase.site.markdown.obsidian_markdown import ObsidianMarkdownExtension

    return [ObsidianMarkdownExtension()]


def test_task_statuses() -> None:
    html = render("- [ ] a\n- [x] b\n- [/] c\n- [-] d\n- [>] e\n- [Z] f")
    assert html.startswith('<ul class="task-list">')
    assert '<li class="task-list-item task-in-progress" data-task="/"><label' in html
    assert 'class="task-list-item task-cancelled" data-task="-"' in html
    assert 'class="task-list-item task-forwarded" data-task="&gt;"' in html
    assert 'class="task-list-item task-other" data-task="Z"' in html
    assert html.count("task-list-indicator") == 6
    assert "</label> c</li>" in html
    # a loose list: the status is in the item's paragraph
    assert 'task-question" data-task="?">\n<p><label' in render("- [?] a\n\n- [?] b")
    assert "task-list-item" not in render("- [link] text\n- [] empty")


def test_mermaid_fence_is_source_with_a_note() -> None:
    html = render("```mermaid\ngraph TD; A-->B\n```")
    assert html == ('<div class="bb-mermaid"><p class="bb-mermaid-note">Mermaid diagram '
                    "(shown as source: no offline renderer)</p><pre><code "
                    'class="language-mermaid">graph TD; A--&gt;B</code></pre></div>')


def test_highlight_mark_tilde_footnotes() -> None:
    html = render("==m== ~~s~~ H~2~O[^1]\n\n[^1]: n")
    assert "<mark>m</mark> <del>s</del> H~2~O" in html and 'class="footnote"' in html
    assert '<span class="n">x</span>' in render("```python\nx = 1\n```")


def test_line_breaks_choice() -> None:
    vault = ObsidianSettings(present=True)
    strict_vault = ObsidianSettings(present=True, strict_line_breaks=True)
    assert not line_breaks(_config(), ObsidianSettings())  # not a vault: MkDocs' way
    assert line_breaks(_config(), vault)  # Obsidian's default
    assert not line_breaks(_config(), strict_vault)
    assert line_breaks(_config(line_breaks="breaks"), strict_vault)
    assert not line_breaks(_config(line_breaks="strict"), vault)
    assert not line_breaks(_config(markdown_defaults=False), vault)
    assert render("a\nb", vault) == "<p>a<br />\nb</p>"
    assert render("a\nb") == "<p>a\nb</p>"


def test_users_own_configuration_wins() -> None:
    mkdocs = SimpleNamespace(markdown_extensions=["toc", "pymdownx.tilde", "codehilite"],
                             mdx_configs={"pymdownx.tilde": {"subscript": True}})
    added = add_markdown_defaults(mkdocs, _config(), ObsidianSettings())
    assert mkdocs.mdx_configs["pymdownx.tilde"] == {"subscript": True}
    assert "pymdownx.highlight" not in added and "pymdownx.superfences" not in added
    assert add_markdown_defaults(mkdocs, _config(), ObsidianSettings()) == []  # idempotent
    extra = SimpleNamespace(markdown_extensions=["pymdownx.extra"], mdx_configs={})
    assert "footnotes" not in add_markdown_defaults(extra, _config(), ObsidianSettings())


def test_defaults_off() -> None:
    mkdocs = SimpleNamespace(markdown_extensions=["toc"], mdx_configs={})
    assert add_markdown_defaults(mkdocs, _config(markdown_defaults=False),
                                 ObsidianSettings(present=True)) == []
    assert mkdocs.markdown_extensions == ["toc"]


def test_no_line_break_before_a_block_in_a_list_item() -> None:
    html = render("- install it\n  ```sh\n  pip install x\n  ```\n- run it",
                  ObsidianSettings(present=True))
    assert "<br" not in html and '<div class="highlight">' in html
    assert "one<br />\ntwo" in render("one\ntwo", ObsidianSettings(present=True))


def test_the_compile_reads_none_of_the_defaults(tmp_path: Path) -> None:
    """The CLI compiles without adding the defaults (they are the site's, added at
    on_config): its options are the build's all the same."""
    from beliefbase.markdown_policy import BUNDLES, DEFAULTS
    from beliefbase.project import compile_options

    assert {name for name, _, _ in DEFAULTS} & ({"attr_list", "nl2br"} | set(BUNDLES)) == set()
    mkdocs = SimpleNamespace(markdown_extensions=["toc", "tables"], mdx_configs={},
                             config_file_path=str(tmp_path / "mkdocs.yml"),
                             docs_dir=str(tmp_path / "docs"), use_directory_urls=True,
                             site_name="t")
    before = compile_options(mkdocs, _config())
    assert add_markdown_defaults(mkdocs, _config(), ObsidianSettings(present=True))
    assert compile_options(mkdocs, _config()) == before


def test_the_mermaid_fence_gets_the_sites_formatter() -> None:
    from beliefbase.markdown_policy import DEFAULTS as POLICY
    from beliefbase.site.markdown.markdown_defaults import DEFAULTS
    from beliefbase.site.markdown.obsidian_markdown import mermaid_source

    site = dict((name, options) for name, options, _ in DEFAULTS)
    assert site["pymdownx.superfences"]["custom_fences"][0]["format"] is mermaid_source
    assert "format" not in dict((n, o) for n, o, _ in POLICY)["pymdownx.superfences"][
        "custom_fences"][0]  # the policy names the fence; the site renders it
    assert 'class="bb-mermaid"' in render("```mermaid\ngraph TD\n```")

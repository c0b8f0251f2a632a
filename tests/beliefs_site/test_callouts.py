"""``callouts.py``: Obsidian callouts and ``::: disputed`` blocks, rendered exactly.

Most cases run the extension in a bare Python-Markdown (with the extensions a
site typically enables next to it); the last ones go through a whole build.
"""

from __future__ import annotations

import textwrap
from typing import Any

import markdown
import pytest
from beliefbase.site.markdown.callouts import CalloutExtension, callout_type


def render(source: str) -> str:
    md = markdown.Markdown(extensions=[CalloutExtension(), "admonition", "footnotes",
                                       "pymdownx.superfences", "md_in_html"])
    return md.convert(textwrap.dedent(source)).strip()


CASES = {
    "note with title and Markdown": (
        """\
        > [!note] My *title*
        > Some **bold** text.
        """,
        '<div class="admonition note" data-callout="note">\n'
        '<p class="admonition-title">My <em>title</em></p>\n'
        "<p>Some <strong>bold</strong> text.</p>\n"
        "</div>",
    ),
    "default title, upper case type": (
        "> [!WARNING]\n> Careful.\n",
        '<div class="admonition warning" data-callout="warning">\n'
        '<p class="admonition-title">Warning</p>\n'
        "<p>Careful.</p>\n"
        "</div>",
    ),
    "foldable, collapsed": (
        "> [!tip]- Folded\n> Hidden [link](x.md).\n",
        '<details class="tip" data-callout="tip">\n'
        "<summary>Folded</summary>\n"
        '<p>Hidden <a href="x.md">link</a>.</p>\n'
        "</details>",
    ),
    "foldable, open": (
        "> [!faq]+\n> Open.\n",
        '<details class="question" data-callout="faq" open="open">\n'
        "<summary>Faq</summary>\n"
        "<p>Open.</p>\n"
        "</details>",
    ),
    "unknown type falls back to note": (
        "> [!custom-thing] X\n> y\n",
        '<div class="admonition note" data-callout="custom-thing">\n'
        '<p class="admonition-title">X</p>\n'
        "<p>y</p>\n"
        "</div>",
    ),
    "a list and a paragraph inside": (
        "> [!info]\n> - one\n> - two\n>\n> After.\n",
        '<div class="admonition info" data-callout="info">\n'
        '<p class="admonition-title">Info</p>\n'
        "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"
        "<p>After.</p>\n"
        "</div>",
    ),
    "nested callouts": (
        "> [!note] Outer\n> > [!bug] Inner\n> > inner text\n>\n> outer again\n",
        '<div class="admonition note" data-callout="note">\n'
        '<p class="admonition-title">Outer</p>\n'
        '<div class="admonition bug" data-callout="bug">\n'
        '<p class="admonition-title">Inner</p>\n'
        "<p>inner text</p>\n"
        "</div>\n"
        "<p>outer again</p>\n"
        "</div>",
    ),
    "a paragraph before the callout": (
        "Intro.\n> [!example] E\n> body\n",
        "<p>Intro.</p>\n"
        '<div class="admonition example" data-callout="example">\n'
        '<p class="admonition-title">E</p>\n'
        "<p>body</p>\n"
        "</div>",
    ),
    "plain blockquote stays a blockquote": (
        "> Just a quote\n> [!note] on its second line\n",
        "<blockquote>\n<p>Just a quote\n[!note] on its second line</p>\n</blockquote>",
    ),
    "blank line ends a callout": (
        "> [!note]\n> in\n\n> out\n",
        '<div class="admonition note" data-callout="note">\n'
        '<p class="admonition-title">Note</p>\n'
        "<p>in</p>\n"
        "</div>\n"
        "<blockquote>\n<p>out</p>\n</blockquote>",
    ),
    "disputed": (
        """\
        ::: disputed
        People *disagree*.

        - one
        - two
        :::

        After.
        """,
        '<div class="admonition bb-disputed" data-callout="disputed">\n'
        '<p class="admonition-title">Disputed</p>\n'
        "<p>People <em>disagree</em>.</p>\n"
        "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"
        "</div>\n"
        "<p>After.</p>",
    ),
    "disputed with a title, nested, text after the fence": (
        "::: disputed Burst limit\nA\n::: disputed\nB\n:::\nC\n:::\nD\n",
        '<div class="admonition bb-disputed" data-callout="disputed">\n'
        '<p class="admonition-title">Burst limit</p>\n'
        "<p>A</p>\n"
        '<div class="admonition bb-disputed" data-callout="disputed">\n'
        '<p class="admonition-title">Disputed</p>\n'
        "<p>B</p>\n"
        "</div>\n"
        "<p>C</p>\n"
        "</div>\n"
        "<p>D</p>",
    ),
    "unclosed disputed runs to the end": (
        "::: disputed\nno close\n",
        '<div class="admonition bb-disputed" data-callout="disputed">\n'
        '<p class="admonition-title">Disputed</p>\n'
        "<p>no close</p>\n"
        "</div>",
    ),
    "not the word disputed": (
        "::: disputedly not\n",
        "<p>::: disputedly not</p>",
    ),
    "code is never a callout": (
        "```\n> [!note] in a fence\n::: disputed\n```\n\n    > [!note] indented\n",
        '<div class="highlight"><pre><span></span><code>&gt; [!note] in a fence\n'
        "::: disputed\n</code></pre></div>\n"
        "<pre><code>&gt; [!note] indented\n</code></pre>",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_renders(name: str) -> None:
    source, expected = CASES[name]
    assert render(source) == expected


def test_footnotes_inside_disputed_blocks_still_work() -> None:
    html = render("::: disputed\nClaim.[^1]\n:::\n\n[^1]: Source.\n")
    assert '<sup id="fnref:1"><a class="footnote-ref" href="#fn:1">1</a></sup>' in html
    assert '<li id="fn:1">' in html


@pytest.mark.parametrize(("name", "kind"), [
    ("tldr", "abstract"), ("todo", "info"), ("hint", "tip"), ("done", "success"),
    ("help", "question"), ("caution", "warning"), ("missing", "failure"),
    ("error", "danger"), ("cite", "quote"), ("nonsense", "note"),
])
def test_obsidian_aliases_map_to_material_types(name: str, kind: str) -> None:
    assert callout_type(name) == kind


def test_in_a_built_page(project: Any) -> None:
    project.write("index.md", """\
        # Home

        ::: disputed
        Two sources disagree.
        :::

        > [!tip]- Hidden tip
        > With a [[Other|wikilink]].

        > A plain quote.
        """)
    project.write("other.md", "# Other\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    article = result.article("")
    assert '<div class="admonition bb-disputed" data-callout="disputed">' in article
    assert '<p class="admonition-title">Disputed</p>' in article
    assert '<details class="tip" data-callout="tip">\n<summary>Hidden tip</summary>' in article
    assert 'href="other/">wikilink</a>' in article
    assert "<blockquote>\n<p>A plain quote.</p>\n</blockquote>" in article
    css = (result.site / "_beliefbase" / "beliefs.css").read_text(encoding="utf-8")
    assert ".bb-disputed" in css

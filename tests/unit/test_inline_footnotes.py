"""Obsidian's inline footnotes ``text^[note]`` (issue 16, point 9)."""

from __future__ import annotations

import markdown
from beliefbase.codecs.markdown import parse_markdown
from beliefbase.ids import SrcPath
from beliefbase.site.markdown.inline_footnotes import InlineFootnotes
from markdown import Extension


class _Only(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        md.preprocessors.register(InlineFootnotes(md), "bb_inline_footnotes", 22)


def render(text: str, footnotes: bool = True) -> str:
    extensions: list[str | Extension] = ["fenced_code", _Only()]
    if footnotes:
        extensions.insert(0, "footnotes")
    return markdown.Markdown(extensions=extensions).convert(text)


def test_inline_footnote_renders_as_a_footnote() -> None:
    html = render("Claim^[an *inline* note with [brackets]] here.\n")
    assert '<sup id="fnref:inline-1"><a class="footnote-ref" href="#fn:inline-1">1</a></sup>' in html
    assert "an <em>inline</em> note with [brackets]" in html
    assert "^[" not in html


def test_does_not_collide_with_user_labels() -> None:
    html = render("A[^inline-1] b^[mine].\n\n[^inline-1]: the user's\n")
    assert 'id="fn:inline-1"' in html and 'id="fn:inline-2"' in html
    assert "the user&rsquo;s" in html or "the user's" in html
    assert "mine" in html


def test_code_is_left_alone() -> None:
    html = render("`x^[not]` and\n\n```\ny^[not]\n```\n\n    z^[not]\n")
    assert html.count("^[not]") == 3 and "footnote" not in html


def test_without_the_footnotes_extension_nothing_changes() -> None:
    assert "a^[note]" in render("a^[note]\n", footnotes=False)


def test_unclosed_or_escaped_is_text() -> None:
    html = render("a^[open\n\nb \\^[esc]\n")
    assert "footnote" not in html


def test_codec_does_not_count_inline_notes_as_user_footnotes() -> None:
    doc = parse_markdown(SrcPath("a.md"), b"Claim^[inline] and[^1].\n\n[^1]: Src.\n", "a.md")
    assert [f.id for f in doc.footnote_refs] == ["1"]

"""``^id`` on its own line below a block anchors the whole block (issue 16, point 5)."""

from __future__ import annotations

import markdown
import pytest
from beliefbase.codecs.markdown import parse_markdown
from beliefbase.ids import SrcPath
from beliefbase.site.markdown.callouts import CalloutExtension
from beliefbase.site.markdown.markdown_ext import BlockIds
from markdown import Extension


class _BlockIdsOnly(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        md.treeprocessors.register(BlockIds(md), "bb_block_ids", 15)


def render(text: str, breaks: bool = False) -> str:
    extensions = ["tables", _BlockIdsOnly(), CalloutExtension(), *(["nl2br"] if breaks else [])]
    return markdown.Markdown(extensions=extensions).convert(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("- one\n- two\n^lst\n", '<ul id="^lst">'),
    ("- one\n- two\n\n^lst\n", '<ul id="^lst">'),
    ("1. one\n2. two\n^lst\n", '<ol id="^lst">'),
    ("1. one\n\n2. two\n^lst\n", '<ol id="^lst">'),  # a loose list: <li><p>
    ("1. one\n\n2. *two*\n^lst\n", '<ol id="^lst">'),
    ("| a | b |\n|---|---|\n| 1 | 2 |\n^tbl\n", '<table id="^tbl">'),
    ("| a | b |\n|---|---|\n| 1 | 2 |\n\n^tbl\n", '<table id="^tbl">'),
    ("> [!tip] Tip\n> a tip\n^cal\n", '<div class="admonition tip" data-callout="tip" id="^cal">'),
    ("> [!tip] Tip\n> a tip\n> ^cal\n", '<div class="admonition tip" data-callout="tip" id="^cal">'),
    ("> [!tip] Tip\n> a tip\n\n^cal\n", '<div class="admonition tip" data-callout="tip" id="^cal">'),
    ("> quoted\n^q\n", '<blockquote id="^q">'),
    ("![pic](p.png)\n^img\n", '<p id="^img"><img'),
    ("para\n^par\n", '<p id="^par">para</p>'),
    ("![[pic.png]]\n^img\n", '<p id="^img">'),
])
@pytest.mark.parametrize("breaks", [False, True], ids=["strictLineBreaks", "nl2br"])
def test_own_line_marker_ids_the_block_and_is_hidden(text: str, expected: str,
                                                     breaks: bool) -> None:
    html = render(text, breaks)
    assert expected in html
    assert "^" not in html.replace('id="^', "")  # the marker itself is never visible
    assert "<br />" not in html  # (nl2br: the line break before the marker goes with it)


def test_same_line_marker_still_ids_the_item_only() -> None:
    html = render("- a ^one\n- b\n")
    assert '<li id="^one">a</li>' in html and "<ul>" in html


def test_marker_row_only_when_the_row_is_just_the_marker() -> None:
    html = render("| a | b |\n|---|---|\n| ^x | 2 |\n")
    assert "<table>" in html and "^x" in html


def parse(text: str):  # type: ignore[no-untyped-def]
    return parse_markdown(SrcPath("a.md"), text.encode(), "docs/a.md")


def test_codec_block_covers_the_whole_list_table_and_callout() -> None:
    doc = parse("# H\n- one\n- two\n^lst\n\n| a |\n|---|\n| 1 |\n^tbl\n\n"
                "> [!tip] T\n> body\n\n^cal\n")
    got = [(b.id, b.start, b.end) for b in doc.blocks]
    assert got == [("lst", 2, 3), ("tbl", 6, 8), ("cal", 11, 12)]

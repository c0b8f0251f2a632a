"""Property test: the codec and the page agree on a note's block ids (issue 28, item 3).

A link ``[[Note#^id]]`` resolves against the ids the codec records; the page must
anchor exactly those, and show none of the markers.  Random notes put ``^id``
under callouts, quotes, lists, tables, image embed lines and paragraphs (on the
line right under them, after a blank line, or ending the block's last line), and
are rendered with single newlines as line breaks (``nl2br``, Obsidian's default)
and without (``strictLineBreaks``).
"""

from __future__ import annotations

import re

import markdown
from beliefbase.codecs.markdown import parse_markdown
from beliefbase.ids import SrcPath
from beliefbase.site.markdown.callouts import CalloutExtension
from beliefbase.site.markdown.markdown_defaults import DEFAULTS
from beliefbase.site.markdown.markdown_ext import BlockIds
from beliefbase.site.markdown.math import MathExtension
from beliefbase.site.markdown.obsidian_markdown import ObsidianMarkdownExtension
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown import Extension

_BLOCKS = {
    "callout": ["> [!note] Title", "> body text"],
    "quote": ["> quoted text"],
    "list": ["- one", "- two"],
    "table": ["| a | b |", "|---|---|", "| 1 | 2 |"],
    "image": ["![alt](pic.png)"],
    "paragraph": ["Some text", "goes on"],
}


class _BlockIdsOnly(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Python-Markdown's
        md.treeprocessors.register(BlockIds(md), "bb_block_ids", 15)


@st.composite
def notes(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for n, kind in enumerate(draw(st.lists(st.sampled_from(sorted(_BLOCKS)), min_size=1,
                                           max_size=5))):
        lines = list(_BLOCKS[kind])
        where = draw(st.sampled_from(["under", "after-blank", "none"]))
        if where == "under":
            lines.append(f"^{kind}-{n}")
        elif where == "after-blank":
            lines += ["", f"^{kind}-{n}"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _page_ids(text: str, breaks: bool) -> tuple[set[str], str]:
    names = [name for name, _options, _replaced in DEFAULTS] + (["nl2br"] if breaks else [])
    configs = {name: options for name, options, _replaced in DEFAULTS}
    md = markdown.Markdown(extensions=[*names, "tables", CalloutExtension(),
                                       ObsidianMarkdownExtension(), MathExtension(),
                                       _BlockIdsOnly()], extension_configs=configs)
    html = md.convert(text)
    return set(re.findall(r'id="\^([^"]+)"', html)), html


@settings(max_examples=150, deadline=None)
@given(notes(), st.booleans())
def test_codec_and_page_agree_on_block_ids(text: str, breaks: bool) -> None:
    doc = parse_markdown(SrcPath("a.md"), text.encode(), "docs/a.md")
    ids, html = _page_ids(text, breaks)
    assert ids == {block.id for block in doc.blocks}, (text, html)
    assert "^" not in re.sub(r'id="\^[^"]+"', "", html), html

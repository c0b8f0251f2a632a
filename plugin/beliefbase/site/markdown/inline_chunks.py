"""Python-Markdown's inline processing, a few top-level blocks at a time.

Python-Markdown's ``InlineProcessor.run`` walks the tree breadth-first with a list it
takes from the front (``list.pop(0)``, a copy of the rest): every inline element of the
whole page is in that list at once, so a page of many elements is quadratic in them.
Links and tags are elements where plain Markdown has text, so a 5 MB note of sentences
with a link, a tag and code in each spent most of our extra time there (issue 32).

``ChunkedInline`` hands Python-Markdown's own processor the root's blocks
``CHUNK`` at a time, each under a stand-in root of the same tag, and puts them back
in order: what each block becomes is the same (nothing inline spans two blocks; a
placeholder is made and replaced within one text), the list is short.
"""

from __future__ import annotations

from xml.etree import ElementTree as etree

from markdown import Markdown
from markdown.treeprocessors import InlineProcessor

#: Top-level blocks handed over at a time.
CHUNK = 64


class ChunkedInline(InlineProcessor):
    """``InlineProcessor`` run on ``CHUNK`` of the root's children at a time."""

    def run(self, tree: etree.Element, ancestors: list[str] | None = None) -> etree.Element:
        children = list(tree)
        if len(children) <= CHUNK:
            super().run(tree, ancestors)  # (it returns ``tree``)
            return tree
        del tree[:]
        for at in range(0, len(children), CHUNK):
            part = etree.Element(tree.tag, tree.attrib)
            part.extend(children[at:at + CHUNK])
            super().run(part, ancestors)
            tree.extend(list(part))  # (with what a block's tail became, in place)
        return tree


def register(md: Markdown) -> None:
    """Put ``ChunkedInline`` in the place of Python-Markdown's own (only that one: an
    extension's replacement stays)."""
    if "inline" in md.treeprocessors and type(md.treeprocessors["inline"]) is InlineProcessor:
        md.treeprocessors.register(ChunkedInline(md), "inline", 20)

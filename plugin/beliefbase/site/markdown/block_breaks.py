"""Where a block ends in CommonMark (and Obsidian) but goes on in Python-Markdown.

Python-Markdown splits a page into blocks at blank lines only; CommonMark ends a
paragraph, a quote or a callout where another block starts on the very next
line.  Read with the block rules of ``codecs.grammar``:

* ``BlockBreaks`` preprocessor (``bb_block_breaks``, 27: after tabs are
  expanded at 30, before math (26) and fenced code (25) are stashed): a fence
  (```` ``` ```` or ``~~~``) written directly under a paragraph line, a quote's
  or a callout's last line or a list item starts a code block: a blank line is
  put before it (``>`` when it stays in the same quote), so the paragraph,
  quote, callout or list ends there and the code is not pulled into it with
  everything after it.  A heading ends a list above it; a list item or a
  thematic break directly under a quote ends the quote (it is no lazy
  continuation of the quote's paragraph).  After a closing fence the next line
  starts a new block (a list written directly under the code is a list).  A
  fence indented under a list item belongs to the item and is left as it is;
  lines inside a fence or a formula are never touched.  What CommonMark makes
  of such a page, and what the page shows, are compared by a property test
  (``tests/property/test_block_structure.py``, with markdown-it-py).
* ``SeparateQuotes`` block processor (replaces Python-Markdown's ``quote`` at
  20): two quotes separated by a blank line are two quotes; Python-Markdown
  merged a quote into the one before it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from xml.etree import ElementTree as etree

from markdown.blockprocessors import BlockQuoteProcessor
from markdown.preprocessors import Preprocessor

from ...codecs.grammar import (
    BLANK,
    HEADING,
    INTERRUPTING_ITEM,
    QUOTED,
    THEMATIC_BREAK,
    fence_closes,
    fence_opens,
)
from ...codecs.mask import code_and_math

#: How far a fence may be indented (after its quote markers) and still be a block of
#: its quote or the page rather than of a list item above it (whose text starts two or
#: more columns in).
_OWN_INDENT = 2


def _math_lines(text: str) -> list[tuple[int, int]]:
    """(first line, last line) of each formula spanning lines: inside them nothing is a
    fence or a block."""
    if "$$" not in text:
        return []
    _code, formulas = code_and_math(text)
    spans = []
    for f in formulas:
        first = text.count("\n", 0, f.start)
        last = first + text.count("\n", f.start, f.end)
        if last > first:
            spans.append((first, last))
    return spans


class BlockBreaks(Preprocessor):
    """Insert the blank lines that end a block where CommonMark ends it (module doc)."""

    def run(self, lines: list[str]) -> list[str]:
        if not any(line.startswith((">", "```", "~~~", "#", " ")) for line in lines):
            return lines  # no fence, quote or heading that could end a block early
        math = _math_lines("\n".join(lines))
        math_starts = [first for first, _ in math]
        out: list[str] = []
        fence: tuple[str, int, bool] | None = None  # (fence, quote depth, own block)
        closed: tuple[int, str] | None = None  # a container-level fence just closed
        previous = -1  # quote depth of the previous line; -1: blank or none
        for index, line in enumerate(lines):
            if fence is None:  # most lines: prose or blank, outside a fence and a quote
                if not line:  # starts no block, ends none, and a closed fence's "after"
                    out.append(line)
                    previous = -1
                    closed = None
                    continue
                if closed is None and line[:1].isalpha():  # (in a formula: left alone)
                    out.append(line)
                    previous = 0
                    continue
            prefix, content = QUOTED.match(line).groups()  # type: ignore[union-attr]
            depth = prefix.count(">")
            if fence is not None:
                if depth < fence[1] and fence[1] > 0:
                    fence = None  # its quote ended before it closed: so does the fence
                else:
                    if fence_closes(content, fence[0]):
                        if fence[2]:
                            closed = (fence[1], prefix.rstrip())
                        fence = None
                    out.append(line)
                    previous = depth
                    continue
            k = bisect_right(math_starts, index) - 1
            if k >= 0 and math[k][0] < index <= math[k][1]:
                out.append(line)  # inside a formula
                previous = depth
                continue
            blank = not content.strip() and BLANK.match(line) is not None
            if closed is not None and not blank:
                # the line under a closing fence starts a new block (in the fence's
                # quote if it is still in it, else outside it)
                out.append(closed[1] if depth >= closed[0] else prefix.rstrip())
                previous = -1
            closed = None
            opened = fence_opens(content)
            if previous >= depth and _ends_block_above(content, opened, previous > depth) \
                    and not (out and out[-1] == prefix.rstrip()):
                out.append(prefix.rstrip())  # ends the paragraph (and deeper quotes)
            if opened is not None:
                fence = (opened.group("fence"), depth, _own(content))
            out.append(line)
            previous = -1 if blank else depth
        return out


def _own(content: str) -> bool:
    """Is a block starting on this line (after its quote markers) a block of the quote
    or the page, not of a list item above it?"""
    return len(content) - len(content.lstrip(" ")) < _OWN_INDENT


def _ends_block_above(content: str, fence: re.Match[str] | None, leaves_quote: bool) -> bool:
    """Does this line, written directly under a non-blank one, start a block that
    ends the one above?  A fence or a heading always does (unless indented into a list
    item); a list item or a thematic break does when the line above is deeper in a
    quote (it is no lazy continuation of the quote's paragraph)."""
    if fence is not None or HEADING.match(content):
        return _own(content)
    return leaves_quote and bool(INTERRUPTING_ITEM.match(content)
                                 or THEMATIC_BREAK.match(content))


class SeparateQuotes(BlockQuoteProcessor):
    """A quote after a blank line is a quote of its own (CommonMark): Python-Markdown
    parsed it into the quote before it."""

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        block = blocks[0]
        m = self.RE.search(block)
        sibling = self.lastChild(parent)
        if m is None or sibling is None or sibling.tag != "blockquote" \
                or block[: m.start()].strip():
            super().run(parent, blocks)
            return
        # hide the quote above from the stock processor while it parses this one
        marker = etree.SubElement(parent, "bb-quote-break")
        try:
            super().run(parent, blocks)
        finally:
            parent.remove(marker)


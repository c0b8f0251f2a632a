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
  everything after it.  After a closing fence the next line starts a new block
  (a list written directly under the code is a list).  A fence indented under
  a list item belongs to the item and is left as it is; lines inside a fence
  or a formula are never touched.
* ``SeparateQuotes`` block processor (replaces Python-Markdown's ``quote`` at
  20): two quotes separated by a blank line are two quotes; Python-Markdown
  merged a quote into the one before it.
"""

from __future__ import annotations

from bisect import bisect_right
from xml.etree import ElementTree as etree

from markdown.blockprocessors import BlockQuoteProcessor
from markdown.preprocessors import Preprocessor

from ...codecs.grammar import BLANK, QUOTED, fence_closes, fence_opens
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
        if not any("```" in line or "~~~" in line for line in lines):
            return lines
        math = _math_lines("\n".join(lines))
        math_starts = [first for first, _ in math]
        out: list[str] = []
        fence: tuple[str, int, bool] | None = None  # (fence, quote depth, own block)
        closed: tuple[int, str] | None = None  # a container-level fence just closed
        previous = -1  # quote depth of the previous line; -1: blank or none
        for index, line in enumerate(lines):
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
            blank = BLANK.match(line) is not None and not content.strip()
            if closed is not None and not blank:
                # the line under a closing fence starts a new block (in the fence's
                # quote if it is still in it, else outside it)
                out.append(closed[1] if depth >= closed[0] else "")
            closed = None
            if (m := fence_opens(content)) is not None:
                indent = len(m.group("indent").expandtabs(4))
                own = indent < _OWN_INDENT
                if own and previous >= depth >= 0 and not (out and out[-1] == prefix.rstrip()):
                    out.append(prefix.rstrip())  # ends the paragraph (and deeper quotes)
                fence = (m.group("fence"), depth, own)
            out.append(line)
            previous = -1 if blank else depth
        return out


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


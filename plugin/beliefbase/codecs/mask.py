"""Find the parts of a Markdown body that are code (or comments) and blank them.

Links, tags and headings inside code are text, never structure.  Rather than
run every extractor through a code-aware parser, we compute the code regions
once and replace them with spaces (newlines kept), so offsets, lines and
columns in the masked text are those of the original.

Regions, following Python-Markdown + pymdownx.superfences (what renders the
page):

* fenced blocks (``` or ~~~, any indentation, also inside lists and quotes),
  closed by a fence of the same character at least as long, or the end;
* indented code blocks: lines indented by 4 spaces / a tab after a blank line,
  unless they continue a list item, admonition, details, tab or footnote;
* HTML comments;
* code spans: a backtick run and the next run of the same length within the
  same block (no blank line between); backslash-escaped backticks open nothing;
* math (``$…$``, ``$$…$$``, see ``codecs.math``): its ``[[x]]``, ``#x`` and
  ``_`` are LaTeX, never structure.  ``code_only_regions`` leaves math out (the
  math scanner itself, and comments, need code without math).

Every pattern here is linear: no nested quantifiers over the same characters.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from .grammar import FENCE_RUN, LIST_MARKER
from .math import Formula, find_math, next_formula, wikilink_spans

# Scans "\n" + text, so that the regex engine jumps from newline to newline (it
# tries a `^` at every offset): a match starts at the text offset of its line and
# ends one past the line's end.
_FENCE = re.compile(
    r"""
    \n(?P<indent>[ \t>]*)          # a line; indentation and blockquote markers
    (?P<fence>""" + FENCE_RUN + r""")         # the fence itself
    (?P<info>[^\n]*)(?=\n|\Z)      # info string (or nothing, for a closing fence)
    """,
    re.VERBOSE,
)
_INDENTED_RUN = re.compile(
    r"""
    (?:\A|(?<=\n))[ \t]*\n                      # a blank line first
    (?P<run>(?:(?:\ {4}|\t)[^\n]*(?:\n|\Z)      # indented lines ...
            (?:[ \t]*\n)*)+)                    # ... with blank lines between
    """,
    re.VERBOSE,
)
# The line that decides whether an indented run continues something.
_CONTAINER_OPENER = re.compile(
    r"""
    ^[ \t]*(?:
        """ + LIST_MARKER + r"""[ \t]    # list item
      | (?:!!!|\?\?\?\+?)[ \t]     # admonition / details
      | ===\+?!?[ \t]              # content tab
      | \[\^[^\]\n]+\]:            # footnote definition
      | :[ \t]                     # definition list
    )
    """,
    re.VERBOSE,
)
# Is there an indented line at all?  (Two `in` tests cost 3x more: a needle ending in
# a space or a tab lets str.find skip little.)
_INDENTED_LINE = re.compile(r"\n(?:\ {4}|\t)")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# "``*" rather than "`+": a literal first character lets the regex engine jump to
# each backtick at C speed (`_backtick_runs` checks for the escaping backslash).
_BACKTICKS = re.compile(r"``*")
#: where each blank line starts (the newline before it): every start, overlapping ones too
_BLANK_LINE = re.compile(r"\n(?=[ \t]*\n)")


def code_regions(text: str) -> list[tuple[int, int]]:
    """Sorted, non-overlapping (start, end) offsets of code, comments and math in ``text``."""
    regions, formulas = code_and_math(text)
    if not formulas:
        return regions
    return sorted(regions + [(f.start, f.end) for f in formulas])


def code_only_regions(text: str) -> list[tuple[int, int]]:
    """Sorted, non-overlapping (start, end) offsets of code and HTML comments in ``text``
    (a code span inside a formula is not code: see ``code_and_math``)."""
    return code_and_math(text)[0]


def code_and_math(text: str) -> tuple[list[tuple[int, int]], list[Formula]]:
    """(``code_only_regions``, the formulas): code blocks and comments first, then code
    spans and formulas read left to right in one pass, the one that opens first winning
    (``$$\\text{`a`}$$`` is a formula, `` `$x$` `` code), as Obsidian reads them."""
    blocks = _fenced_blocks(text)
    blocks += _indented_blocks(text, blocks)
    blocks += _comments(text, blocks)
    blocks.sort()
    if "$" not in text:
        return sorted(blocks + _code_spans(text, blocks)), []
    if "`" not in text:
        return blocks, find_math(text, blocks)
    spans, formulas = _spans_and_math(text, blocks)
    return sorted(blocks + spans), formulas


def _spans_and_math(
    text: str, blocks: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], list[Formula]]:
    """The code spans and formulas outside ``blocks``, whichever opens first winning."""
    runs = _backtick_runs(text)
    starts = [start for start, _ in blocks]
    blanks = [m.start() for m in _BLANK_LINE.finditer(text)]  # where a span's block ends
    links = wikilink_spans(text)
    spans: list[tuple[int, int]] = []
    formulas: list[Formula] = []
    pos = 0
    r = 0
    formula = next_formula(text, 0, blocks, starts, links)
    while True:
        while r < len(runs) and (runs[r][0] < pos or _inside_sorted(runs[r][0], blocks, starts)):
            r += 1
        if formula is not None and formula.start < pos:
            formula = next_formula(text, pos, blocks, starts, links)
        run_start = runs[r][0] if r < len(runs) else len(text)
        if formula is not None and formula.start < run_start:
            formulas.append(formula)
            pos = formula.end
            formula = next_formula(text, pos, blocks, starts, links)
            continue
        if r >= len(runs):
            return spans, formulas
        b = bisect_right(starts, runs[r][0])
        closing = _find_closing(text, runs, r, runs[r][1] - runs[r][0],
                                blocks[b] if b < len(blocks) else None, blanks)
        if closing is None:
            r += 1
            continue
        spans.append((runs[r][0], runs[closing][1]))
        pos = runs[closing][1]
        r = closing + 1


def _inside_sorted(pos: int, regions: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and regions[i][1] > pos


def mask(text: str, regions: list[tuple[int, int]] | None = None) -> str:
    """``text`` with every region replaced by spaces (newlines preserved)."""
    if regions is None:
        regions = code_regions(text)
    if not regions:
        return text
    out: list[str] = []
    pos = 0
    for start, end in regions:
        if start < pos:
            start = pos
        if end <= start:
            continue
        out.append(text[pos:start])
        chunk = text[start:end]
        out.append("\n".join([" " * len(line) for line in chunk.split("\n")]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _fenced_blocks(text: str) -> list[tuple[int, int]]:
    if "```" not in text and "~~~" not in text:
        return []
    blocks: list[tuple[int, int]] = []
    open_at = -1
    open_char = ""
    open_len = 0
    for m in _FENCE.finditer("\n" + text):
        fence = m.group("fence")
        if open_at < 0:
            if fence[0] == "`" and "`" in m.group("info"):
                continue  # ```foo` is an inline code span, not a fence
            open_at, open_char, open_len = m.start(), fence[0], len(fence)
        elif fence[0] == open_char and len(fence) >= open_len and not m.group("info").strip():
            blocks.append((open_at, m.end() - 1))
            open_at = -1
    if open_at >= 0:
        blocks.append((open_at, len(text)))
    return blocks


def _inside(pos: int, regions: list[tuple[int, int]]) -> bool:
    return any(start <= pos < end for start, end in regions)


def _indented_blocks(text: str, fenced: list[tuple[int, int]]) -> list[tuple[int, int]]:
    if not _INDENTED_LINE.search(text):
        return []
    found: list[tuple[int, int]] = []
    for m in _INDENTED_RUN.finditer(text):
        start, end = m.start("run"), m.end("run")
        if _inside(start, fenced) or _continues_container(text, m.start()):
            continue
        found.append((start, end))
    return found


def _continues_container(text: str, blank_at: int) -> bool:
    """Is the nearest earlier unindented line a list item / admonition / ...?"""
    pos = blank_at
    while pos > 0:
        line_start = text.rfind("\n", 0, pos - 1) + 1
        line = text[line_start:pos].rstrip("\n")
        if line.strip():
            if _CONTAINER_OPENER.match(line):
                return True
            if not line.startswith(("    ", "\t")):
                return False
        pos = line_start
        if line_start == 0:
            break
    return False


def _comments(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    if "<!--" not in text:
        return []
    return [(m.start(), m.end()) for m in _COMMENT.finditer(text) if not _inside(m.start(), blocks)]


def _code_spans(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    if "`" not in text:
        return []
    spans: list[tuple[int, int]] = []
    runs = _backtick_runs(text)
    blanks = [m.start() for m in _BLANK_LINE.finditer(text)]
    block_iter = iter(blocks)
    next_block = next(block_iter, None)
    i = 0
    while i < len(runs):
        start, end = runs[i]
        while next_block is not None and next_block[1] <= start:
            next_block = next(block_iter, None)
        if next_block is not None and next_block[0] <= start:
            i += 1
            continue
        width = end - start
        closing = _find_closing(text, runs, i, width, next_block, blanks)
        if closing is None:
            i += 1
            continue
        spans.append((start, runs[closing][1]))
        i = closing + 1
    return spans


def _backtick_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each backtick run; after a backslash, the run starts one later."""
    runs: list[tuple[int, int]] = []
    for m in _BACKTICKS.finditer(text):
        start, end = m.span()
        if start and text[start - 1] == "\\":
            start += 1  # an escaped backtick opens nothing, the rest of the run may
            if start == end:
                continue
        runs.append((start, end))
    return runs


def _find_closing(
    text: str,
    runs: list[tuple[int, int]],
    i: int,
    width: int,
    next_block: tuple[int, int] | None,
    blanks: list[int],
) -> int | None:
    """Index of the run that closes run ``i``: same width, same block."""
    at = bisect_left(blanks, runs[i][1])  # (a search from here on a long line: quadratic)
    limit = blanks[at] if at < len(blanks) else len(text)
    if next_block is not None:
        limit = min(limit, next_block[0])
    for j in range(i + 1, len(runs)):
        start, end = runs[j]
        if start >= limit:
            return None
        if end - start == width:
            return j
    return None

"""Obsidian comments (``%%hidden%%``): removed from a note before anything reads it.

``strip_comments`` is the one place that knows the syntax.  The codec parses
its result and ``SiteBuild.read_text`` hands its result to every reader of a
note's text (the page, embeds, previews, mentions, search), so a link, tag,
footnote or word inside a comment reaches no part of the site, and the two
can never disagree about what is hidden.

Rules (Obsidian's):

* ``%%`` opens a comment and the next ``%%`` closes it, on the same line or
  any later one; an unclosed ``%%`` hides everything to the end of the note;
* ``%%`` inside code (fenced or indented blocks, code spans) and inside HTML
  comments is text (``mask.code_regions`` finds those);
* the frontmatter block is not Markdown: ``%%`` there is kept.

Removal keeps the Markdown around a comment as it was and every line where
it was: a comment's characters are dropped but its newlines are kept, so each
later line keeps its number (diagnostics point at file:line).  Spaces next to
a removed comment would otherwise change the structure: left before a
comment that ends its line they could make a hard line break (two trailing
spaces), and left after a comment that starts its line they could indent it
into a code block.  So whitespace between a comment and the line's start or
end goes with it.  A comment filling whole lines leaves blank lines; inside a
paragraph that splits the paragraph there (documented).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from . import frontmatter as fm
from .grammar import COMMENT_MARK
from .mask import code_only_regions

#: The delimiter (grammar's); a literal, so str.find jumps to it at C speed.
MARK = COMMENT_MARK
# Spaces and tabs (no newline) before / after a comment on its line.
_SPACES_AFTER = re.compile(r"[ \t]*")
_NEWLINE = re.compile("\n")


def strip_comments(text: str) -> str:
    """``text`` (a decoded note) with its ``%%…%%`` comments removed, newlines kept."""
    if MARK not in text:
        return text
    start = fm.block_end(text)
    if MARK not in text[start:]:
        return text
    body = text[start:]
    spans = comment_spans(body)
    if not spans:
        return text
    out = [text[:start]]
    pos = 0
    for begin, end in spans:
        out.append(body[pos:begin])
        out.append("\n" * body.count("\n", begin, end))
        pos = end
    out.append(body[pos:])
    return "".join(out)


def comment_spans(body: str) -> list[tuple[int, int]]:
    """(start, end) of each comment in ``body``, widened over the whitespace it
    leaves alone between itself and the start or end of its line."""
    code = code_only_regions(body)
    spans: list[tuple[int, int]] = []
    newlines: list[int] | None = None
    at = body.find(MARK)
    region = 0
    while at >= 0:
        while region < len(code) and code[region][1] <= at:
            region += 1
        if region < len(code) and code[region][0] <= at:
            at = body.find(MARK, code[region][1])  # `%%` in code is text
            continue
        close = _closing(body, at + 2, code, region)
        end = len(body) if close < 0 else close + 2
        if newlines is None:  # where lines end: found once, looked up per comment
            newlines = [m.start() for m in _NEWLINE.finditer(body)]
        spans.append(_widen(body, at, end, newlines))
        at = body.find(MARK, end) if close >= 0 else -1
    return spans


def _closing(body: str, at: int, code: list[tuple[int, int]], region: int) -> int:
    """Offset of the ``%%`` that closes a comment opened before ``at`` (-1: none)."""
    close = body.find(MARK, at)
    while close >= 0:
        while region < len(code) and code[region][1] <= close:
            region += 1
        if region < len(code) and code[region][0] <= close:
            # a commented-out code block may hold `%%`: it is not the end
            close = body.find(MARK, code[region][1])
            continue
        return close
    return -1


def _widen(body: str, start: int, end: int, newlines: list[int]) -> tuple[int, int]:
    """``(start, end)`` of a comment, widened over the blanks between it and the start
    or end of its line (``newlines``: the offsets of every newline of ``body``)."""
    i = bisect_left(newlines, start)
    line_start = newlines[i - 1] + 1 if i > 0 else 0
    j = bisect_left(newlines, end)
    line_end = newlines[j] if j < len(newlines) else len(body)
    # the blanks just before the comment: walked back from it (a search from the
    # line's start would cost the whole line for each of thousands of comments on it)
    before = start
    while before > line_start and body[before - 1] in " \t":
        before -= 1
    after = _SPACES_AFTER.match(body, end, line_end)
    # A comment holding a newline keeps it: what stood before it ends a line, and
    # what follows it starts one.
    lines = j > i  # a newline between start and end
    starts_line = lines or before == line_start
    ends_line = lines or (after is not None and after.end() == line_end)
    if ends_line:
        start = before  # no trailing spaces left: no hard line break
    if starts_line and after is not None:
        end = after.end()  # no leading spaces left: no indented code block
    return start, end

"""The one snippet maker: a stretch of a note as its rendered page shows it.

Every quotation of a note on another page comes from here: backlink and
unlinked-mention sentences, entity-page sentences, the hover preview's excerpt
(``previews.json``) and the blurbs of folder, tag, recent and home pages.

It renders *Markdown to what the reading view shows*, not to HTML: a note's
block structure (quote and callout markers, list markers and task boxes,
headings, table pipes, rules, fences, footnote labels, inline-field keys) and
its inline syntax (links, embeds, emphasis, highlights, comments, block ids,
footnote references) are read with the grammar the page renderer is built on
(``codecs/grammar.py``, ``codecs/math.py``, ``codecs/inline.py``), and what is
left is runs of text, code and math (``SnippetPart``).  The page itself is
not converted again: a panel quotes notes before (or without) rendering them,
and converting a sentence through Python-Markdown with every extension costs
two orders of magnitude more than this (see ``docs/develop/architecture.md``).

One rule cuts a sentence, everywhere: the *unit* around an offset (a
paragraph, a list item, a table cell, a heading, a callout's title) is taken
from the source, rendered, and cut at the sentence ends of the rendered text
(``SENTENCE_END``) around the offset.  Rendered texts are memoised by what
they are made of (the unit's text and the titles its links show).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .grammar import (
    ATX_HASHES,
    ATX_OPEN,
    CALLOUT_HEAD_BODY,
    FENCE,
    FENCE_RUN,
    FOOTNOTE_LABEL,
    LIST_MARKER,
    QUOTE_MARKER,
    TASK_STATUS,
    THEMATIC_BREAK,
)
from .grammar import BLANK as _BLANK
from .grammar import BLOCK_ID_AT_END as _BLOCK_ID_AT_END
from .grammar import CLOSING_HASHES as _CLOSING_HASHES
from .grammar import FOOTNOTE_DEF as _FOOTNOTE_DEF
from .grammar import HEADING as _ATX
from .grammar import HEADING_MARK as _HEADING
from .grammar import QUOTE_MARKS as _QUOTE
from .grammar import TASK_ITEM as _LIST
from .inline import (
    CODE_CLOSE,
    CODE_OPEN,
    MATH_CLOSE,
    MATH_OPEN,
    SnippetPart,
    WikiText,
    default_wikitext,
    plain_text,
    snippet_parts,
)
from .inline_fields import line_field
from .mask import mask

__all__ = ["SENTENCE_END", "SnippetPart", "code_ranges", "excerpt", "excerpt_marked",
           "first_paragraph", "first_sentence", "parts_text", "render", "render_text",
           "forget", "sentence", "snippet_parts", "unit_around"]

#: The end of a sentence in rendered text: ".", "!" or "?" (closing quotes and
#: brackets with it) before white space and anything but a lower-case letter
#: ("e.g. this" goes on), or a CJK full stop.  (One class of first characters: the
#: regex engine then skips to the next candidate in C instead of trying two
#: branches at every character of a text.)
SENTENCE_END = re.compile(r"[.!?。！？](?:(?<=[。！？])|[\"'”’)\]]*(?=\s+(?![a-z])))")
#: Longest excerpt (hover preview, blurbs), in characters.
EXCERPT_MAX = 240
#: Longest sentence quoted around an offset, in characters.
SENTENCE_MAX = 280
#: Source characters read on each side of an offset for its unit (a pathological
#: paragraph of thousands of lines is not read whole for every link in it).
_REACH = 2000
#: Source characters of a paragraph read for an excerpt.
SOURCE_MAX = 10 * EXCERPT_MAX

# -- block structure (one line at a time) -----------------------------------------------

_CALLOUT = re.compile(r"^[ \t]*" + CALLOUT_HEAD_BODY)
_SETEXT = re.compile(r"^[ ]{0,3}(?:=+|-+)[ \t]*$")
_TABLE_SEP = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_MATH_FENCE = re.compile(r"^[ \t]*\$\$[ \t]*$")
_ADMONITION = re.compile(r"^[ \t]*(?:!!!|\?\?\?\+?|===|:::)[ \t]*")
_DEFINITION = re.compile(r"^[ \t]*:[ \t]+")
_TICKS = re.compile(r"`+")
# a line that starts a unit of its own (the unit begins on it)
_UNIT_START = re.compile(
    r"(?:" + QUOTE_MARKER + r")*[ \t]*(?:" + LIST_MARKER + r"(?:[ \t\n]|\Z)|\[\^" + FOOTNOTE_LABEL
    + r"\]:|\[![A-Za-z0-9_-]+)")
# a line that is a unit of its own, or no prose at all (it ends the unit above)
_LINE_OF_ITS_OWN = re.compile(
    r"^(?:" + QUOTE_MARKER + r")*(?:" + ATX_OPEN + r"(?:[ \t]|$)|[ \t]*\||[ \t]*" + FENCE_RUN
    + r"|[ \t]*\$\$[ \t]*$|[ ]{0,3}(?:=+|-+|(?:[*_][ \t]*){3,})[ \t]*$"
    r"|[ \t]*(?:!!!|\?\?\?|===|:::))")
_NOT_PROSE = re.compile(
    r"""^\s*(?:
        \|  | <  | (?:!!!|\?\?\?|===|:::)  | (?:[-*_][ \t]*){3,}$  | \[\^[^\]]+\]:
      | >[ \t]*\[!  | !\[\[[^\]]*\]\]\s*$  | !\[[^\]]*\]\([^)]*\)\s*$
    )""",
    re.VERBOSE,
)
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_PROSE_START = re.compile(r"[ \t]{0,3}[^\W\d_]")
# a list item's marker and the blanks after it, when a letter follows (no task box)
_PROSE_ITEM = re.compile(r"[ \t]*" + LIST_MARKER + r"[ \t]+(?=[^\W\d_])")
_TAG_WORD = re.compile(r"#[\w/:\-]*")
# a line's block syntax before its text: quote, list and heading markers, task boxes
_LINE_PREFIX = re.compile(r"(?:[ \t]*(?:>|" + LIST_MARKER + "|" + ATX_HASHES + r"|\[" + TASK_STATUS
                          + r"\]))*[ \t]*")
#: Where the unit's offset is marked while it renders (a private-use character).
_HERE = "\ue000"


def _line_text(line: str, fence: list[str]) -> str | None:
    """One source line -> its prose (None: nothing a reader sees as text)."""
    if not fence and "::" not in line:
        if _PROSE_START.match(line):
            return line  # most lines: a letter first is no block syntax
        item = _PROSE_ITEM.match(line)
        if item:  # a list item with a letter first: its marker is its only syntax
            return _closing_hashes(line[item.end():])
    line = _QUOTE.sub("", line)
    if fence:
        if FENCE.match(line) and line.strip().startswith(fence[0]):
            fence.clear()
            return None
        return _code_span(line.strip()) if line.strip() else None
    opened = FENCE.match(line)
    if opened:
        fence.append(opened.group("fence"))
        return None
    if not line.strip() or _SETEXT.match(line) or THEMATIC_BREAK.match(line):
        return None
    if _MATH_FENCE.match(line):
        return "$$"
    if line.lstrip().startswith("|") or (line.count("|") >= 2 and _TABLE_SEP.match(line)):
        if _TABLE_SEP.match(line):
            return None
        return " · ".join(cell.strip() for cell in _cells(line.strip().strip("|"))
                          if cell.strip())
    line = _ADMONITION.sub("", line)
    callout = _CALLOUT.match(line)
    if callout:
        title = callout.group("title").strip()
        return title or callout.group("type").capitalize()
    line = _closing_hashes(_HEADING.sub("", _LIST.sub("", line), count=1))
    line = _FOOTNOTE_DEF.sub("", _DEFINITION.sub("", line), count=1)
    field = line_field(mask(line)) if "::" in line else None  # not in code
    if field:
        line = field[0] + ": " + line[field[1]:].lstrip(" \t")
    return line


def _closing_hashes(line: str) -> str:
    if line != line.rstrip("# \t") and _CLOSING_HASHES.search(line):
        return _CLOSING_HASHES.sub("", line)
    return line


def _code_span(code: str) -> str:
    """``code`` as a code span (a fenced line reads as code)."""
    ticks = "`" * (max((len(run) for run in _TICKS.findall(code)), default=0) + 1)
    return f"{ticks} {code} {ticks}"


def _cells(row: str) -> list[str]:
    """A table row's cells: ``|`` inside a wikilink or escaped is not a border."""
    cells: list[str] = []
    depth = start = 0
    k = 0
    while k < len(row):
        c = row[k]
        if row.startswith("[[", k):
            depth += 1
            k += 2
            continue
        if row.startswith("]]", k) and depth:
            depth -= 1
            k += 2
            continue
        if c == "\\":
            k += 2
            continue
        if c == "|" and not depth:
            cells.append(row[start:k])
            start = k + 1
        k += 1
    cells.append(row[start:])
    return cells


def _rendered(markdown: str, wikitext: WikiText) -> str:
    """The marked text of ``markdown``; memoised when no link title is in it (the
    titles are the build's: a link's text is made afresh)."""
    if "[[" in markdown:
        return _render(markdown, wikitext)
    return _render_plain(markdown)


@lru_cache(maxsize=1 << 14)
def _render_plain(markdown: str) -> str:
    return _render(markdown, default_wikitext)


def _render(markdown: str, wikitext: WikiText) -> str:
    fence: list[str] = []  # the open fence's marks, while in one
    if "\n" not in markdown:  # one line (most windows): no list of one to join
        line = _line_text(_BLOCK_ID_AT_END.sub("", markdown) if "^" in markdown else markdown,
                          fence)
        return plain_text(line or "", wikitext, snippet=True)
    lines = [_line_text(_BLOCK_ID_AT_END.sub("", line) if "^" in line else line, fence)
             for line in markdown.split("\n")]
    return plain_text(" ".join(line for line in lines if line), wikitext,
                      snippet=True)


def render_text(markdown: str, wikitext: WikiText = default_wikitext) -> str:
    """What a reader sees of ``markdown`` (one or more blocks), as marked text: code
    between ``CODE_OPEN``/``CODE_CLOSE`` and math between ``MATH_OPEN``/``MATH_CLOSE``
    (``snippet_parts`` makes runs of it)."""
    return _rendered(markdown, wikitext)


def render(markdown: str, wikitext: WikiText = default_wikitext) -> list[SnippetPart]:
    """What a reader sees of ``markdown``, as runs of text, code and math."""
    return snippet_parts(_rendered(markdown, wikitext))


def parts_text(marked: str) -> str:
    """Marked text -> plain text (code as its text, math as its TeX): for places that
    show text only (``previews.json``, blurbs, the feed)."""
    if CODE_OPEN in marked or CODE_CLOSE in marked or MATH_OPEN in marked \
            or MATH_CLOSE in marked:
        return "".join(part.text for part in snippet_parts(marked))
    return marked


# -- sentences ------------------------------------------------------------------------


def unit_around(body: str, start: int, end: int | None = None) -> tuple[int, int]:
    """(a, b): the unit of ``body`` holding ``body[start:end]``: its paragraph, list
    item, heading, callout title or table cell, bounded by ``_REACH``."""
    end = start if end is None else end
    line_start = body.rfind("\n", 0, start) + 1
    line_end = body.find("\n", end)
    line_end = len(body) if line_end < 0 else line_end
    # a line with a letter first, or a list item's (most), is no table row, callout or
    # line of its own
    if not (_PROSE_START.match(body, line_start, line_end)
            or _PROSE_ITEM.match(body, line_start, line_end)):
        first = body[line_start:line_end]
        bare = _QUOTE.sub("", first).lstrip()
        if bare.startswith("|"):  # a table cell
            rel, at = start - line_start, 0
            for cell in _cells(first):
                if at <= rel <= at + len(cell):
                    return line_start + at, line_start + at + len(cell)
                at += len(cell) + 1
            return line_start, line_end
        if _LINE_OF_ITS_OWN.match(first) or _CALLOUT.match(bare):
            return line_start, line_end
    a, floor = line_start, max(0, start - _REACH)
    while a > floor and not _UNIT_START.match(body, a):
        above = body.rfind("\n", 0, a - 1) + 1
        prev = body[above:a - 1]
        if not prev or _BLANK.match(prev) or _LINE_OF_ITS_OWN.match(prev) or _CALLOUT.match(
                _QUOTE.sub("", prev).lstrip()):
            break
        a = above
    b, ceiling = line_end, min(len(body), end + _REACH)
    while b < ceiling:
        below = body.find("\n", b + 1)
        below = len(body) if below < 0 else below
        nxt = body[b + 1:below]
        if not nxt or _BLANK.match(nxt) or _LINE_OF_ITS_OWN.match(nxt) or _UNIT_START.match(nxt):
            break
        b = below
    return a, b


def sentence(body: str, start: int, wikitext: WikiText = default_wikitext,
             end: int | None = None, shown: str = "") -> str:
    """The rendered sentence of ``body`` around ``body[start:end]`` (marked text, see
    ``render_text``), at most about ``SENTENCE_MAX`` characters.

    ``shown``: what ``body[start:end]`` renders as (a link's text).  Then the unit,
    rendered once for all the links in it, is reused, and the link is found in it by
    its text when that is unambiguous (as often in the rendered unit as the link is
    in its source); else the unit is rendered with a mark at ``start``."""
    a, b = unit_around(body, start, end)
    a, b = _window(body, a, b, start, start if end is None else end)
    if shown and end is not None:
        text = _unit(body[a:b], wikitext)
        stretch = body[start:end]
        if body.count(stretch, a, b) == text.count(shown):
            here = -1
            for _ in range(body.count(stretch, a, start) + 1):
                here = text.find(shown, here + 1)
            return _cut(text, here)
    # the mark goes before the space in front of the word (a tag or an entity tag
    # needs the space before it to be one), unless only a line's block syntax (a
    # list marker, quote markers) is before it: that must stay at the line's start
    at = start
    while at > a and not body[at - 1].isspace():
        at -= 1
    line_start = body.rfind("\n", 0, at) + 1
    if at > a and not _LINE_PREFIX.fullmatch(body, max(a, line_start), at):
        at -= 1
    elif body.startswith("#", at):  # a tag first on its line: the mark goes after it
        tag = _TAG_WORD.match(body, at)
        at = tag.end() if tag else at
    text = _rendered(body[a:at] + _HERE + body[at:b], wikitext)
    here = text.find(_HERE)
    if here < 0:  # the offset fell inside syntax a reader does not see
        return _clip(text.replace(_HERE, ""), 0)
    after = here + 2 if text[here - 1:here] == " " and text[here + 1:here + 2] == " " else here + 1
    return _cut(text[:here] + text[after:], here)


# A sentence end in the source that is one in the rendered text too: ".", "!" or "?"
# before white space and a capital or a digit (checked outside code, math, links).
_SOURCE_END = re.compile(r"[.!?](?=[ \t\n]+[A-Z0-9])")


def _window(body: str, a: int, b: int, start: int, end: int) -> tuple[int, int]:
    """The part of the unit ``body[a:b]`` to render for the sentence at ``start``: the
    unit cut at the source's sentence ends nearest it that the rendered text ends a
    sentence at as well (so the sentence cut from the rendered window is the one
    cut from the rendered unit); a unit of many sentences is not rendered whole for
    each link in it."""
    if b - a < 200:
        return a, b
    ends = list(_SOURCE_END.finditer(body, a, start))
    # most units hold no code, math, parentheses, comments or tags: brackets alone tell
    kind = _Balance if _unbalanced(body, a, b) else _Brackets
    outside = kind(body, a)
    lo = a
    if ends and outside.at(ends[-1].start()):  # the nearest: one count
        lo = ends[-1].end()
    elif ends:
        outside = kind(body, a)
        for m in ends:
            if outside.at(m.start()):
                lo = m.end()
    hi = b
    for m in _SOURCE_END.finditer(body, end, b):
        if outside.at(m.start()):
            hi = m.end()
            break
    return lo, hi


def _unbalanced(body: str, a: int, b: int) -> bool:
    """Does ``body[a:b]`` hold a mark ``_Balance`` counts but brackets: code, math,
    parentheses, tags, comments?  (``str.find`` jumps to a character in C; a regex
    class is tried at every character.)"""
    return (body.find("(", a, b) >= 0 or body.find("`", a, b) >= 0
            or body.find("$", a, b) >= 0 or body.find("<", a, b) >= 0
            or body.find(")", a, b) >= 0 or body.find(">", a, b) >= 0
            or body.find("%", a, b) >= 0)


class _Brackets:
    """Is ``body[at]`` outside brackets (links), as far as ``body[a:at]`` tells?  Asked
    at growing ``at``, each stretch of ``body`` counted once (``_Balance``)."""

    __slots__ = ("body", "done", "brackets")

    def __init__(self, body: str, a: int) -> None:
        self.body = body
        self.done = a  # counted up to here
        self.brackets = 0  # "[" - "]"

    def at(self, at: int) -> bool:
        body, a = self.body, self.done
        self.brackets += body.count("[", a, at) - body.count("]", a, at)
        self.done = at
        return self.brackets == 0


class _Balance(_Brackets):
    """Is ``body[at]`` outside code, math, links, comments and HTML tags (as far as
    balanced marks in ``body[a:at]`` tell)?  Asked at growing ``at``, each stretch of
    ``body`` counted once: counting from ``a`` at every sentence end was quadratic in a
    unit's sentences, and a unit that never balances (an unclosed ``<!X`` on a long
    line) tried them all for each link in it (issue 32: 174 times Python-Markdown)."""

    __slots__ = ("ticks", "dollars", "parens", "angles", "comments")

    def __init__(self, body: str, a: int) -> None:
        super().__init__(body, a)
        # backticks, dollars, "(" - ")", "<" - ">", "%%"
        self.ticks = self.dollars = self.parens = self.angles = self.comments = 0

    def at(self, at: int) -> bool:
        body, a = self.body, self.done
        # (a stretch ends before a sentence end's "." "!" or "?": no "%%" spans two)
        self.ticks += body.count("`", a, at)
        self.dollars += body.count("$", a, at)
        self.parens += body.count("(", a, at) - body.count(")", a, at)
        self.angles += body.count("<", a, at) - body.count(">", a, at)
        self.comments += body.count("%%", a, at)
        return (super().at(at) and self.ticks % 2 == 0 and self.dollars % 2 == 0
                and self.parens == 0 and self.angles == 0 and self.comments % 2 == 0)


def _cut(text: str, here: int) -> str:
    """The sentence of rendered ``text`` around ``here``, clipped."""
    s0 = 0
    s1 = len(text)
    for m in SENTENCE_END.finditer(_prose(text)):
        if m.end() <= here:
            s0 = m.end()
        elif m.end() > here:
            s1 = m.end()
            break
    return _clip(text[s0:s1].strip(), here - s0)


#: Rendered units of this build, reused by the links in them: (unit, wikitext) -> text.
_UNITS: dict[tuple[str, WikiText], str] = {}
_UNITS_MAX = 4096


def _unit(unit: str, wikitext: WikiText) -> str:
    key = (unit, wikitext)
    text = _UNITS.get(key)
    if text is None:
        if len(_UNITS) >= _UNITS_MAX:
            _UNITS.clear()
        text = _UNITS[key] = _rendered(unit, wikitext)
    return text


def forget() -> None:
    """Drop the rendered units kept (their link texts are one build's titles)."""
    _UNITS.clear()


def forget_sentences() -> None:
    """Drop the rendered sentences without links kept too (``_render_plain``: the
    same in every build, kept across ``mkdocs serve``'s rebuilds; a build with none
    after it has no more use for them once its panels are made)."""
    _render_plain.cache_clear()


def _clip(text: str, at: int) -> str:
    """``text`` cut to about ``SENTENCE_MAX`` characters around ``at``, at words."""
    if len(text) <= SENTENCE_MAX:
        return text
    half = SENTENCE_MAX // 2
    lo = max(0, at - half)
    hi = min(len(text), lo + SENTENCE_MAX)
    lo = max(0, hi - SENTENCE_MAX)
    if lo:
        space = text.find(" ", lo)
        lo = space + 1 if 0 <= space < at else lo
    if hi < len(text):
        space = text.rfind(" ", at, hi)
        hi = space if space > at else hi
    return ("… " if lo else "") + text[lo:hi].strip() + (" …" if hi < len(text) else "")


# -- excerpts and blurbs ------------------------------------------------------------------


def first_paragraph(body: str) -> str:
    """The Markdown of the first prose paragraph of a note body ("" if it has none):
    headings, code, tables, HTML blocks, rules, callouts, footnotes and lone embeds
    are skipped."""
    masked = mask(body)
    pos = 0
    for gap in [*_BLANK_LINES.finditer(masked), None]:
        end = gap.start() if gap else len(masked)
        block = _prose_lines(body[pos:end], masked[pos:end])
        pos = gap.end() if gap else end
        if block and not _NOT_PROSE.match(_QUOTE.sub("", block)) and not _NOT_PROSE.match(
                block) and line_field(block.lstrip().partition("\n")[0]) is None:
            return block  # (a block whose first line is an inline field is metadata)
    return ""


def _prose_lines(block: str, masked: str) -> str:
    """The block without heading lines, rules and code (masked away)."""
    lines = block.split("\n")
    shown = masked.split("\n")
    keep: list[str] = []
    for k, line in enumerate(lines):
        bare = _QUOTE.sub("", shown[k])
        if not bare.strip() or _ATX.match(bare) or THEMATIC_BREAK.match(bare):
            continue
        if k + 1 < len(lines) and _SETEXT.match(shown[k + 1]) and shown[k].strip():
            continue
        if _SETEXT.match(bare) and not keep:
            continue
        keep.append(line)
    return "\n".join(keep).strip()


def excerpt_marked(paragraph: str, wikitext: WikiText = default_wikitext) -> str:
    """What a reader sees of ``paragraph`` (marked text, see ``render_text``), at most
    ``EXCERPT_MAX`` characters shown (cut at a word).  Only the first ``SOURCE_MAX``
    characters are read: a pathological paragraph (thousands of unclosed backticks)
    would make the inline patterns quadratic."""
    if len(paragraph) > SOURCE_MAX:
        cut = paragraph.rfind(" ", 0, SOURCE_MAX)
        paragraph = paragraph[: cut if cut > SOURCE_MAX // 2 else SOURCE_MAX]
    marked = _rendered(paragraph, wikitext)
    if len(marked) <= EXCERPT_MAX:
        return marked
    shown = 0
    out: list[str] = []
    for part in snippet_parts(marked):
        room = EXCERPT_MAX - shown
        if len(part.text) <= room:
            out.append(_marked(part.text, part))
            shown += len(part.text)
            continue
        if part.code or part.math or room < 20:  # not cut inside code or a formula
            text = "".join(out)
            return text.rstrip(" ,;:.-") + "…"
        cut = part.text.rfind(" ", 0, room)
        out.append(part.text[: cut if cut > room // 2 else room].rstrip(" ,;:.-"))
        return "".join(out) + "…"
    return "".join(out)


def _marked(text: str, part: SnippetPart) -> str:
    if part.code:
        return CODE_OPEN + text + CODE_CLOSE
    if part.math:
        return MATH_OPEN + text + MATH_CLOSE
    return text


def excerpt(paragraph: str, wikitext: WikiText = default_wikitext) -> str:
    """``excerpt_marked`` as plain text (code as its text, formulas as their TeX)."""
    return parts_text(excerpt_marked(paragraph, wikitext))


def first_sentence(text: str) -> str:
    """The first sentence of a rendered text, plain or marked (all of it if it has one
    only); a full stop inside code or a formula ends nothing."""
    m = SENTENCE_END.search(_prose(text))
    return text[: m.end()].strip() if m else text


def code_ranges(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """Marked text -> (plain text, the (start, end) of each code or math run in it)."""
    text: list[str] = []
    ranges: list[tuple[int, int]] = []
    at = 0
    for part in snippet_parts(marked):
        if part.code or part.math:
            ranges.append((at, at + len(part.text)))
        text.append(part.text)
        at += len(part.text)
    return "".join(text), ranges


_MARKED_RUN = re.compile("[\x0e\x10][^\x0f\x11]*(?:[\x0f\x11]|$)")


def _prose(marked: str) -> str:
    """``marked`` with its code and math runs blanked (same length): where sentence
    ends are looked for."""
    if CODE_OPEN not in marked and MATH_OPEN not in marked:
        return marked
    return _MARKED_RUN.sub(lambda m: "x" * len(m.group(0)), marked)

"""Dataview's inline fields, read from a note's Markdown body: a pure function.

- ``Key:: value`` on a line of its own (not a list item: those need brackets);
- ``[key:: value]`` anywhere in text, the key shown in reading view;
- ``(key:: value)`` anywhere in text, the key hidden in reading view.

Nothing inside code (fenced, indented or inline), math or an HTML comment is a
field.  A value is typed as Dataview types it (``parse_inline_value``), and a key
with capitals, spaces or formatting also answers to its sanitised twin
(``sanitize_key``: ``**Bold Field**`` → ``bold-field``).
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from .field_values import link_from_text, parse_duration, parse_iso
from .grammar import ATX_HASHES, QUOTE_MARKER
from .grammar import LIST_ITEM as _LIST_ITEM
from .mask import code_regions, mask

#: Different keys of one note that become properties of its graph node (Cypher):
#: each is a column of its label, and a note with thousands of them (a generated
#: list) would give every query thousands of columns.  Dataview reads them all.
MAX_PROPERTY_KEYS = 200


class InlineField(NamedTuple):
    """One inline field: where it is (1-based line and column of its first
    character, and the offsets ``start``/``end`` of the whole field in the body),
    its key as written (formatting stripped), the sanitised twin, the value text
    and the typed value.  A ``NamedTuple``, as the codec's other records (the
    parse cache and the workers pickle it)."""

    key: str
    sanitized: str
    raw: str
    value: Any
    style: str  # "line", "bracket" or "paren"
    line: int
    column: int
    start: int
    end: int


# a key alone on its line: leading markup (`**`, `> `, `# `) skipped, then letters,
# digits, `_`, spaces, `/` and `-`, then closing marks; anything else (`[`, `.`,
# `!`) makes the line prose, as in Dataview
_LINE_KEY = re.compile(r"[^\w\[]*(?P<key>[\w \t/-]+?)[_*~`]*[ \t]*")
# where a line field's text starts: after indentation, quote marks and a heading's #s
_LINE_START = re.compile(r"[ \t]*(?:" + QUOTE_MARKER + r"[ \t]*)*(?:" + ATX_HASHES + r"[ \t]+)?")
_FORMATTING = "*_~=` \t"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_LINK = re.compile(r"(!?)\[\[([^\[\]\n]*)\]\]")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_LIST_ELEMENT = re.compile(r'\s*("(?:[^"\\]|\\.)*"|!?\[\[[^\[\]\n]*\]\]|[^,"]+?)\s*(?:,|$)')
_NOT_KEY_CHAR = re.compile(r"[^\w\s\-\u2600-\u27BF\U0001F300-\U0001FAFF]+")


_MARK_CHAR = re.compile(r"[*_~=`]")
# a key that is its own sanitised twin: lowercase letters, digits and "-", or snake_case
_PLAIN_KEY = re.compile(r"[a-z0-9-]+|[a-z0-9]+(?:_+[a-z0-9]+)+")
_MARKS = re.compile(r"\*\*|~~|==|`|(?<!\w)[*_]+|[*_]+(?!\w)")


def clean_key(key: str) -> str:
    """The key without its formatting: ``**Bold Field**`` → ``Bold Field``,
    ``_italic_ key`` → ``italic key`` (``my_key`` keeps its underscore)."""
    if _MARK_CHAR.search(key) is None:  # most keys: nothing to remove but blanks
        return key.strip(" \t")
    return _MARKS.sub("", key).strip(_FORMATTING)


@functools.lru_cache(maxsize=4096)
def sanitize_key(key: str) -> str:
    """Dataview's simplified name: lowercase, formatting and punctuation dropped,
    spaces to ``-`` (``Basic Field`` → ``basic-field``, ``Hello!`` → ``hello``)."""
    if _PLAIN_KEY.fullmatch(key):  # most keys are their own twin
        return key
    text = _NOT_KEY_CHAR.sub("", clean_key(key).lower())
    return re.sub(r"\s+", "-", text.strip())


def _single_value(text: str) -> tuple[bool, Any]:
    """(typed?, value) for one element: number, boolean, date, duration, link or
    quoted text; (False, text) otherwise."""
    if _NUMBER.fullmatch(text):
        return True, float(text) if "." in text else int(text)
    low = text.lower()
    if low in ("true", "false"):
        return True, low == "true"
    date = parse_iso(text)
    if date is not None:
        return True, date
    m = _LINK.fullmatch(text)
    if m:
        return True, link_from_text(m.group(2), embed=bool(m.group(1)))
    m = _STRING.fullmatch(text)
    if m:
        return True, re.sub(r"\\(.)", r"\1", m.group(1))
    if text[:1].isdigit() or text[:1] == "-":
        dur = parse_duration(text)
        if dur is not None:
            return True, dur
    return False, text


def parse_inline_value(raw: str) -> Any:
    """A field value as Dataview types it: number, boolean, ISO date, duration,
    link, quoted text, a comma-separated list of those; otherwise the text."""
    text = raw.strip()
    if not text:
        return None
    typed, value = _single_value(text)
    if typed:
        return value
    if "," in text:
        items: list[Any] = []
        pos = 0
        while pos < len(text):
            m = _LIST_ELEMENT.match(text, pos)
            if not m or m.end() == pos:
                return text
            ok, item = _single_value(m.group(1).strip())
            if not ok:
                return text
            items.append(item)
            pos = m.end()
        if len(items) > 1:
            return tuple(items)
    return text


def _closing(text: str, open_at: int) -> int:
    """The offset of the bracket closing the one at ``open_at`` on the same line
    (brackets of the same kind nest; a backslash escapes); -1 when none does."""
    opener = text[open_at]
    closer = "]" if opener == "[" else ")"
    depth = 0
    escaped = False
    for i in range(open_at + 1, len(text)):
        ch = text[i]
        if ch == "\n":
            return -1
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == opener:
            depth += 1
        elif ch == closer:
            if depth == 0:
                return i
            depth -= 1
    return -1


# where a bracketed field may open; a wikilink's "[[" is skipped whole
_OPENER = re.compile(r"\[\[|[\[(]")
#: The key of a ``[key:: value]`` or ``(key:: value)`` field, up to its ``::``: no
#: bracket, parenthesis, colon, backtick or line end (the page's inline pattern and the
#: dashboards' task text find candidates with it).
BRACKET_KEY = r"[^\[\]()\n:`]+?"
_BRACKET_KEY = re.compile(r"(" + BRACKET_KEY + r")::")


def _bracket_fields(masked: str, body: str, line_start: int, line_end: int) -> list[
        tuple[int, int, str, str, str]]:
    found: list[tuple[int, int, str, str, str]] = []
    i = line_start
    while (opener := _OPENER.search(masked, i, line_end)) is not None:
        i = opener.start()
        if opener.group() == "[[":  # a wikilink holds no field: on after its "]]"
            close = masked.find("]]", i + 2, line_end)
            i = i + 2 if close == -1 else close + 2
            continue
        m = _BRACKET_KEY.match(masked, i + 1)
        name = clean_key(m.group(1)) if m and m.end() <= line_end else ""
        if m and name:
            close = _closing(masked, i)
            if close != -1:
                style = "bracket" if opener.group() == "[" else "paren"
                found.append((i, close + 1, name, body[m.end():close], style))
                i = close + 1
                continue
        i += 1
    return found


def line_field(line: str) -> tuple[str, int] | None:
    """The key of a ``Key:: value`` line (formatting stripped) and the offset of its
    value (right after the ``::``), or None: the one rule of a line field's key,
    which the snippet maker asks too.  A list item's line holds none (its fields
    need brackets), nor does a line whose text before the ``::`` is prose."""
    sep = line.find("::")
    if sep < 0 or _LIST_ITEM.match(line):
        return None
    m = _LINE_KEY.fullmatch(line, 0, sep)
    name = clean_key(m.group("key")) if m else ""
    return (name, sep + 2) if name else None


def extract_inline_fields(body: str, first_line: int = 1, *,
                          masked: str | None = None) -> tuple[InlineField, ...]:
    """Every inline field of a Markdown body, in source order.  ``first_line`` is
    the file line of the body's first line (after the frontmatter); ``masked``
    the body with its code masked (``codecs.mask``), when the caller has it."""
    if "::" not in body:
        return ()
    if masked is None:
        masked = mask(body, code_regions(body))
    out: list[InlineField] = []
    line_no = first_line
    counted = 0  # offset up to which newlines are counted into line_no
    at = masked.find("::")
    while at != -1:
        start = masked.rfind("\n", 0, at) + 1
        end = masked.find("\n", at)
        end = len(masked) if end == -1 else end
        line_no += masked.count("\n", counted, start)
        counted = start
        line = masked[start:end]
        found = _bracket_fields(masked, body, start, end)
        key = None if found else line_field(line)
        if key is not None:
            begin = _LINE_START.match(line)
            begin_at = start + (begin.end() if begin else 0)
            found = [(begin_at, end, key[0], body[start + key[1]:end], "line")]
        for f_start, f_end, name, raw, style in found:
            out.append(InlineField(name, sanitize_key(name), raw.strip(),
                                   parse_inline_value(raw), style, line_no,
                                   f_start - start + 1, f_start, f_end))
        at = masked.find("::", end)
    return tuple(out)


def fields_as_text(text: str) -> str:
    """``text`` with each ``[key:: value]`` as ``key: value`` and each
    ``(key:: value)`` as its value: what a plain-text snippet of reading view
    shows (``Key:: value`` lines stay as written, as on the page)."""
    if "::" not in text:
        return text
    out: list[str] = []
    at = 0
    for f in extract_inline_fields(text):
        if f.style == "line":
            continue
        out.append(text[at:f.start])
        out.append(f"{f.key}: {f.raw}" if f.style == "bracket" else f.raw)
        at = f.end
    out.append(text[at:])
    return "".join(out)

"""The manual entity syntax of SPEC §7, and the parts of a note it never applies to.

Four forms, each a *mention* (the words the page shows) plus a wrapper that
the rendered page hides:

======================================  ===========  =========================
raw text                                render text  meaning
======================================  ===========  =========================
``#Smaug:CREATURE``                     ``Smaug``    entity Smaug, type CREATURE
``#[Mount Doom]:ORG``                   ``Mount Doom`` the same, name with spaces
``Cory:ALIAS_OF_CORY_GILFORD:PERSON``   ``Cory``     alias of CORY_GILFORD (PERSON)
``Boromir:REJECT_ENTITY``               ``Boromir``  not an entity in this note
======================================  ===========  =========================

The alias and reject forms take ``[Two Words]`` too.  TYPE is ``[A-Z][A-Z0-9_]*``;
a plain ``#tag`` is a tag (the tag grammar in ``codecs/markdown.py`` refuses a
``#Name:TYPE``).  Nothing counts inside code, math, HTML comments and tags,
headings, links (text and target, wikilinks too), bare URLs, reference
definitions, attribute lists, or after a backslash: ``protected_regions`` lists
those spans, and the auto-detection of ``entities/detect.py`` skips them too.

Names hold Unicode letters and digits, with hyphens, apostrophes and
underscores inside (``#Bilbo's:PERSON`` is the name ``Bilbo's``).

This module owns the grammar only (offsets into the text it is given); what a
mention means project-wide is ``beliefbase.entities``'.  The patterns themselves
are in ``codecs/grammar.py`` with every other syntax.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from .grammar import ATX_SCAN as _ATX_SCAN
from .grammar import ENTITY as _ENTITY
from .grammar import ENTITY_NAME as _NAME
from .grammar import ENTITY_TYPE as _TYPE_RE
from .markdown import LINK_PATTERN
from .mask import code_regions

MentionKind = Literal["tag", "alias", "reject"]

# Each scans "\n" + text, so that the engine jumps from newline to newline (a `^`
# is tried at every offset); group 1 is the line, at its text offset + 1.
# ATX headings (grammar's ATX_SCAN), setext underlines, reference definitions: never
# entities.
_SETEXT_UNDER = re.compile(r"\n((?:=+|-+)[ \t]*)(?=\n|\Z)")
_REF_DEF = re.compile(
    r"\n( {0,3}\[[^\]\n]+\]:(?!ALIAS_OF_|REJECT_ENTITY)[ \t]*\S[^\n]*)")
# The rest of a URL after its "://" or "mailto:" (found with str.find), and the
# scheme before it: with its #fragment, never an entity.
_URL_REST = re.compile(r"[^\s<>]*")
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
# HTML tags (their attributes) and attribute lists `{#id .class}`.
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
_ATTR_LIST = re.compile(r"\{:?[ \t]*[#.][^}\n]*\}")
#: The longest ``[bracketed name]`` looked back for from its ":" (a line of
#: thousands of "]:" must not be searched back to its start for each).
_BRACKET_MAX = 200
# Characters of a one-word name, walked back over from a ':' to where a mention
# could start.
_NAME_CHARS = "'\u2019-_"


class ManualMention(NamedTuple):
    """One manual entity mention in a text (offsets into that text).

    ``start``/``end`` cover the whole syntax; ``name_start``/``name_end`` the
    words shown (the render text keeps only those).
    """

    kind: MentionKind
    start: int
    end: int
    name: str
    name_start: int
    name_end: int
    type: str | None  # None for a rejection
    canonical: str | None  # the ALIAS_OF_ key of an alias


def is_type(text: str) -> bool:
    """Is ``text`` an entity TYPE (``[A-Z][A-Z0-9_]*``)?"""
    return _TYPE_RE.match(text) is not None


def entity_key(name: str) -> str:
    """The project-wide key of an entity name: ``Mount Doom`` -> ``MOUNT_DOOM``.

    Upper case, every run of characters that are not letters or digits one ``_``;
    an alias's ``ALIAS_OF_CORY_GILFORD`` names the key ``CORY_GILFORD``."""
    return "_".join(w for w in re.split(r"[\W_]+", name.upper()) if w)


def written_form(name: str) -> str:
    """How a name is written inside the syntax: bare, or ``[in brackets]`` when it
    is not one word of the name grammar (spaces, dots, ...)."""
    return name if re.fullmatch(_NAME, name) else f"[{name}]"


def protected_regions(body: str) -> list[tuple[int, int]]:
    """Sorted (start, end) spans of ``body`` where no entity is ever read or
    detected: code, math, comments, headings, links, URLs, HTML tags, reference
    definitions and attribute lists."""
    spans = list(code_regions(body))
    lines = "\n" + body
    if "#" in body:
        spans.extend((m.start(), m.end() - 1) for m in _ATX_SCAN.finditer(lines))
    if "]:" in body:
        spans.extend((m.start(1) - 1, m.end(1) - 1) for m in _REF_DEF.finditer(lines))
    if "==" in body or "--" in body:
        for m in _SETEXT_UNDER.finditer(lines):  # the text line above an underline
            line_end = m.start(1) - 2
            if line_end > 0 and body[line_end - 1] != "\n":
                spans.append((body.rfind("\n", 0, line_end) + 1, line_end))
    if "<" in body:
        spans.extend(m.span() for m in _HTML_TAG.finditer(body))
    if "{" in body:
        spans.extend(m.span() for m in _ATTR_LIST.finditer(body))
    spans.extend(_url_spans(body))
    if "[" in body or "<http" in body:
        spans.extend(_link_spans(body))
    return _merged(spans)


def _url_spans(body: str) -> list[tuple[int, int]]:
    """Bare URLs (``https://…``, ``mailto:…``, ``obsidian://…``) with their fragment."""
    found: list[tuple[int, int]] = []
    for marker in ("://", "mailto:"):
        at = body.find(marker)
        while at >= 0:
            start = at
            while start > 0 and body[start - 1] in _SCHEME_CHARS:
                start -= 1
            m = _URL_REST.match(body, at + len(marker))
            end = m.end() if m else at + len(marker)
            if start < at or marker == "mailto:":
                found.append((start, end))
            at = body.find(marker, end)
    return found


def _link_spans(body: str) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    at = body.find("[")
    angle = body.find("<http")
    while at >= 0 or angle >= 0:
        pos = at if angle < 0 or 0 <= at < angle else angle
        m = LINK_PATTERN.match(body, pos)
        if m is not None:
            found.append(m.span())
            nxt = m.end()
        else:
            nxt = pos + 1
        at = body.find("[", nxt) if at >= 0 else -1
        angle = body.find("<http", nxt) if angle >= 0 else -1
    return found


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def find_manual(body: str, regions: list[tuple[int, int]] | None = None
                ) -> list[ManualMention]:
    """Every manual mention in ``body``, in order, none inside ``regions``
    (default: ``protected_regions(body)``).

    Every form has a ``:`` after its name: the scan jumps from ``:`` to ``:``
    (``str.find``) and tries the grammar only where a name ends there, from where
    that name starts (a regex search would try its lookbehind at every offset).
    """
    colon = body.find(":")
    if colon < 0:
        return []
    if regions is None:
        regions = protected_regions(body)
    found: list[ManualMention] = []
    k = 0
    while colon >= 0:
        start = _name_start(body, colon)
        m = _ENTITY.match(body, start) if start is not None else None
        if m is None or m.end() <= colon:
            colon = body.find(":", colon + 1)
            continue
        start, end = m.span()
        while k < len(regions) and regions[k][1] <= start:
            k += 1
        if not (k < len(regions) and regions[k][0] < end):  # not in code, a link, ...
            found.append(_mention(m))
        colon = body.find(":", end)
    return found


def _name_start(body: str, colon: int) -> int | None:
    """Where a mention whose name ends at ``colon`` starts (its ``#`` or ``[``)."""
    if colon == 0:
        return None
    if body[colon - 1] == "]":  # a bracketed name: its "[" on the line, not far back
        lo = max(body.rfind("\n", max(0, colon - _BRACKET_MAX), colon) + 1,
                 colon - _BRACKET_MAX)
        start = body.rfind("[", max(lo, 0), colon)
        if start < 0:
            return None
    else:
        start = colon
        while start > 0 and (body[start - 1].isalnum() or body[start - 1] in _NAME_CHARS):
            start -= 1
        while start < colon and body[start] in _NAME_CHARS:  # "_Smaug:…_" is emphasis
            start += 1
        if start == colon:
            return None
    return start - 1 if start > 0 and body[start - 1] == "#" else start


_GROUPS: tuple[tuple[str, MentionKind], ...] = (
    ("tname", "tag"), ("tbname", "tag"), ("aname", "alias"), ("abname", "alias"),
    ("rname", "reject"), ("rbname", "reject"))


def _mention(m: re.Match[str]) -> ManualMention:
    group, kind = next((g, k) for g, k in _GROUPS if m.group(g) is not None)
    type_ = m.group("ttype") or m.group("atype")
    return ManualMention(kind, m.start(), m.end(), m.group(group), m.start(group),
                         m.end(group), type_, m.group("canon"))


def render_text(body: str, mentions: list[ManualMention] | None = None) -> str:
    """``body`` with every manual mention's wrapper removed (only its name kept)."""
    if mentions is None:
        mentions = find_manual(body)
    if not mentions:
        return body
    out: list[str] = []
    pos = 0
    for mention in mentions:
        out.append(body[pos:mention.start])
        out.append(mention.name)
        pos = mention.end
    out.append(body[pos:])
    return "".join(out)


def tag_text(kind: MentionKind, name: str, type_: str | None = None,
             canonical: str | None = None) -> str:
    """The raw syntax of one manual mention (what the ``entity`` commands write)."""
    written = written_form(name)
    if kind == "tag":
        return f"#{written}:{type_}"
    if kind == "alias":
        return f"{written}:ALIAS_OF_{canonical}:{type_}"
    return f"{written}:REJECT_ENTITY"

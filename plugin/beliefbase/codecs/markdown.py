"""The Markdown codec: one note's text -> ``ParsedDoc``.

Stages: decode and drop ``%%comments%%`` (``note_text``) -> split frontmatter
-> mask code and math -> extract headings, block ids, links, tags, inline
fields and footnotes from the masked body; formulas that do not convert to
MathML are reported.  Every
extractor is one compiled regex over the whole body, so a 5 KB note costs a
handful of C-speed scans rather than a Python loop per character.

The codec is syntax only: targets stay strings; ``builder.resolve`` turns them
into node ids.  The syntaxes themselves (links, tags, block ids, footnotes) are
``codecs.grammar``'s, shared with the page's Markdown extension.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import Any, NamedTuple
from urllib.parse import unquote

from .. import diagnostics as diag
from ..ids import SrcPath
from . import frontmatter as fm
from .comments import strip_comments
from .grammar import ATX_HEADING as _ATX_HEADING
from .grammar import ATX_SCAN as _ATX_SCAN
from .grammar import BLOCK_ID as _BLOCK_ID
from .grammar import CLOSING_HASHES as _CLOSING_HASHES
from .grammar import EMBED_SIZE as _SIZE
from .grammar import FOOTNOTE_DEF as _FOOTNOTE_DEF
from .grammar import FOOTNOTE_REF as _FOOTNOTE_REF
from .grammar import LINK as _LINK
from .grammar import LIST_ITEM_BLANK as _LIST_ITEM
from .grammar import LIST_MARKER, split_wikilink
from .grammar import SCHEME as _SCHEME
from .grammar import TAG as _TAG
from .guards import MAX_EMPHASIS, MAX_INDENT, deep_blocks, deep_emphasis
from .inline_fields import MAX_PROPERTY_KEYS, InlineField, extract_inline_fields
from .mask import code_and_math, mask
from .math import Formula, to_mathml
from .model import BlockId, Footnote, Heading, LinkForm, LinkRef, ParsedDoc, Tag

_SETEXT_SCAN = re.compile(r"\n(?P<under>=+|-+)[ \t]*(?=\n|\Z)")
_ATTR_LIST = re.compile(r"[ \t]*\{:?(?P<attrs>[^}\n]*)\}[ \t]*$")
_ATTR_ID = re.compile(r"(?:^|\s)#(?P<id>[^\s}]+)")

# The link, tag, block-id and footnote syntaxes are grammar's (imported above).
#: The link grammar, for ``relink`` to find a link's bytes in a note again.
LINK_PATTERN = _LINK
# A field key that names a typed relation once normalised (``field_key``): a
# wikilink in any other field (``[Hello!:: [[A]]]``) stays a plain link.
_RELATION_KEY = re.compile(r"[A-Za-z_]\w{0,60}")
# These scan a whole body once (see `_Sentences`), so each starts with a literal
# the regex engine jumps to at C speed; it tries a lookbehind, a `^` or even a
# class like [.!?] at every offset.  Hence one sentence-end pattern per mark.
_SENTENCE_ENDS = tuple(
    (mark, re.compile(
        re.escape(mark)                # the end of a sentence...
        + r"(?P<gap>[ \t\n]+)"         # ...the whitespace after it, which is the boundary...
        + r"(?=[A-Z0-9\"'(\[*_])"      # ...and what can start the next one
    ))
    for mark in ".!?"
)
_NEWLINE = re.compile(r"\n")
# Scans "\n" + body: a match starts on the newline, i.e. at the body offset of its line.
_LINE_UNIT = re.compile(r"\n[ \t]*(?:" + LIST_MARKER + r"[ \t]|\|)")

#: Longest context snippet kept for a backlink.
_CONTEXT_MAX = 280


def decode(data: bytes) -> tuple[str, bool]:
    """Bytes -> text (BOM dropped, newlines normalised); False when not valid UTF-8."""
    ok = True
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("utf-8-sig", errors="replace")
        ok = False
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in text:
        text = text.replace("\0", "\ufffd")
    return text, ok


def note_text(data: bytes) -> tuple[str, bool]:
    """A Markdown note's text as every part of the build reads it: ``decode``d, with
    its ``%%comments%%`` removed (lines kept); False when not valid UTF-8."""
    text, ok = decode(data)
    return strip_comments(text), ok


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_markdown(path: SrcPath, data: bytes, display: str) -> ParsedDoc:
    """Parse one note.  ``display`` is the path diagnostics print (``docs/a.md``)."""
    return parse_markdown_text(path, data, display)[0]


def parse_markdown_text(path: SrcPath, data: bytes, display: str) -> tuple[ParsedDoc, str]:
    """``parse_markdown``, and the note's text as it decoded it (``note_text``)."""
    text, utf8 = note_text(data)
    sha = digest(data)
    found: list[diag.Diagnostic] = []
    if not utf8:
        line, col = _first_bad_byte(data)
        found.append(diag.make(
            "bad-encoding", display, line, col,
            "the file is not valid UTF-8; invalid bytes are shown as \ufffd "
            "(re-save it as UTF-8)",
        ))
    front = fm.split(text)
    if front.error is not None:
        found.append(diag.make(
            "bad-frontmatter", display, front.error.line, front.error.column,
            f"{front.error.message}; the block is shown as code on the page "
            "(fix the syntax, or quote values that contain ':' or '#')",
        ))
    if front.unclosed is not None:
        found.append(diag.make("bad-frontmatter", display, front.unclosed.line,
                               front.unclosed.column, front.unclosed.message))
    body = text[front.body_offset:]
    first_line = front.body_line
    for block in deep_blocks(body):
        found.append(diag.make(
            "nesting-depth", display, first_line + block.line, 1,
            f"a list or quote nested {block.depth} levels deep cannot be rendered (the "
            f"limit is {MAX_INDENT // 4} levels); it is shown as plain text. Flatten it",
        ))
    for block in deep_emphasis(body):
        found.append(diag.make(
            "nesting-depth", display, first_line + block.line, 1,
            f"emphasis (* or _) nested {block.depth} levels deep cannot be rendered (the "
            f"limit is {MAX_EMPHASIS} levels); the paragraph is shown as plain text. Close "
            "the * or _ runs, or escape them as \\*",
        ))
    return _scan(path, sha, body, first_line, front, found, display), text


def _scan(
    path: SrcPath,
    sha: str,
    body: str,
    first_line: int,
    front: fm.Frontmatter,
    found: list[diag.Diagnostic],
    display: str,
) -> ParsedDoc:
    regions, formulas = code_and_math(body)
    pos = _Positions(body, first_line)
    if formulas:
        regions = sorted(regions + [(f.start, f.end) for f in formulas])
        found.extend(_math_errors(formulas, pos, display))
    masked = mask(body, regions)
    headings = tuple(_headings(masked, body, pos))
    fields = extract_inline_fields(body, first_line, masked=masked)
    if len(fields) > MAX_PROPERTY_KEYS:
        found.extend(_too_many_keys(fields, display))
    links = list(_links(masked, body, pos, _relation_spans(fields)))
    meta_lines = fm.key_lines(front.raw, first_line=2) if front.data else {}
    links += meta_links(front.data, meta_lines)
    return ParsedDoc(
        path=path,
        kind="markdown",
        digest=sha,
        meta=front.data,
        frontmatter_format=front.format,
        body_offset=front.body_offset,
        body_line=first_line,
        frontmatter_end=front.block_end,
        bad_frontmatter=front.error is not None,
        headings=headings,
        leading_h1=_leading_h1(headings, body, pos),
        blocks=tuple(_block_ids(masked, pos)),
        links=tuple(links),
        tags=_limited_tags(list(_tags(masked, pos)), found, display),
        footnote_refs=_footnotes(_FOOTNOTE_REF, masked, pos),
        footnote_defs=_footnotes(_FOOTNOTE_DEF, masked, pos),
        inline_fields=fields,
        meta_lines=meta_lines,
        line_count=first_line - 1 + body.count("\n") + (0 if body.endswith("\n") else 1),
        diagnostics=tuple(found),
    )


def _math_errors(
    formulas: list[Formula], pos: _Positions, display: str
) -> Iterator[diag.Diagnostic]:
    for formula in formulas:
        _html, why = to_mathml(formula.latex, formula.display)
        if why:
            line, col = pos.at(formula.start)
            yield diag.make(
                "math-error", display, line, col,
                f"could not convert this formula: {why}; it is shown as source "
                "(check the LaTeX)",
            )


class _Positions:
    """Offsets in the body -> (line, column) in the file (bisect over line starts)."""

    __slots__ = ("first_line", "starts")

    def __init__(self, text: str, first_line: int) -> None:
        self.first_line = first_line
        self.starts = [0]
        self.starts.extend(m.end() for m in _NEWLINE.finditer(text))

    def at(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self.starts, offset) - 1
        return self.first_line + index, offset - self.starts[index] + 1

    def line(self, offset: int) -> int:
        return self.first_line + bisect_right(self.starts, offset) - 1


def _headings(masked: str, body: str, pos: _Positions) -> Iterator[Heading]:
    found: list[tuple[int, Heading]] = []
    padded = "\n" + masked  # padded[i + 1] == masked[i]: a match at i is a line at i
    if "#" in masked:
        for m in _ATX_SCAN.finditer(padded):
            raw = body[m.start("text") - 1:m.end("text") - 1] if m.group("text") else ""
            if raw.endswith(("#", " ", "\t")):  # else there is nothing to remove
                raw = _CLOSING_HASHES.sub("", raw)
            raw = raw.strip()
            found.append((m.start(), _heading(len(m.group("hashes")), raw, m.start(), pos)))
    if "\n=" in masked or "\n-" in masked:
        for m in _SETEXT_SCAN.finditer(padded):
            start = _setext_text_start(masked, m.start())
            if start is None:
                continue
            level = 1 if m.group("under")[0] == "=" else 2
            raw = body[start:m.start() - 1].strip()
            found.append((start, _heading(level, raw, start, pos)))
    found.sort(key=lambda item: item[0])
    for _, heading in found:
        yield heading


def _leading_h1(headings: tuple[Heading, ...], body: str, pos: _Positions) -> bool:
    """Is the first heading an H1 with nothing but blank lines above it?

    Only then is it the note's title (MkDocs takes an H1 that is the page's first
    element; Obsidian shows the file name): an H1 further down is a section.
    """
    if not headings or headings[0].level != 1:
        return False
    line_start = pos.starts[headings[0].line - pos.first_line]
    return not body[:line_start].strip()


def _setext_text_start(masked: str, underline: int) -> int | None:
    """Start of the text line above a setext underline, if it makes a heading.

    Python-Markdown only sees a setext heading in the first line of a block.
    """
    if underline < 2:
        return None
    start = masked.rfind("\n", 0, underline - 1) + 1
    text = masked[start:underline - 1]
    if not text.strip() or text.startswith(("    ", "\t")) or _LIST_ITEM.match(text):
        return None
    if text.lstrip().startswith(("|", ">", "#")):
        return None
    if start > 1 and masked[start - 2] != "\n":
        # not after a blank line: only after an ATX heading, which is a block of its own
        prev_start = masked.rfind("\n", 0, start - 1) + 1
        if not _ATX_HEADING.match(masked[prev_start:start - 1]):
            return None
    return start


def _heading(level: int, raw: str, offset: int, pos: _Positions) -> Heading:
    explicit = None
    attrs = _ATTR_LIST.search(raw) if "{" in raw else None
    if attrs:
        id_match = _ATTR_ID.search(attrs.group("attrs"))
        if id_match:
            explicit = id_match.group("id")
        raw = raw[: attrs.start()]
    line, col = pos.at(offset)
    return Heading(level, raw.strip(), explicit, line, col)


class _FieldSpans(NamedTuple):
    """The inline fields holding a wikilink that names a typed relation: their
    (start, end) offsets in the body, sorted, and each one's relation."""

    starts: list[int]
    ends: list[int]
    relations: list[str]

    def relation_at(self, offset: int) -> str | None:
        i = bisect_right(self.starts, offset) - 1
        return self.relations[i] if i >= 0 and offset < self.ends[i] else None


def _relation_spans(fields: tuple[InlineField, ...]) -> _FieldSpans:
    """Every field whose value holds ``[[`` and whose key is a relation name
    (``field_key``); a link inside its span is a typed link of that relation."""
    spans = _FieldSpans([], [], [])
    for f in fields:
        if "[[" in f.raw:
            relation = field_key(f.key)
            if _RELATION_KEY.fullmatch(relation):
                spans.starts.append(f.start)
                spans.ends.append(f.end)
                spans.relations.append(relation)
    return spans


def _too_many_keys(fields: tuple[InlineField, ...], display: str) -> list[diag.Diagnostic]:
    """``too-many-fields`` at the first field whose key is one too many for the
    graph (``graph.inline_properties`` stops at the same key)."""
    keys: set[str] = set()
    for f in fields:
        keys.add(f.key.lower())
        if len(keys) > MAX_PROPERTY_KEYS:
            return [diag.make(
                "too-many-fields", display, f.line, f.column,
                f"this note has more than {MAX_PROPERTY_KEYS} different inline-field keys; "
                f"from `{f.key}::` on they are not properties of its node in Cypher "
                "queries (Dataview still reads them all): split the note, or make the "
                "list a table")]
    return []


def field_key(text: str) -> str:
    """Dataview-style key normalisation: ``Depends On`` -> ``depends_on``."""
    return re.sub(r"[\s\-]+", "_", text.strip()).lower()


def _links(
    masked: str, body: str, pos: _Positions, fields_at: _FieldSpans
) -> Iterator[LinkRef]:
    if "[" not in masked and "<http" not in masked:
        return
    sentences = _Sentences(body)
    at = 0
    angles = [masked.find("<http")]  # the next "<http" at or after `at` (-1: none left)
    while (m := _next_link(masked, at, angles)) is not None:
        start = m.start()
        escaped = start > 0 and masked[start - 1] == "\\"
        if escaped or (m.group("mdbang") is not None and start > 0 and masked[start - 1] == "]"):
            at = start + 1  # `\[[x]]` is literal; `\![[x]]` may still hold a link at +1
            continue
        at = m.end()
        line, col = pos.at(start)
        if m.group("inner") is not None:
            link = _wikilink(m, sentences, line, col, fields_at)
        elif m.group("url") is not None:
            link = LinkRef("autolink", m.group("url"), "", None, line, col, "links_to")
        else:
            link = _markdown_link(m, sentences, line, col)
        if link is not None:
            yield link


def _next_link(masked: str, at: int, angles: list[int] | None = None) -> re.Match[str] | None:
    """``_LINK.search(masked, at)``, without trying the regex at every offset.

    The regex engine cannot skip ahead to a lookahead or a class of characters
    (it tries each offset), but ``str.find`` jumps to a literal at C speed.
    ``angles`` holds where the next ``<http`` is, kept between calls: a note with
    no autolink was searched to its end for one before each of its links.
    """
    bracket = masked.find("[", at)
    if angles is None:
        angles = [masked.find("<http", at)]
    elif 0 <= angles[0] < at:
        angles[0] = masked.find("<http", at)
    angle = angles[0]
    while bracket >= 0 or angle >= 0:
        if angle < 0 or 0 <= bracket < angle:
            if bracket > at and masked[bracket - 1] == "!":
                m = _LINK.match(masked, bracket - 1)
                if m is not None:
                    return m
            m = _LINK.match(masked, bracket)
            if m is not None:
                return m
            bracket = masked.find("[", bracket + 1)
        else:
            m = _LINK.match(masked, angle)
            if m is not None:
                return m
            angle = angles[0] = masked.find("<http", angle + 1)
    return None


def _wikilink(
    m: re.Match[str],
    sentences: _Sentences,
    line: int,
    col: int,
    fields_at: _FieldSpans,
) -> LinkRef | None:
    inner = sentences.body[m.start("inner"):m.end("inner")]
    target, fragment, display = split_wikilink(inner)
    if not target and not fragment:
        return None
    context = sentences.around(m.start(), m.end())
    if m.group("bang"):
        size = display if display and _SIZE.fullmatch(display) else None
        return LinkRef("embed", target, fragment, None if size else display, line, col,
                       "embeds", context, size)
    relation = fields_at.relation_at(m.start()) if fields_at.starts else None
    if relation is not None:
        return LinkRef("field", target, fragment, display, line, col, relation, context)
    return LinkRef("wikilink", target, fragment, display, line, col, "links_to", context)


def _markdown_link(
    m: re.Match[str], sentences: _Sentences, line: int, col: int
) -> LinkRef | None:
    href = m.group("href").strip()
    if href.startswith("<") and href.endswith(">"):
        href = href[1:-1].strip()
    text = sentences.body[m.start("text"):m.end("text")]
    image = bool(m.group("mdbang"))
    if _SCHEME.match(href):
        if href.lower().startswith(("http://", "https://")):
            return LinkRef("autolink", href, "", text or None, line, col, "links_to")
        return None  # mailto:, data:, ... are not part of the graph
    path, _, fragment = href.partition("#")
    path = unquote(path.partition("?")[0])
    if not path and not fragment:
        return None
    form: LinkForm = "image" if image else "markdown"
    return LinkRef(form, path, unquote(fragment), text or None, line, col,
                   "embeds" if image else "links_to", sentences.around(m.start(), m.end()))


def meta_links(data: dict[str, Any], lines: dict[str, int]) -> list[LinkRef]:
    """Fields whose value is a wikilink or a list of them (typed relations)."""
    links: list[LinkRef] = []
    for key, value in data.items():
        targets = list(_wikilink_values(value))
        if not targets:
            continue
        line = lines.get(key, 1)
        for inner in targets:
            target, fragment, display = split_wikilink(inner)
            if target or fragment:
                links.append(LinkRef("meta", target, fragment, display, line, 1, key))
    return links


def _wikilink_values(value: Any) -> Iterator[str]:
    """``"[[A]]"``, ``["[[A]]", "[[B]]"]`` and unquoted YAML ``[[A]]`` (a nested list)."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[[") and text.endswith("]]") and "[[" not in text[2:]:
            yield text[2:-2]
    elif isinstance(value, list):
        if len(value) == 1 and isinstance(value[0], list) and len(value[0]) == 1 and (
            isinstance(value[0][0], str)
        ):
            yield value[0][0]  # YAML read `key: [[A]]` as [["A"]]
            return
        for item in value[:1000]:
            if isinstance(item, str):
                yield from _wikilink_values(item)
            elif isinstance(item, list) and len(item) == 1 and isinstance(item[0], str):
                yield item[0]


class _Sentences:
    """The sentence around any link of one body, within its paragraph.

    Line units (list items, table rows) and sentence ends are found once per
    body; each link then costs a few bisections instead of a scan of its
    paragraph.  A scan of ``body[a:b]`` (``finditer(body, a, b)``) would find
    exactly the whole-body matches that start at or after ``a`` and, for a
    sentence end, whose lookahead character lies before ``b``: ``_LINE_UNIT``
    matches hold no newline, and a sentence-end match is a whole run of
    whitespace after ``.!?`` (lookbehind sees before ``a``; the lookahead
    cannot see ``b``).
    """

    __slots__ = ("body", "_units", "_starts", "_ends")

    def __init__(self, body: str) -> None:
        self.body = body
        self._units: list[int] | None = None
        self._starts: list[int] = []
        self._ends: list[int] = []

    def _find_boundaries(self) -> list[int]:
        """Scan the body for line units and sentence ends (once: on its first link)."""
        body = self.body
        self._units = [m.start() for m in _LINE_UNIT.finditer("\n" + body)]
        gaps: list[tuple[int, int]] = []
        for mark, pattern in _SENTENCE_ENDS:
            if mark in body:
                gaps += [m.span("gap") for m in pattern.finditer(body)]
        gaps.sort()
        self._starts = [gap_start for gap_start, _ in gaps]
        self._ends = [gap_end for _, gap_end in gaps]
        return self._units

    def around(self, start: int, end: int) -> str:
        """The sentence around ``body[start:end]``, whitespace collapsed, at most ~280 chars."""
        body = self.body
        units = self._units if self._units is not None else self._find_boundaries()
        # The paragraph's ends, looked for no further than a long paragraph is cut to
        # below anyway (thousands of links in one paragraph: a search of the whole
        # body for each was quadratic); not found there, the paragraph is long.
        reach = 4 * _CONTEXT_MAX + 2
        floor = max(0, start - reach)
        para_start = body.rfind("\n\n", floor, start)
        para_start = floor if para_start < 0 else para_start + 2
        ceiling = min(len(body), end + reach)
        para_end = body.find("\n\n", end, ceiling)
        para_end = ceiling if para_end < 0 else para_end
        # A list item (all its lines) or a table row is its own unit of text.
        i = bisect_right(units, start) - 1
        j = bisect_right(units, end)
        if i >= 0 and units[i] >= para_start:
            para_start = units[i]
        if j < len(units) and units[j] < para_end:
            para_end = units[j] - 1
        if para_end - para_start > 4 * _CONTEXT_MAX:
            para_start = max(para_start, start - _CONTEXT_MAX)
            para_end = min(para_end, end + _CONTEXT_MAX)
        starts, ends = self._starts, self._ends
        k = bisect_right(ends, start) - 1
        sent_start = ends[k] if k >= 0 and starts[k] >= para_start else para_start
        k = bisect_left(starts, end)
        sent_end = starts[k] if k < len(starts) and ends[k] < para_end else para_end
        snippet = " ".join(body[sent_start:sent_end].split())
        if len(snippet) > _CONTEXT_MAX:
            rel = body[sent_start:start].count(" ")
            words = snippet.split(" ")
            lo = max(0, rel - 20)
            snippet = ("… " if lo else "") + " ".join(words[lo: lo + 45]) + " …"
        return snippet


def _tags(masked: str, pos: _Positions) -> Iterator[Tag]:
    for m in tag_matches(masked):
        yield Tag(m.group("tag"), *pos.at(m.start()))


def tag_names(masked: str) -> list[str]:
    """The tags of a text (code masked, ``codecs.mask``) without their ``#``, in
    order: the one reader of tags (the compile's, Dataview's list items)."""
    return [m.group("tag") for m in tag_matches(masked)]


def tag_matches(masked: str) -> Iterator[re.Match[str]]:
    """Each tag of a text (code masked): ``#`` after whitespace or at the start,
    not a heading's marker, not an attr_list's ``{ #id }``."""
    if "#" not in masked:
        return
    for m in _TAG.finditer(masked):
        start = m.start()
        if start > 0 and masked[start - 1] not in " \t\n":
            continue  # C#, a#b, #x inside a URL or after another '#'
        line_start = masked.rfind("\n", 0, start) + 1
        if _ATX_HEADING.match(masked, line_start) and _is_heading_marker(masked, line_start, start):
            continue
        if "{" in masked[line_start:start] and _in_attr_list(masked, line_start, start):
            continue  # `## Heading { #id }`: attr_list's id, not a tag
        yield m


def _in_attr_list(text: str, line_start: int, at: int) -> bool:
    """Is ``at`` inside a ``{ ... }`` that ends its line (an attr_list)?"""
    line_end = text.find("\n", at)
    m = _ATTR_LIST.search(text, line_start, len(text) if line_end < 0 else line_end)
    return m is not None and m.start() <= at


#: Distinct tags one note may give the site: each gets a page, and a note with
#: thousands of them (a pasted word list) would add thousands of pages.
MAX_TAGS_PER_NOTE = 100


def _limited_tags(tags: list[Tag], found: list[diag.Diagnostic], display: str) -> (
    tuple[Tag, ...]
):
    """``tags``, but only the first ``MAX_TAGS_PER_NOTE`` distinct names (reported)."""
    names: dict[str, None] = {}
    for tag in tags:
        names.setdefault(tag.name.lower(), None)
        if len(names) > MAX_TAGS_PER_NOTE:
            found.append(diag.make(
                "too-many-tags", display, tag.line, tag.column,
                f"this note has more than {MAX_TAGS_PER_NOTE} different tags; from "
                f"#{tag.name} on they are text, not tags (each tag gets a page): split "
                "the note, or write the words without '#'"))
            keep = set(list(names)[:MAX_TAGS_PER_NOTE])
            return tuple(t for t in tags if t.name.lower() in keep)
    return tuple(tags)


def _is_heading_marker(masked: str, line_start: int, at: int) -> bool:
    """The ``#`` at ``at`` is part of the heading's own ``##`` marker."""
    prefix = masked[line_start:at]
    return not prefix.strip(" #")


def _footnotes(pattern: re.Pattern[str], masked: str, pos: _Positions) -> tuple[Footnote, ...]:
    if "[^" not in masked:
        return ()  # the check spares a scan: `^` gives the regex engine nothing to skip to
    return tuple(Footnote(m.group("id"), *pos.at(m.start())) for m in pattern.finditer(masked))


def _block_ids(masked: str, pos: _Positions) -> Iterator[BlockId]:
    if "^" not in masked:
        return
    for m in _BLOCK_ID.finditer(masked):
        if m.start() > 0 and masked[m.start() - 1] not in " \t\n":
            continue  # x^2 is not a block id
        line_start = masked.rfind("\n", 0, m.start()) + 1
        end_offset = m.start()
        if not masked[line_start:m.start()].strip():
            # `^id` alone on a line names the whole block just above it: a list,
            # table, quote, callout, image or paragraph (Obsidian puts a blank line
            # between a table or quote and its id; the id may also follow directly).
            end_offset = _previous_text_line(masked, line_start)
            if end_offset < 0:
                continue
            start_offset = _run_start(masked, end_offset)
        else:
            start_offset = _block_start(masked, end_offset)
        line, col = pos.at(m.start())
        yield BlockId(m.group("id"), line, col, pos.line(start_offset), pos.line(end_offset))


def _previous_text_line(masked: str, line_start: int) -> int:
    """Start offset of the nearest non-blank line above ``line_start`` (-1: none)."""
    while line_start > 0:
        prev_start = masked.rfind("\n", 0, line_start - 1) + 1
        if masked[prev_start:line_start - 1].strip():
            return prev_start
        line_start = prev_start
    return -1


def _run_start(masked: str, offset: int) -> int:
    """First offset of the run of non-blank lines that holds ``offset`` (a whole
    list, table, quote or paragraph), stopping below an ATX heading, which is a
    block of its own."""
    line_start = masked.rfind("\n", 0, offset) + 1
    while line_start > 0:
        prev_start = masked.rfind("\n", 0, line_start - 1) + 1
        previous = masked[prev_start:line_start - 1]
        if not previous.strip() or _ATX_HEADING.match(previous):
            break
        line_start = prev_start
    return line_start


def _block_start(masked: str, offset: int) -> int:
    """First offset of the paragraph or list item that contains ``offset``."""
    line_start = masked.rfind("\n", 0, offset) + 1
    while line_start > 0 and not _LIST_ITEM.match(masked, line_start):
        prev_start = masked.rfind("\n", 0, line_start - 1) + 1
        if not masked[prev_start:line_start - 1].strip():
            break
        line_start = prev_start
    return line_start


def _first_bad_byte(data: bytes) -> tuple[int, int]:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return line, col
    return 1, 1

"""``beliefbase sync`` fixes links to renamed notes (SPEC §10, issue 20).

``plan`` reads the link record (``builder/link_record.py``): a link the record
marks stale meant a note that has since moved or been retitled, and it is
rewritten to mean that note again.  The new target is the shortest form that
resolves to it, and only to it, from the linking note: its file name, else its
path from the docs root, else (wikilinks to a note with a ``bid:``) its bref.
Markdown links get the path relative to the linking note, URL-quoted where the
href needs it.

``fix_links`` is the ``str -> str`` transform ``writeback.edit_file`` applies:
it changes only the bytes of each link's target — display text, fragment,
``!``, brackets, the rest of the line and file stay as they were — and raises
``EditError`` (so nothing is written) when a link is not where the compile saw
it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from .builder import link_record
from .builder.documents import Document
from .builder.link_record import LinkRecord
from .codecs import frontmatter as fm
from .codecs.grammar import split_wikilink
from .codecs.markdown import LINK_PATTERN
from .codecs.model import LinkRef
from .compile.compiled import Compiled
from .ids import SrcPath, bref
from .writeback import EditError

# Line breaks as the codec counts them (it reads CR, LF and CRLF alike as one).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Characters a wikilink target cannot hold (they end or split it) or a name
# that would be read as a BID link.
_NOT_IN_WIKILINK = re.compile(r"[\[\]|#^\r\n]|^\s|\s$|^bid:", re.IGNORECASE)
# What a frontmatter value may hold without a YAML/TOML quoting question.
_META_SAFE = re.compile(r"[\w .\-/]+")
# Characters an unbracketed Markdown href cannot hold as they are (controls too).
_HREF_QUOTE = re.compile(r"[\s\x00-\x1f\x7f()<>%#?\[\]\\\"']")
# ... and inside ``<…>``, where spaces and parentheses may stay.
_ANGLE_QUOTE = re.compile(r"[\x00-\x1f\x7f<>%#?\\]")


@dataclass(frozen=True, slots=True)
class Fix:
    """Rewrite ``link`` so that its target reads ``new_target`` (a Markdown link's
    path unquoted: it is quoted as its href needs)."""

    link: LinkRef
    new_target: str
    target: SrcPath


@dataclass(frozen=True, slots=True)
class Unfixable:
    link: LinkRef
    target: SrcPath
    why: str


def plan(compiled: Compiled, rec: LinkRecord) -> dict[SrcPath, list[Fix | Unfixable]]:
    """Per published note, the links to rewrite (record from ``link_record.record``)."""
    out: dict[SrcPath, list[Fix | Unfixable]] = {}
    for source, entries in rec.links.items():
        doc = compiled.documents.get(SrcPath(source))
        if doc is None or not doc.published or doc.kind != "markdown":
            continue
        fixes: list[Fix | Unfixable] = []
        for link in doc.parsed.links:
            key = link_record.link_key(link.form, link.target)
            entry = entries.get(key) if key is not None else None
            if entry is None or not entry[1]:
                continue
            target = compiled.documents.get(SrcPath(entry[0]))
            if target is None:
                continue
            fixes.append(fix_for(compiled, doc, link, target))
        if fixes:
            out[doc.path] = fixes
    return out


def fix_for(compiled: Compiled, doc: Document, link: LinkRef, target: Document
            ) -> Fix | Unfixable:
    """How ``link`` in ``doc`` is written to mean ``target`` again (or why it cannot be)."""
    if link.form == "markdown":
        if not target.path.lower().endswith(".md"):
            return Unfixable(link, target.path, "a Markdown link can only point at a .md note")
        relative = posixpath.relpath(target.path, doc.folder or ".")
        return Fix(link, relative, target.path)
    resolver = compiled.link_resolver
    assert resolver is not None
    base = target.path[:-3] if target.path.lower().endswith(".md") else target.path
    forms = [posixpath.basename(base), base]
    if link_record.explicit_bid(target) is not None:
        forms.append(f"bid:{bref(target.bid)}")
    for form in dict.fromkeys(forms):
        if _NOT_IN_WIKILINK.search(form) and not form.startswith("bid:"):
            continue
        if link.form == "meta" and not _META_SAFE.fullmatch(form.replace(":", "")):
            continue
        found = resolver.resolve_one(link._replace(target=form), doc)
        if found.status == "ok" and found.target == target.path and len(found.candidates) < 2:
            return Fix(link, form, target.path)
    return Unfixable(link, target.path, "no link text resolves to it alone")


def quote_href(path: str, angle: bool = False) -> str:
    """``path`` for a Markdown href (``angle``: written inside ``<…>``), the characters
    that would end or change it quoted."""
    pattern = _ANGLE_QUOTE if angle else _HREF_QUOTE
    return pattern.sub(lambda m: quote(m.group(), safe=""), path)


def fix_links(text: str, fixes: list[Fix]) -> str:
    """``text`` with each fix's link target rewritten, every other byte kept."""
    if not fixes:
        return text
    new = text
    for start, end, replacement in reversed(link_edits(text, fixes)):
        new = new[:start] + replacement + new[end:]
    if any(f.link.form == "meta" for f in fixes) and fm.split(new).error is not None:
        raise EditError("the fixed link would break the frontmatter; edit it by hand")
    return new


def link_edits(text: str, fixes: list[Fix]) -> list[tuple[int, int, str]]:
    """Where each fix rewrites ``text``: (start, end, new target), in order and apart
    (``EditError`` when a link is not where it was read, or two edits overlap)."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    front_end = fm.split(text).block_end
    spans: list[tuple[int, int, str]] = []
    for fix in fixes:
        span = _target_span(text, starts, front_end, fix.link)
        if span is None:
            raise EditError(f"a link to {fix.link.target!r} is not where it was read; "
                            "run sync again")
        start, end, angle = span
        new_target = fix.new_target
        if fix.link.form == "markdown":
            new_target = quote_href(new_target, angle)
        spans.append((start, end, new_target))
    spans = sorted(set(spans))
    for (_, end, _), (start, _, _) in zip(spans, spans[1:], strict=False):
        if start < end:
            raise EditError("two link edits overlap; edit this file by hand")
    return spans


def _target_span(text: str, starts: list[int], front_end: int, link: LinkRef) -> (
    tuple[int, int, bool] | None
):
    """Where in ``text`` the target of ``link`` is written (the match nearest to its
    column), and whether it is a Markdown href in angle brackets."""
    if link.line < 1 or link.line > len(starts):
        return None
    begin = starts[link.line - 1]
    if link.form == "meta":  # the key's line; a list may go on over the next lines
        stop = max(front_end, begin)
    else:
        stop = starts[link.line] if link.line < len(starts) else len(text)
    best: tuple[int, tuple[int, int, bool]] | None = None
    for m in LINK_PATTERN.finditer(text, begin, stop):
        span = _span_in_match(m, link)
        if span is not None:
            distance = abs(m.start() - begin + 1 - link.column)
            if best is None or distance < best[0]:
                best = (distance, span)
    return best[1] if best else None


def _span_in_match(m: re.Match[str], link: LinkRef) -> tuple[int, int, bool] | None:
    """The offsets of the target inside one link match, if it is ``link``'s target."""
    if m.group("inner") is not None:
        if link.form == "markdown" or bool(m.group("bang")) != (link.form == "embed"):
            return None
        inner = m.group("inner")
        target, _, _ = split_wikilink(inner)
        if target != link.target:
            return None
        at = inner.find(target)
        return m.start("inner") + at, m.start("inner") + at + len(target), False
    if m.group("href") is None or link.form != "markdown" or m.group("mdbang"):
        return None
    href = m.group("href")
    start = m.start("href")
    angle = href.startswith("<") and href.endswith(">")
    if angle:
        href, start = href[1:-1], start + 1
    path = href.partition("#")[0].partition("?")[0]
    if unquote(path.strip()) != link.target:
        return None
    lead = len(path) - len(path.lstrip())
    return start + lead, start + lead + len(path.strip()), angle

"""The link record: which note each written link meant, kept across compiles.

``beliefbase sync`` fixes a link whose target was renamed, moved or retitled
(SPEC §10).  To know what a link meant before the rename it needs an earlier
compile's answer, so every compile that writes the parse cache (the command
line, ``mkdocs build``, ``mkdocs serve`` on its first build and on exit) also
writes ``link-record.json`` in ``cache_dir``:

* ``notes``: every document as it was: path -> [its BID, 1 if written in its
  frontmatter (0: provisional), SHA-256 of its bytes, title];
* ``links``: per published source note, per written target (``w:`` + a
  wikilink's target, ``m:`` + a Markdown link's unquoted path) -> [the path of
  the note it means, stale]: ``stale`` is 1 when the link no longer resolves to
  that note because the note moved or was retitled.

A note is followed from one compile to the next by its BID: a ``bid:`` in its
frontmatter, or the provisional BID the compile gave it if a ``bid:`` with that
value has been written since (what ``sync`` writes).  A provisional BID
derives from the note's path, so a rename changes it: a note without a
``bid:`` is followed only by content, when its path vanished and exactly one
new path holds the same bytes (a pure rename or move).  A note renamed *and*
edited without a ``bid`` cannot be followed.

Recording merges with the record on disk: a link that stops resolving (or now
resolves to another note because its own moved or was retitled) keeps what it
meant, so a build between the rename and the ``sync`` loses nothing.  The file
is versioned; one from another version, or one that fails to load, is
ignored, and deleting it only means ``sync`` cannot fix the renames made
before the next compile.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import write_text
from ..ids import SrcPath, parse_bid
from .compiled import Linked
from .documents import Document
from .resolve import ResolvedLink

RECORD_FILE = "link-record.json"
_FORMAT = "beliefbase-link-record/1"
_WIKI_FORMS = ("wikilink", "embed", "field", "meta")


@dataclass(frozen=True, slots=True)
class NoteFacts:
    """What the record keeps of one document."""

    bid: str  # the compile's BID for it
    explicit: bool  # written in its frontmatter (else provisional: derived from its path)
    sha256: str
    title: str


@dataclass(slots=True)
class LinkRecord:
    notes: dict[str, NoteFacts] = field(default_factory=dict)
    #: source path -> written key -> (target path, stale)
    links: dict[str, dict[str, tuple[str, bool]]] = field(default_factory=dict)


class Tracker:
    """The record's notes matched with one compile's documents (indexed once)."""

    def __init__(self, rec: LinkRecord, now: dict[SrcPath, Document]) -> None:
        self.rec = rec
        self.now = now
        self._by_bid: dict[str, list[Document]] = {}  # documents by a BID in frontmatter
        self._new_by_digest: dict[str, list[Document]] = {}  # at paths the record lacks
        for path, doc in now.items():
            if explicit_bid(doc) is not None:
                self._by_bid.setdefault(str(doc.bid), []).append(doc)
            if path not in rec.notes:
                self._new_by_digest.setdefault(doc.parsed.digest, []).append(doc)
        # sources of recorded links, by what follows them when they move
        self._sources: dict[tuple[str, str], str] = {}
        for source in rec.links:
            facts = rec.notes.get(source)
            if facts is not None:
                self._sources.setdefault(("bid", facts.bid), source)
                if not facts.explicit:
                    self._sources.setdefault(("sha", facts.sha256), source)

    def follow(self, path: str) -> Document | None:
        """The document that the note recorded at ``path`` has become."""
        facts = self.rec.notes.get(path)
        if facts is None:
            return None
        found = self._by_bid.get(facts.bid, [])
        if found or facts.explicit:
            return found[0] if len(found) == 1 else None
        doc = self.now.get(SrcPath(path))
        if doc is not None:  # where it was, still without a bid: the same provisional one
            return doc if str(doc.bid) == facts.bid else None
        moved = self._new_by_digest.get(facts.sha256, [])
        return moved[0] if len(moved) == 1 else None

    def source_path(self, doc: Document) -> str | None:
        """Where the record keeps the links of ``doc`` (it may have moved since)."""
        facts = self.rec.notes.get(doc.path)
        if facts is not None and facts.bid == str(doc.bid):
            return doc.path if doc.path in self.rec.links else None
        found = self._sources.get(("bid", str(doc.bid)))
        if found is not None or explicit_bid(doc) is not None:
            return found
        return self._sources.get(("sha", doc.parsed.digest))

    def unchanged(self, entry: tuple[str, bool], now: Document) -> bool:
        """Is ``now`` the very note a fresh recorded link meant, where it was?  (Most
        links: the quick answer before ``meant``.)"""
        facts = self.rec.notes.get(entry[0])
        return (not entry[1] and entry[0] == now.path and facts is not None
                and facts.bid == str(now.bid) and facts.title == now.title)

    def meant(self, entry: tuple[str, bool]) -> tuple[Document, bool] | None:
        """The document a recorded link meant, and whether it moved, was retitled or
        was already stale since."""
        path, stale = entry
        doc = self.follow(path)
        if doc is None:
            return None
        return doc, stale or doc.path != path or doc.title != self.rec.notes[path].title


def link_key(rl_form: str, target: str) -> str | None:
    """The record's key for a written target (None: not a link the record keeps)."""
    if not target:
        return None
    if rl_form in _WIKI_FORMS:
        return "w:" + target
    if rl_form == "markdown":
        return "m:" + target
    return None


def record(compiled: Linked, previous: LinkRecord | None) -> LinkRecord:
    """This compile's record, keeping what ``previous`` knew of links now broken."""
    docs = compiled.documents
    tracker = Tracker(previous, docs) if previous is not None else None
    new = LinkRecord(notes={p: NoteFacts(str(d.bid), explicit_bid(d) is not None,
                                         d.parsed.digest, d.title) for p, d in docs.items()})
    for source, links in compiled.links.items():
        doc = docs.get(source)
        if doc is None:
            continue
        # by the parse's own LinkRef objects
        resolved = {id(resolution.link): resolution for resolution in links}
        old_source = tracker.source_path(doc) if tracker is not None else None
        before = tracker.rec.links.get(old_source or "", {}) if tracker is not None else {}
        entries: dict[str, tuple[str, bool]] = {}
        for link in doc.parsed.links:
            key = link_key(link.form, link.target)
            if key is None or key in entries:
                continue
            resolution = resolved.get(id(link))
            now = _target_doc(resolution, docs)
            entry = before.get(key)
            if entry is None or tracker is None or (now is not None and tracker.unchanged(
                    entry, now)):
                if now is not None:
                    entries[key] = (now.path, False)
                continue
            meant = tracker.meant(entry)
            if meant is not None and (now is None or now.path != meant[0].path) and (
                    now is None or meant[1]):
                entries[key] = (meant[0].path, True)
            elif now is not None:
                entries[key] = (now.path, False)
        if entries:
            new.links[source] = entries
    return new


def _target_doc(resolution: ResolvedLink | None, docs: dict[SrcPath, Document]) -> Document | None:
    if (resolution is None or resolution.status != "ok" or resolution.is_asset
            or resolution.target is None):
        return None
    return docs.get(resolution.target)


def explicit_bid(doc: Document) -> str | None:
    """The BID written in ``doc``'s frontmatter (None: it has a provisional one)."""
    value = doc.parsed.meta.get("bid")
    return str(parse_bid(value)) if isinstance(value, str) and parse_bid(value) else None


def load(cache_dir: Path | None) -> LinkRecord | None:
    """The record in ``cache_dir``, or None (missing, unreadable, another version)."""
    if cache_dir is None:
        return None
    try:
        data = json.loads((cache_dir / RECORD_FILE).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return None
        notes = {str(p): NoteFacts(str(f[0]), bool(f[1]), str(f[2]), str(f[3]))
                 for p, f in data["notes"].items()}
        links = {str(s): {str(k): (str(v[0]), bool(v[1])) for k, v in entries.items()}
                 for s, entries in data["links"].items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
    return LinkRecord(notes, links)


def save(cache_dir: Path, rec: LinkRecord) -> bool:
    """Write ``rec`` atomically (temp file + rename); False if it could not be written."""
    payload: dict[str, Any] = {
        "format": _FORMAT,
        "notes": {p: [f.bid, int(f.explicit), f.sha256, f.title] for p, f in rec.notes.items()},
        "links": {s: {k: [v[0], int(v[1])] for k, v in e.items()} for s, e in rec.links.items()},
    }
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))  # C encoder
    try:
        write_text(cache_dir / RECORD_FILE, text)
    except OSError:
        return False
    return True


def update(cache_dir: Path, compiled: Linked) -> LinkRecord:
    """Record ``compiled`` (merged with the record on disk) and write it."""
    rec = record(compiled, load(cache_dir))
    save(cache_dir, rec)
    return rec

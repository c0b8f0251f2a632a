"""Whole-project checks: duplicate identities and ``source_refs`` drift.

Only published documents are compared, so a message never names a draft.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from stat import S_ISREG
from typing import Any

from .. import diagnostics as diag
from ..ids import parse_bid
from .documents import Document
from .options import CompileOptions

_SHA256 = re.compile(r"[0-9a-f]{64}")


def malformed_bids(docs: Iterable[Document], options: CompileOptions) -> list[diag.Diagnostic]:
    """A ``bid`` that is not a UUID: reported (the note uses a provisional BID meanwhile)."""
    found = []
    for doc in sorted(docs, key=attrgetter("path")):
        value = doc.parsed.meta.get("bid")
        if value is None or (isinstance(value, str) and parse_bid(value) is not None):
            continue
        found.append(diag.make(
            "bad-frontmatter", options.display(doc.path), doc.parsed.meta_lines.get("bid", 1), 1,
            f"bid {str(value)[:80]!r} is not a UUID (a BID looks like "
            "0190f0a0-1b2c-7d3e-8f40-123456789abc), so the note uses a provisional id; remove "
            "the field and run `beliefbase sync` to write a new one"))
    return found


def duplicate_ids(docs: Iterable[Document], options: CompileOptions,
                  memo: dict[str, tuple[Document, list[diag.Diagnostic]]] | None = None,
                  linked_ids: Callable[[], Collection[str]] = frozenset) -> (
    list[diag.Diagnostic]
):
    """``id`` twice in one network, a ``bid`` twice, a block id twice in a note.

    A frontmatter ``id`` is a warning only when a link names it (``linked_ids()``,
    asked only when an id is written twice):
    Obsidian gives ``id:`` no meaning and Zettelkasten plugins write the same one
    into many notes, so a vault that never links by id is told once, as info.

    ``memo`` (path -> (document, its duplicate blocks)) keeps the per-note part
    between compiles of ``mkdocs serve``: unchanged notes are the same objects.
    """
    found: list[diag.Diagnostic] = []
    by_id: dict[tuple[str, str], list[Document]] = defaultdict(list)
    by_bid: dict[str, list[Document]] = defaultdict(list)
    memo = {} if memo is None else memo
    for doc in sorted(docs, key=attrgetter("path")):
        if doc.id:
            by_id[(doc.network.id, doc.id)].append(doc)
        if "bid" in doc.parsed.meta:
            by_bid[doc.bid].append(doc)
        known = memo.get(doc.path)
        if known is None or known[0] is not doc:
            known = memo[doc.path] = (doc, _duplicate_blocks(doc, options))
        found += known[1]
    linked: Collection[str] | None = None
    for (_net, value), group in sorted(by_id.items()):
        if len(group) > 1:
            linked = linked_ids() if linked is None else linked
            found += _report(group, "id", value, options, value in linked)
    for value, group in sorted(by_bid.items()):
        found += _report(group, "bid", value, options)
    return found


def _report(group: list[Document], field: str, value: str, options: CompileOptions,
            linked: bool = True) -> list[diag.Diagnostic]:
    if len(group) < 2:
        return []
    first = options.display(group[0].path)
    out = []
    for doc in group[1:]:
        line = doc.parsed.meta_lines.get(field, 1)
        if linked:
            message = (f"{field} {value!r} is also used by {first}; links by {field} go to "
                       f"{first}. Give this note another {field}")
        else:
            message = (f"{field} {value!r} is also used by {first}; no link uses it, so "
                       "nothing goes wrong. If you mean to link by id ([[" + value + "]]), "
                       f"give this note another {field}")
        out.append(diag.make("duplicate-id", options.display(doc.path), line, 1, message,
                             None if linked else diag.Level.INFO))
    return out


def _duplicate_blocks(doc: Document, options: CompileOptions) -> list[diag.Diagnostic]:
    seen: dict[str, int] = {}
    out = []
    for block in doc.parsed.blocks:
        if block.id in seen:
            out.append(diag.make(
                "duplicate-id", options.display(doc.path), block.line, block.column,
                f"block id ^{block.id} is already used on line {seen[block.id]}; "
                f"[[{doc.title}#^{block.id}]] goes to the first. Rename this one",
            ))
        else:
            seen[block.id] = block.line
    return out


@dataclass(frozen=True, slots=True)
class SourceRef:
    """One ``source_refs`` entry and what the compiler found on disk."""

    path: str
    recorded: str | None  # sha256 written in the frontmatter
    current: str | None  # sha256 of the file now (None: missing or refused)
    status: str  # "ok" | "unrecorded" | "drift" | "missing" | "refused"

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.current, "recorded": self.recorded,
                "status": self.status}


class SourceRefChecker:
    """Hashes ``source_refs`` files (cached by stat) and reports drift."""

    def __init__(self, options: CompileOptions) -> None:
        self.options = options
        self.root = Path(os.path.realpath(options.project_dir))
        self._hashes: dict[str, tuple[tuple[int, int], str]] = {}

    def check(self, doc: Document) -> tuple[list[SourceRef], list[diag.Diagnostic]]:
        entries = doc.meta.get("source_refs")
        if not entries:
            return [], []
        if not isinstance(entries, list | tuple):  # a YAML list (frozen: a tuple)
            entries = (entries,)
        refs: list[SourceRef] = []
        found: list[diag.Diagnostic] = []
        line = doc.parsed.meta_lines.get("source_refs", 1)
        for entry in entries[:500]:
            path, recorded = _entry(entry)
            if not path:
                continue
            ref = self._one(path, recorded)
            if recorded is not None and not _SHA256.fullmatch(recorded):
                found.append(diag.make(
                    "bad-frontmatter", self.options.display(doc.path), line, 1,
                    f"source_refs {path!r}: sha256 {recorded!r} is not a SHA-256 (64 hex "
                    "digits; YAML reads an unquoted all-digit value as a number); quote it, "
                    "or run `beliefbase sync --source-refs` to record the current hash"))
                ref = SourceRef(ref.path, None, ref.current, "unrecorded")
            refs.append(ref)
            if ref.status in ("ok", "unrecorded"):
                continue
            found.append(self._diagnostic(doc, ref, line))
        return refs, found

    def _one(self, path: str, recorded: str | None) -> SourceRef:
        if os.path.isabs(path) or ".." in Path(path).parts:
            return SourceRef(path, recorded, None, "refused")
        real = Path(os.path.realpath(self.root / path))
        if real != self.root and self.root not in real.parents:
            return SourceRef(path, recorded, None, "refused")
        current = self._hash(real)
        if current is None:
            return SourceRef(path, recorded, None, "missing")
        if recorded is None:
            return SourceRef(path, None, current, "unrecorded")
        return SourceRef(path, recorded, current, "ok" if recorded == current else "drift")

    def _hash(self, real: Path) -> str | None:
        try:
            st = real.stat()
        except OSError:
            return None
        if not S_ISREG(st.st_mode):  # a pipe would wait forever for a writer
            return None
        key = str(real)
        stat = (st.st_mtime_ns, st.st_size)
        cached = self._hashes.get(key)
        if cached and cached[0] == stat:
            return cached[1]
        try:
            digest = hashlib.sha256(real.read_bytes()).hexdigest()
        except OSError:
            return None
        self._hashes[key] = (stat, digest)
        return digest

    def _diagnostic(self, doc: Document, ref: SourceRef, line: int) -> diag.Diagnostic:
        where = self.options.display(doc.path)
        if ref.status == "refused":
            return diag.make("path-escape", where, line, 1,
                             f"source_refs path {ref.path!r} leaves the project; use a path "
                             "relative to the folder of mkdocs.yml, without '..'")
        if ref.status == "missing":
            return diag.make("source-ref-drift", where, line, 1,
                             f"source_refs file {ref.path!r} does not exist; fix the path or "
                             "remove the entry")
        return diag.make("source-ref-drift", where, line, 1,
                         f"{ref.path} changed since this note recorded it (sha256 "
                         f"{(ref.recorded or '')[:12]}… -> {(ref.current or '')[:12]}…); review "
                         "the note, then run `beliefbase sync --source-refs`")


def _entry(entry: Any) -> tuple[str, str | None]:
    if isinstance(entry, str):
        return entry.strip(), None
    if isinstance(entry, dict):
        path = entry.get("path")
        sha = entry.get("sha256")
        if sha is None or isinstance(sha, bool) or (isinstance(sha, str) and not sha.strip()):
            recorded = None
        else:  # a number too (an unquoted all-digit hash): reported, never ignored
            recorded = str(sha).strip().lower()
        return (str(path).strip() if path else "", recorded)
    return "", None

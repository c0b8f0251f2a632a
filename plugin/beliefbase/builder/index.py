"""Lookup tables for link resolution, one per resolution step (SPEC §5.2).

Built from every document and asset of a compile, in sorted path order, so
that what a link resolves to never depends on the order files were parsed.
Published documents and drafts are indexed apart: a link finds a published
note first, and a draft only when nothing published matches (then it is a
``link-to-unpublished``, and no draft path ever appears in a message).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable

from ..ids import Bid, SrcPath, bref, normalize_name, stem
from .documents import Document


class NameIndex:
    """Where each kind of name points: paths, BIDs, ids, base names, titles."""

    def __init__(self, docs: Iterable[Document], assets: Iterable[SrcPath]) -> None:
        self.docs: dict[SrcPath, Document] = {}
        self.paths: dict[str, SrcPath] = {}  # exact path
        self.paths_ci: dict[str, list[SrcPath]] = defaultdict(list)  # lower-case path
        self.bids: dict[Bid, SrcPath] = {}
        self.brefs: dict[str, list[SrcPath]] = defaultdict(list)
        self.ids: dict[str, list[SrcPath]] = defaultdict(list)
        self.stems: dict[str, list[SrcPath]] = defaultdict(list)  # notes by stem, files by name
        self.folders: dict[str, list[SrcPath]] = defaultdict(list)  # folder name -> index note
        self.names: dict[str, list[SrcPath]] = defaultdict(list)  # titles and aliases
        for doc in sorted(docs, key=lambda d: d.path):
            self._add_doc(doc)
        for path in sorted(assets):
            self.paths[path] = path
            self.paths_ci[path.lower()].append(path)
            self.stems[normalize_name(posixpath.basename(path))].append(path)

    def _add_doc(self, doc: Document) -> None:
        path = doc.path
        self.docs[path] = doc
        self.paths[path] = path
        self.paths_ci[path.lower()].append(path)
        self.bids.setdefault(doc.bid, path)
        self.brefs[bref(doc.bid)].append(path)
        if doc.id:
            self.ids[doc.id].append(path)
        self.stems[normalize_name(stem(path))].append(path)
        base = posixpath.basename(path).lower()
        if base in ("index.md", "readme.md") and doc.folder:
            self.folders[normalize_name(posixpath.basename(doc.folder))].append(path)
        for name in (doc.title, *doc.aliases):
            key = normalize_name(name)
            if key and path not in self.names[key]:
                self.names[key].append(path)

    def folder_index(self, folder: str) -> SrcPath | None:
        """``folder/index.md`` or ``folder/README.md`` if either is a document."""
        for name in ("index.md", "README.md", "readme.md"):
            candidate = f"{folder}/{name}" if folder else name
            if candidate in self.docs:
                return SrcPath(candidate)
        return None

    def suggestion_names(self) -> list[str]:
        """Every title, alias and base name (for "did you mean")."""
        names: set[str] = set()
        for doc in self.docs.values():
            names.add(doc.title)
            names.update(doc.aliases)
            names.add(stem(doc.path))
        return sorted(names)


def doc_keys(doc: Document) -> set[str]:
    """Every normalised name under which ``doc`` can be found (for invalidation)."""
    keys = {
        normalize_name(stem(doc.path)),
        normalize_name(doc.path),
        normalize_name(doc.path.rsplit(".", 1)[0]),
        normalize_name(doc.title),
        doc.bid,
        bref(doc.bid),
    }
    keys.update(normalize_name(a) for a in doc.aliases)
    if doc.id:
        keys.add(normalize_name(doc.id))
    if posixpath.basename(doc.path).lower() in ("index.md", "readme.md"):
        keys.add(normalize_name(posixpath.basename(doc.folder)))
        keys.add(normalize_name(doc.folder))
    return keys


def target_keys(target: str) -> frozenset[str]:
    """The names a link target could match (for invalidation; memoised: targets repeat)."""
    keys = _TARGET_KEYS.get(target)
    if keys is None:
        if len(_TARGET_KEYS) > 200_000:
            _TARGET_KEYS.clear()
        keys = _TARGET_KEYS[target] = _target_keys(target)
    return keys


_TARGET_KEYS: dict[str, frozenset[str]] = {}


def _target_keys(target: str) -> frozenset[str]:
    text = target.strip()
    if text[:4].lower() == "bid:":
        value = text[4:].strip().lower()
        return frozenset({value, value.replace("-", "")[-8:]})
    key = normalize_name(text)
    base = key.rstrip("/").rpartition("/")[2]
    return frozenset({key, base, stem(base)})

"""Lookup tables for link resolution, one per resolution step (SPEC §5.2).

Built from every document and asset of a compile, in sorted path order, so
that what a link resolves to never depends on the order files were parsed.
Published documents and drafts are indexed apart: a link finds a published
note first, and a draft only when nothing published matches (then it is a
``link-to-unpublished``, and no draft path ever appears in a message).
"""

from __future__ import annotations

import copy
import posixpath
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence

from ..frozen import FrozenDict
from ..ids import Bid, SrcPath, bref, normalize_name, stem
from .documents import DRAWING_SUFFIX, Document

#: the tables of a NameIndex, each copied (not shared) by ``NameIndex.updated``
_TABLES = ("docs", "paths", "paths_ci", "bids", "brefs", "ids", "stems", "folders", "names")
#: those whose values are lists of paths (tuples once made)
_LISTS = ("paths_ci", "brefs", "ids", "stems", "folders", "names")


class NameIndex:
    """Where each kind of name points: paths, BIDs, ids, base names, titles.

    Read-only once made (its tables ``FrozenDict``s of tuples): a ``Compiled``'s
    link resolver holds it, and the next compile makes a new one (``updated``,
    ``with_docs``) rather than change it.
    """

    docs: dict[SrcPath, Document]
    paths: dict[str, SrcPath]  # exact path
    paths_ci: dict[str, Sequence[SrcPath]]  # lower-case path
    bids: dict[Bid, SrcPath]
    brefs: dict[str, Sequence[SrcPath]]
    ids: dict[str, Sequence[SrcPath]]
    stems: dict[str, Sequence[SrcPath]]  # notes by stem, files by name
    folders: dict[str, Sequence[SrcPath]]  # folder name -> index note
    names: dict[str, Sequence[SrcPath]]  # titles and aliases

    def __init__(self, docs: Iterable[Document], assets: Iterable[SrcPath]) -> None:
        self.docs, self.paths, self.bids = {}, {}, {}
        lists: dict[str, defaultdict[str, list[SrcPath]]] = {t: defaultdict(list) for t in _LISTS}
        for doc in sorted(docs, key=lambda d: d.path):
            self._add_doc(doc, lists)
        for path in sorted(assets):
            self.paths[path] = path
            lists["paths_ci"][path.lower()].append(path)
            lists["stems"][normalize_name(posixpath.basename(path))].append(path)
        for table, values in lists.items():
            setattr(self, table, values)
        self._freeze()

    def _freeze(self) -> None:
        """Every table read-only, each list of paths a tuple (made once per compile)."""
        for table in _TABLES:
            values = getattr(self, table)
            if table in _LISTS:
                values = {k: v if type(v) is tuple else tuple(v) for k, v in values.items()}
            setattr(self, table, FrozenDict(values))

    def _add_doc(self, doc: Document, lists: dict[str, defaultdict[str, list[SrcPath]]]) -> (
        None
    ):
        """Add ``doc`` while the index is made (to ``lists``, made tuples by ``_freeze``)."""
        path = doc.path
        self.docs[path] = doc
        self.paths[path] = path
        lists["paths_ci"][path.lower()].append(path)
        self.bids.setdefault(doc.bid, path)
        lists["brefs"][bref(doc.bid)].append(path)
        if doc.id:
            lists["ids"][doc.id].append(path)
        stems = lists["stems"]
        stems[normalize_name(_doc_stem(path))].append(path)
        if path.lower().endswith(DRAWING_SUFFIX):  # ![[Drawing]] names Drawing.excalidraw.md
            stems[normalize_name(stem(stem(path)))].append(path)
        base = posixpath.basename(path).lower()
        if base in ("index.md", "readme.md") and doc.folder:
            lists["folders"][normalize_name(posixpath.basename(doc.folder))].append(path)
        names = lists["names"]
        for name in (doc.title, *doc.aliases):
            key = normalize_name(name)
            if key and path not in names[key]:
                names[key].append(path)

    def with_docs(self, replaced: Iterable[Document]) -> NameIndex:
        """This index with new objects for documents it holds whose names did not change
        (an edit of the text, sections derived again).  This one is left as it was:
        an earlier compile's link resolver keeps reading it."""
        docs = {d.path: d for d in replaced if d.path in self.docs}
        if not docs:
            return self
        out = copy.copy(self)
        out.docs = FrozenDict({**self.docs, **docs})
        return out

    def updated(self, gone: Iterable[Document], new: Iterable[Document]) -> NameIndex:
        """This index with the ``gone`` documents taken out and the ``new`` ones put
        in (an edited document is both): equal, list order included, to the index
        built from the resulting documents and the same assets.  This one is left
        as it was.  A retitled note at 5,000 notes: two lists instead of 50,000
        entries."""
        out = copy.copy(self)
        for table in _TABLES:  # working copies, frozen again below
            setattr(out, table, dict(getattr(self, table)))
        for doc in gone:
            out._take_out(doc)
        new = list(new)
        for doc in new:
            out._put_in(doc)
        if new:  # the documents in path order, as when built
            out.docs = dict(sorted(out.docs.items()))
        out._freeze()
        return out

    def _take_out(self, doc: Document) -> None:
        path = doc.path
        del self.docs[path]
        del self.paths[path]
        for table, key in self._keys(doc):
            rest = tuple(p for p in table[key] if p != path)
            if rest:
                table[key] = rest
            else:
                del table[key]
        if self.bids.get(doc.bid) == path:  # the next note with this BID takes it
            del self.bids[doc.bid]
            for other in self.brefs.get(bref(doc.bid), ()):
                if self.docs[other].bid == doc.bid:
                    self.bids[doc.bid] = other
                    break

    def _put_in(self, doc: Document) -> None:
        path = doc.path
        self.docs[path] = doc
        self.paths[path] = path
        for table, key in self._keys(doc):
            held = table.get(key, ())
            if path not in held:
                # documents first, in path order, then assets (as when built)
                end = 0
                while end < len(held) and held[end] in self.docs:
                    end += 1
                at = bisect_left(held, path, 0, end)
                table[key] = (*held[:at], path, *held[at:])
        holder = self.bids.get(doc.bid)
        if holder is None or path < holder:
            self.bids[doc.bid] = path

    def _keys(self, doc: Document) -> list[tuple[dict[str, Sequence[SrcPath]], str]]:
        """Every (table, key) whose list holds ``doc``'s path."""
        path = doc.path
        keys = [(self.paths_ci, path.lower()), (self.brefs, bref(doc.bid)),
                (self.stems, normalize_name(_doc_stem(path)))]
        if path.lower().endswith(DRAWING_SUFFIX):
            keys.append((self.stems, normalize_name(stem(stem(path)))))
        if doc.id:
            keys.append((self.ids, doc.id))
        if posixpath.basename(path).lower() in ("index.md", "readme.md") and doc.folder:
            keys.append((self.folders, normalize_name(posixpath.basename(doc.folder))))
        for name in dict.fromkeys(normalize_name(n) for n in (doc.title, *doc.aliases)):
            if name:
                keys.append((self.names, name))
        return keys

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


def _doc_stem(path: SrcPath) -> str:
    """The name a link finds a document by: a canvas by its file name with ``.canvas``
    (Obsidian's ``[[Board.canvas]]``; ``[[Board]]`` is ``Board.md``), a base likewise
    (``[[Tasks.base]]``), a note by its stem."""
    return posixpath.basename(path) if path.lower().endswith((".canvas", ".base")) else stem(path)


def doc_keys(doc: Document) -> set[str]:
    """Every normalised name under which ``doc`` can be found (for invalidation)."""
    return {key for _kind, key in doc_key_places(doc)}


def doc_key_places(doc: Document) -> set[tuple[str, str]]:
    """``doc_keys`` with the kind of name each is (path, title, id...): a retitled note
    whose title is now its path (``# sub/alpha``) has the same keys, in other places,
    and a link to one of them may now find another note first."""
    keys = {
        ("stem", normalize_name(_doc_stem(doc.path))),
        ("path", normalize_name(doc.path)),
        ("path", normalize_name(doc.path.rsplit(".", 1)[0])),
        ("name", normalize_name(doc.title)),
        ("bid", doc.bid),
        ("bref", bref(doc.bid)),
    }
    keys.update(("name", normalize_name(a)) for a in doc.aliases)
    if doc.id:
        keys.add(("id", normalize_name(doc.id)))
    if posixpath.basename(doc.path).lower() in ("index.md", "readme.md"):
        keys.add(("folder", normalize_name(posixpath.basename(doc.folder))))
        keys.add(("folder", normalize_name(doc.folder)))
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

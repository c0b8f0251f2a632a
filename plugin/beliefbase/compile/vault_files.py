"""``VaultFiles``: every published file as the query engines read it, made once.

Obsidian Bases (``bases``) and Dataview (``dataview``) each see the vault as one
record per file: its path, size, frontmatter, tags, aliases, inline fields, its
links and embeds with what they point to, the files linking to it.  Those facts
are the compile's; this module gathers them once per build into one frozen
``VaultFile`` per published file (holding the compile's values, never copies),
which both engines read (each types the
values as its language does: ``bases.records``, ``dataview.records``).  Nothing
is made until a query needs it (``VaultFiles.files`` on first use); a link
written in a value or a query is resolved by the same ``VaultLinks``.

Under ``mkdocs serve`` the last build's ``VaultFiles`` is ``previous``: a file whose
document, links, backlinks and size are the same objects and values keeps its
``VaultFile`` (the same object), so the engines' per-file records made from an
earlier one can be kept too (``changed_since``, ``same_names``: what they may keep).

Read-only use of a compile's fields (``Compiled.documents``, ``assets``,
``links``, ``backlinks``, ``link_resolver``, ``options.docs_dir``); the sizes
are the files' on disk (``os.stat``), as Obsidian's ``file.size``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..frozen import FrozenDict
from ..ids import SrcPath
from .vault_links import VaultLinks

if TYPE_CHECKING:
    from ..builder.documents import Document
    from ..builder.links import LinkResolver
    from ..builder.resolve import ResolvedLink
    from ..codecs.inline_fields import InlineField


def link_path(resolved: ResolvedLink) -> str | None:
    """The published document or attachment a link points to, else None (a draft,
    nothing, an unexported drawing); ``[[#Heading]]`` points to its own page."""
    return str(resolved.target) if resolved.resolved and resolved.target else None


@dataclass(frozen=True, slots=True, eq=False)
class VaultFile:
    """One published file (a document, or an attachment when ``document`` is None)."""

    path: str
    size: int
    document: Document | None = None
    #: its links and embeds in source order (frontmatter links included), as the
    #: compile resolved them: the compile's own tuple (``Compiled.links``), not a copy
    #: (``link_path`` says where one points; ``link.link`` is the link as written)
    links: tuple[ResolvedLink, ...] = ()
    #: the published documents linking to it, each once, in the compile's order
    backlinks: tuple[str, ...] = ()

    @property
    def meta(self) -> Mapping[str, Any]:
        """Its frontmatter, frozen (the compile's own value, never a copy)."""
        return self.document.meta if self.document is not None else FrozenDict()

    @property
    def tags(self) -> tuple[str, ...]:
        """Its tags as the compile read them (frontmatter and body, without ``#``)."""
        return tuple(self.document.tags) if self.document is not None else ()

    @property
    def aliases(self) -> tuple[str, ...]:
        return tuple(self.document.aliases) if self.document is not None else ()

    @property
    def inline_fields(self) -> tuple[InlineField, ...]:
        return self.document.parsed.inline_fields if self.document is not None else ()

    @property
    def is_markdown(self) -> bool:
        return self.document is not None and self.document.kind == "markdown"


class VaultFiles:
    """The ``VaultFile`` of every published file of one compile, made on first use."""

    __caches__ = ("_files",)

    def __init__(self, documents: Mapping[SrcPath, Document], assets: frozenset[SrcPath],
                 links: Mapping[SrcPath, tuple[ResolvedLink, ...]],
                 backlinks: Mapping[SrcPath, tuple[ResolvedLink, ...]],
                 link_resolver: LinkResolver, docs_dir: str, options: object = None) -> None:
        self._documents = documents
        self._assets = assets
        self._links = links
        self._backlinks = backlinks
        self.docs_dir = docs_dir
        self._options = options  # the compile's options: resolution may read them
        #: where a link written in a value or a query points (the compile's answer)
        self.vault_links = VaultLinks(documents, link_resolver)
        self._files: FrozenDict[str, VaultFile] | None = None
        #: the last build's (``mkdocs serve``): its unchanged ``VaultFile``s are kept
        #: (let go once this one's are made)
        self.previous: VaultFiles | None = None
        self._published: Set[SrcPath] = frozenset()  # the paths of ``_make``'s documents

    def same_names(self, before: VaultFiles) -> bool:
        """Does every link (and every value's link) resolve as in ``before``?  Yes
        when the same documents and attachments exist, each with what resolution reads
        of it (``_identity``: title, aliases, ids, published, network) and the same
        URL, under the same options; a note's own links are its ``VaultFile``'s
        (``changed_since``)."""
        if before._options != self._options or before._assets != self._assets or \
                len(before._documents) != len(self._documents):
            return False
        old_docs = before._documents
        for path, doc in self._documents.items():
            old = old_docs.get(path)
            if old is doc:
                continue
            if old is None or _identity(old) != _identity(doc):
                return False
        return True

    def changed_since(self, before: VaultFiles) -> set[str]:
        """The paths whose ``VaultFile`` is not the one of ``before`` (made again, or
        new), and those ``before`` had and this has not."""
        files = self.files
        old = before.files
        out = {p for p, f in files.items() if old.get(p) is not f}
        out.update(p for p in old if p not in files)
        return out

    @property
    def made(self) -> bool:
        """Were the records made (``files`` asked)?  Only a made one can be kept from."""
        return self._files is not None

    @property
    def files(self) -> FrozenDict[str, VaultFile]:
        """Every published document, then every attachment, each by path in order."""
        if self._files is None:
            self._files = FrozenDict(self._make())
            self.previous = None  # what it kept is in these: a chain would hold every build's
        return self._files

    def resolve(self, target: str, source: str | None = None) -> str | None:
        """``VaultLinks.resolve``: the path ``[[target]]`` written in ``source`` names."""
        return self.vault_links.resolve(target, source)

    def _make(self) -> dict[str, VaultFile]:
        published = {p: d for p, d in self._documents.items() if d.published}
        before = self.previous
        old: Mapping[str, VaultFile] = (before._files if before is not None else None) or {}
        # the compile keeps a target's backlinks (the same tuple) until a linking note
        # changes: with the same published documents, the same backlinks
        old_backlinks = before._backlinks if before is not None and \
            before._published == published.keys() else {}
        self._published = published.keys()
        out: dict[str, VaultFile] = {}
        for path, doc in published.items():
            raw = self._backlinks.get(path, ())
            links = self._links.get(path, ())
            kept = old.get(path)
            # the same document read from the same bytes: the same size on disk
            if kept is not None and kept.document is doc and kept.links is links and \
                    raw is old_backlinks.get(path, ()):
                out[path] = kept
                continue
            backlinks = tuple(dict.fromkeys(
                str(b.source) for b in raw if b.source in published))
            if kept is not None and kept.document is doc and kept.links is links \
                    and kept.backlinks == backlinks:
                out[path] = kept
            else:
                out[path] = VaultFile(path, self._size(path), doc, links, backlinks)
        for path in sorted(self._assets):
            size = self._size(path)
            kept = old.get(path)
            out[path] = kept if kept is not None and kept.document is None \
                and kept.size == size else VaultFile(path, size)
        return out

    def _size(self, path: str) -> int:
        try:
            return os.stat(os.path.join(self.docs_dir, path)).st_size
        except (OSError, ValueError):
            return 0


def _identity(doc: Document) -> tuple[object, ...]:
    """What resolving a link to ``doc`` reads of it besides its path (as the compiler's
    ``_identity``), and its URL (where a link to it leads)."""
    return (doc.title, doc.aliases, doc.id, doc.bid, doc.published, doc.network.id,
            doc.kind, doc.url)

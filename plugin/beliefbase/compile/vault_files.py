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

Read-only use of a compile's fields (``Compiled.documents``, ``assets``,
``links``, ``backlinks``, ``link_resolver``, ``options.docs_dir``); the sizes
are the files' on disk (``os.stat``), as Obsidian's ``file.size``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
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
                 link_resolver: LinkResolver, docs_dir: str) -> None:
        self._documents = documents
        self._assets = assets
        self._links = links
        self._backlinks = backlinks
        self.docs_dir = docs_dir
        #: where a link written in a value or a query points (the compile's answer)
        self.vault_links = VaultLinks(documents, link_resolver)
        self._files: FrozenDict[str, VaultFile] | None = None

    @property
    def files(self) -> FrozenDict[str, VaultFile]:
        """Every published document, then every attachment, each by path in order."""
        if self._files is None:
            self._files = FrozenDict(self._make())
        return self._files

    def resolve(self, target: str, source: str | None = None) -> str | None:
        """``VaultLinks.resolve``: the path ``[[target]]`` written in ``source`` names."""
        return self.vault_links.resolve(target, source)

    def _make(self) -> dict[str, VaultFile]:
        published = {p: d for p, d in self._documents.items() if d.published}
        out: dict[str, VaultFile] = {}
        for path, doc in published.items():
            backlinks = tuple(dict.fromkeys(
                str(b.source) for b in self._backlinks.get(path, ()) if b.source in published))
            out[path] = VaultFile(path, self._size(path), doc, self._links.get(path, ()),
                                  backlinks)
        for path in sorted(self._assets):
            out[path] = VaultFile(path, self._size(path))
        return out

    def _size(self, path: str) -> int:
        try:
            return os.stat(os.path.join(self.docs_dir, path)).st_size
        except (OSError, ValueError):
            return 0

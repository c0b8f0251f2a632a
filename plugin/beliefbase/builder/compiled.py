"""``Compiled``: everything one compile knows, for the graph, the site and the CLI."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, sort_key
from ..ids import SrcPath
from .checks import SourceRef
from .documents import Document, Network
from .links import LinkResolver
from .options import CompileOptions
from .resolve import ResolvedLink
from .sources import SourceFile

if TYPE_CHECKING:
    from ..beliefs.model import BeliefSet
    from ..entities.index import EntityIndex
    from ..graph.model import Graph


@dataclass(frozen=True, slots=True)
class Compiled:
    """The result of a compile: frozen, its collections read-only all the way down
    (every ``dict`` a ``frozen.FrozenDict``; tuples, frozensets; caches declared in
    ``__caches__``, see ``frozen``).  The ``Compiler`` shares
    unchanged parts with the next compile, and a later compile never changes an
    earlier one (``mkdocs serve`` compares the two)."""

    options: CompileOptions
    generation: int
    documents: dict[SrcPath, Document]  # published and drafts, sorted by path
    networks: dict[str, Network]
    assets: frozenset[SrcPath]
    links: dict[SrcPath, tuple[ResolvedLink, ...]]  # per published document, source order
    backlinks: dict[SrcPath, tuple[ResolvedLink, ...]]  # per target, from published pages
    source_refs: dict[SrcPath, tuple[SourceRef, ...]]
    diagnostics: tuple[Diagnostic, ...]
    sidecars: tuple[SourceFile, ...] = ()
    escaped: tuple[SourceFile, ...] = ()  # symlinks out of docs_dir
    changed: frozenset[SrcPath] = frozenset()  # added/modified since the last compile
    removed: frozenset[SrcPath] = frozenset()
    link_resolver: LinkResolver | None = None  # resolves links the renderer meets
    #: a root note (``Home.md``) serving as the home page of a vault without index.md
    home: SrcPath | None = None
    #: the knowledge graph (nodes, typed edges), its invariants checked
    graph: Graph | None = None
    #: every sidecar verified against the pages (``belief-*`` diagnostics are above)
    beliefs: BeliefSet | None = None
    #: the entities the notes tag or mention (SPEC §7; ``entity-*`` diagnostics above)
    entities: EntityIndex | None = None
    #: display paths of the sidecars of drafts: their diagnostics are not public
    draft_sidecars: frozenset[str] = frozenset()

    @property
    def published(self) -> dict[SrcPath, Document]:
        return {p: d for p, d in self.documents.items() if d.published}

    @property
    def drafts(self) -> set[SrcPath]:
        return {p for p, d in self.documents.items() if not d.published}

    def public_diagnostics(self) -> list[Diagnostic]:
        """Diagnostics that may be published: none about drafts or their sidecars."""
        hidden = self.hidden_files()
        return [d for d in self.diagnostics if d.file not in hidden]

    def hidden_files(self) -> set[str]:
        """Display paths whose diagnostics stay out of ``diagnostics.json``: drafts
        and the sidecars of drafts."""
        return {self.options.display(p) for p in self.drafts} | self.draft_sidecars

    def doc_by_url(self) -> dict[str, Document]:
        return {d.url: d for d in self.documents.values() if d.url is not None}

    def sorted_diagnostics(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=sort_key)

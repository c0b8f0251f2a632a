"""``Compiled``: everything one compile knows, for the graph, the site and the CLI."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, sort_key
from ..ids import SrcPath
from .checks import SourceRef
from .documents import Document, Network
from .links import LinkResolver
from .options import CompileOptions
from .resolve import ResolvedLink
from .sources import SourceFile


@dataclass
class Compiled:
    """The result of a compile.  Read-only for everyone but the ``Compiler``."""

    options: CompileOptions
    generation: int
    documents: dict[SrcPath, Document]  # published and drafts, sorted by path
    networks: dict[str, Network]
    assets: set[SrcPath]
    links: dict[SrcPath, list[ResolvedLink]]  # per published document, in source order
    backlinks: dict[SrcPath, list[ResolvedLink]]  # per target document, from published pages
    source_refs: dict[SrcPath, list[SourceRef]]
    diagnostics: list[Diagnostic]
    sidecars: list[SourceFile] = field(default_factory=list)
    escaped: list[SourceFile] = field(default_factory=list)  # symlinks out of docs_dir
    changed: set[SrcPath] = field(default_factory=set)  # added/modified since the last compile
    removed: set[SrcPath] = field(default_factory=set)
    link_resolver: LinkResolver | None = None  # resolves links the renderer meets
    #: a root note (``Home.md``) serving as the home page of a vault without index.md
    home: SrcPath | None = None

    @property
    def published(self) -> dict[SrcPath, Document]:
        return {p: d for p, d in self.documents.items() if d.published}

    @property
    def drafts(self) -> set[SrcPath]:
        return {p for p, d in self.documents.items() if not d.published}

    def public_diagnostics(self) -> list[Diagnostic]:
        """Diagnostics that may be published: none about drafts."""
        hidden = {self.options.display(p) for p in self.drafts}
        return [d for d in self.diagnostics if d.file not in hidden]

    def doc_by_url(self) -> dict[str, Document]:
        return {d.url: d for d in self.documents.values() if d.url is not None}

    def sorted_diagnostics(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=sort_key)

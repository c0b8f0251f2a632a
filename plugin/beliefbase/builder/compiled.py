"""``Linked``: what the builder's stages know of one compile (parse to check), the
record every later stage reads (``compile.compiled.Compiled`` adds what they made)."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..ids import SrcPath
from .checks import SourceRef
from .documents import Document, Network
from .links import LinkResolver
from .options import CompileOptions
from .resolve import ResolvedLink
from .sources import SourceFile
from .texts import DecodedTexts


@dataclass(frozen=True, slots=True)
class Linked:
    """The documents of a compile with their links resolved and checked: frozen, its
    collections read-only all the way down (every ``dict`` a ``frozen.FrozenDict``;
    tuples, frozensets; caches declared in ``__caches__``, see ``frozen``).  The
    ``Compiler`` shares unchanged parts with the next compile, and a later compile
    never changes an earlier one (``mkdocs serve`` compares the two)."""

    options: CompileOptions
    generation: int
    documents: dict[SrcPath, Document]  # published and drafts, sorted by path
    networks: dict[str, Network]
    assets: frozenset[SrcPath]
    links: dict[SrcPath, tuple[ResolvedLink, ...]]  # per published document, source order
    backlinks: dict[SrcPath, tuple[ResolvedLink, ...]]  # per target, from published pages
    source_refs: dict[SrcPath, tuple[SourceRef, ...]]
    diagnostics: tuple[Diagnostic, ...]
    link_resolver: LinkResolver  # resolves links the renderer meets
    #: the notes' texts as the parse decoded them, for the render to take once
    texts: DecodedTexts
    sidecars: tuple[SourceFile, ...] = ()
    escaped: tuple[SourceFile, ...] = ()  # symlinks out of docs_dir
    changed: frozenset[SrcPath] = frozenset()  # added/modified since the last compile
    removed: frozenset[SrcPath] = frozenset()
    #: a root note (``Home.md``) serving as the home page of a vault without index.md
    home: SrcPath | None = None

    @property
    def published(self) -> dict[SrcPath, Document]:
        return {p: d for p, d in self.documents.items() if d.published}

    @property
    def drafts(self) -> set[SrcPath]:
        return {p for p, d in self.documents.items() if not d.published}

"""``Compiled``: everything one compile knows, for the site and the command line.

Complete when the ``Compiler`` returns it: the builder's record (``Linked``)
and what the later stages made of it, the entities, the graph and the
verified beliefs.  No field is left for a reader to fill.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..beliefs.model import BeliefSet
from ..builder.compiled import Linked
from ..diagnostics import Diagnostic
from ..entities.index import EntityIndex
from ..graph.model import Graph
from .vault_files import VaultFiles


@dataclass(frozen=True, slots=True, kw_only=True)
class Compiled(Linked):
    """The result of a compile (``Linked`` and the later stages'); frozen likewise."""

    #: the entities the notes tag or mention (SPEC §7; ``entity-*`` diagnostics above)
    entities: EntityIndex
    #: the knowledge graph (nodes, typed edges), its invariants checked
    graph: Graph
    #: every sidecar verified against the pages (``belief-*`` diagnostics are above)
    beliefs: BeliefSet
    #: display paths of the sidecars of drafts: their diagnostics are not public
    draft_sidecars: frozenset[str]

    @classmethod
    def of(cls, linked: Linked, **made: object) -> Compiled:
        """``linked`` with what the later stages ``made`` (their fields, and the
        ``diagnostics`` of them all)."""
        given = {f.name: getattr(linked, f.name) for f in fields(Linked)}
        return cls(**{**given, **made})

    def vault_files(self) -> VaultFiles:
        """A new ``VaultFiles`` of this compile: the published files as the query
        engines (Bases, Dataview) read them, made on a query's first use."""
        return VaultFiles(self.documents, self.assets, self.links, self.backlinks,
                          self.link_resolver, str(self.options.docs_dir), self.options)

    def public_diagnostics(self) -> list[Diagnostic]:
        """Diagnostics that may be published: none about drafts or their sidecars."""
        hidden = self.hidden_files()
        return [d for d in self.diagnostics if d.file not in hidden]

    def hidden_files(self) -> set[str]:
        """Display paths whose diagnostics stay out of ``diagnostics.json``: drafts
        and the sidecars of drafts."""
        return {self.options.display(p) for p in self.drafts} | self.draft_sidecars

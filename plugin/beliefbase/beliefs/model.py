"""The belief records: what a sidecar says, and what the verifier concluded about it.

``Belief`` and ``Provenance`` are a sidecar's entries as written (dates in the
canonical form of ``dates.py``); ``Sidecar`` is one loaded file.  The verifier
turns them into ``VerifiedBelief`` / ``VerifiedProvenance`` (computed fields:
network, page URL, effective supersession date, supporting count,
contradictions, confidence, quote check) collected in a ``BeliefSet``, which
the store, ``why``, the emitters and the site read.  All frozen.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..diagnostics import Diagnostic
from ..frozen import FrozenDict
from .jsontext import JsonText

SUPERSESSION_REASONS = (
    "contradicted_by_new_source",
    "elaborated",
    "manual_correction",
    "source_drifted",
)
@dataclass(frozen=True, slots=True)
class Provenance:
    """A verbatim quote anchor in a raw source (``provenance[index]`` of a sidecar)."""

    id: str
    raw_path: str  # relative to raw_dir, POSIX
    quote: str
    quote_hash: str  # lower-case hex
    page_hint: int | str | None
    sidecar: str  # display path of the sidecar that holds it
    index: int


@dataclass(frozen=True, slots=True)
class Belief:
    """One belief as its sidecar writes it (``beliefs[index]``)."""

    belief_id: str
    statement: str
    topic: str
    footnote_ids: tuple[str, ...]
    provenance_ids: tuple[str, ...]
    asserted_at: str
    sidecar: str  # display path of the sidecar that holds it
    index: int  # position in its "beliefs" array
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    wiki_section_anchor: str | None = None  # "#token-refresh", or None for the page
    asserted_in_run: str | None = None
    superseded_at: str | None = None
    superseded_by_belief_id: str | None = None
    superseded_in_run: str | None = None
    supersession_reason: str | None = None
    source_valid_from: str | None = None
    source_valid_to: str | None = None
    contradicting_belief_ids: tuple[str, ...] | None = None
    confidence_hint: str | None = None


@dataclass(frozen=True, slots=True)
class Sidecar:
    """One ``*.beliefs.json`` file, loaded (entries that failed the schema are left out)."""

    path: Path
    display: str  # "docs/topics/auth.beliefs.json"
    rel: str  # relative to docs_dir: "topics/auth.beliefs.json"
    digest: str  # SHA-256 of the file's bytes, for refuse-if-changed write-back
    declared_page: str | None
    beliefs: tuple[Belief, ...]
    provenance: tuple[Provenance, ...]
    text: JsonText = field(compare=False, repr=False)

    def line_of(self, *path: str | int) -> int:
        """Line of ``path`` (e.g. ``"beliefs", 3``) in the file; computed on demand."""
        return self.text.locate(path)[0]


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """The deterministic check of a quote against its live raw file."""

    verified: bool
    reason: str  # "quote found in raw/x.md", or why not
    verified_at: str
    #: what failed: "escape" (path leaves raw_dir), "unreadable", "missing" (no raw file),
    #: "hash" (quote_hash is not the quote's), "absent" (quote not in the file); None if verified
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class VerifiedProvenance:
    provenance: Provenance
    network: str
    check: QuoteCheck

    @property
    def id(self) -> str:
        return self.provenance.id


@dataclass(frozen=True, slots=True)
class VerifiedBelief:
    """A belief of a published page, with everything the verifier computed."""

    belief: Belief
    network: str
    page: str  # docs-relative page path
    page_url: str | None
    superseded_at: str | None  # effective: the sidecar's, or the successor's asserted_at
    supporting_count: int
    contradicting_belief_ids: tuple[str, ...]
    confidence_hint: str
    sources: tuple[VerifiedProvenance, ...]  # the provenance it cites that exists

    @property
    def belief_id(self) -> str:
        return self.belief.belief_id

    @property
    def is_current(self) -> bool:
        return self.superseded_at is None

    @property
    def wiki_page(self) -> str | None:
        """Site-relative URL of the page plus the section anchor, e.g. ``topics/auth/#x``."""
        if self.page_url is None:
            return None
        return self.page_url + (self.belief.wiki_section_anchor or "")

    @property
    def verified_against_source(self) -> bool:
        return bool(self.sources) and all(s.check.verified for s in self.sources)

    def current_at(self, bound: str) -> bool:
        """Current at a ``dates.query_bound``: asserted by then and not superseded by then."""
        return self.belief.asserted_at <= bound and (
            self.superseded_at is None or self.superseded_at > bound
        )


@dataclass(frozen=True)
class BeliefSet:
    """Every verified belief of the knowledge base, and what the verifier said.

    Read-only all the way down (a ``Compiled`` holds it): its mappings are made
    ``FrozenDict``s and its diagnostics a tuple when it is made.
    """

    beliefs: Mapping[str, VerifiedBelief]  # by belief_id, sorted
    provenance: Mapping[tuple[str, str], VerifiedProvenance]  # by (network, id), sorted
    pages: Mapping[str, tuple[str, ...]]  # page path -> belief ids, in sidecar order
    topics: Mapping[str, tuple[str, ...]]  # topic -> belief ids, sorted
    sidecars: tuple[Sidecar, ...]
    diagnostics: tuple[Diagnostic, ...]
    today: date
    #: belief id -> its supersession chain, oldest first (beliefs in one)
    _components: Mapping[str, tuple[str, ...]] = field(
        init=False, repr=False, compare=False, default_factory=FrozenDict
    )

    def __post_init__(self) -> None:
        for name in ("beliefs", "provenance", "pages", "topics"):
            object.__setattr__(self, name, FrozenDict(getattr(self, name)))
        object.__setattr__(self, "sidecars", tuple(self.sidecars))
        object.__setattr__(self, "diagnostics", tuple(self.diagnostics))
        components: dict[str, tuple[str, ...]] = {}
        neighbours: dict[str, set[str]] = defaultdict(set)
        for vb in self.beliefs.values():
            target = vb.belief.superseded_by_belief_id
            if target is not None and target in self.beliefs:
                neighbours[vb.belief_id].add(target)
                neighbours[target].add(vb.belief_id)
        for start in sorted(neighbours):
            if start in components:
                continue
            seen, todo = {start}, [start]
            while todo:
                for nxt in neighbours[todo.pop()] - seen:
                    seen.add(nxt)
                    todo.append(nxt)
            ordered = tuple(sorted(seen, key=lambda b: (self.beliefs[b].belief.asserted_at, b)))
            for member in seen:
                components[member] = ordered
        object.__setattr__(self, "_components", FrozenDict(components))

    def chain(self, belief_id: str) -> tuple[str, ...]:
        """The supersession chain through a belief, oldest first (just itself if none)."""
        return self._components.get(belief_id, (belief_id,))

    def current(self) -> list[VerifiedBelief]:
        return [vb for vb in self.beliefs.values() if vb.is_current]

    def footnotes(self, page: str) -> dict[str, tuple[str, ...]]:
        """Footnote id -> ids of the page's beliefs that cite it (for footnote links)."""
        cited: dict[str, list[str]] = defaultdict(list)
        for belief_id in self.pages.get(page, ()):
            for footnote in self.beliefs[belief_id].belief.footnote_ids:
                cited[footnote].append(belief_id)
        return {f: tuple(ids) for f, ids in sorted(cited.items())}

    def superseded_between(self, after: str, upto: str) -> list[VerifiedBelief]:
        """Beliefs superseded in (``after``, ``upto``] (canonical dates, e.g. the 30 days
        before the build for "changed recently"), newest first."""
        found = [vb for vb in self.beliefs.values()
                 if vb.superseded_at is not None and after < vb.superseded_at[:10] <= upto]
        return sorted(found, key=lambda vb: (vb.superseded_at or "", vb.belief_id), reverse=True)

    def sidecar_of(self, belief_id: str) -> Sidecar | None:
        """The sidecar a belief is written in (for write-back)."""
        vb = self.beliefs.get(belief_id)
        if vb is None:
            return None
        return next((s for s in self.sidecars if s.display == vb.belief.sidecar), None)

"""The deterministic belief verifier (SPEC 6.2), run on every build: sidecars -> BeliefSet.

Stages, in order: load every sidecar (schema) -> attach each to its page
(missing page, draft page) -> pool provenance per network -> de-duplicate
belief ids across the knowledge base -> per-page checks (footnote coverage
both ways, section anchors) -> quote anchors against raw_dir -> provenance
links -> supersession and contradictions (``revision.py``) -> derived fields.
Every problem is a diagnostic with file:line:col; nothing here raises, and a
bad entry never hides the good ones next to it.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path

from .. import diagnostics as diag
from ..diagnostics import Diagnostic
from . import dates
from .facts import PageFacts, ProjectContext, display_path, page_candidates
from .load import load_sidecar
from .model import (
    Belief,
    BeliefSet,
    Provenance,
    Sidecar,
    VerifiedBelief,
    VerifiedProvenance,
)
from .quotes import RawSources
from .revision import revise


class _Run:
    """State of one verification; each method is one stage."""

    def __init__(self, pages: Mapping[str, PageFacts], raw: RawSources, today: date) -> None:
        self.pages = pages
        self.raw = raw
        self.verified_at = dates.today_iso(today)
        self.found: list[Diagnostic] = []
        self.sidecars: list[Sidecar] = []
        self.by_display: dict[str, Sidecar] = {}
        self.page_of: dict[str, PageFacts] = {}  # sidecar display -> page
        self.unpublished: set[str] = set()  # belief ids of draft pages
        self.beliefs: dict[str, Belief] = {}
        self.provenance: dict[tuple[str, str], VerifiedProvenance] = {}

    def report(self, code: str, where: tuple[str, int, int], message: str) -> None:
        self.found.append(diag.make(code, *where, message))

    def at(self, belief: Belief, field: str | None = None) -> tuple[str, int, int]:
        sidecar = self.by_display[belief.sidecar]
        path = ("beliefs", belief.index, field) if field else ("beliefs", belief.index)
        return (belief.sidecar, *sidecar.text.locate(path))

    def _line(self, entry: Belief | Provenance) -> int:
        kind = "beliefs" if isinstance(entry, Belief) else "provenance"
        return self.by_display[entry.sidecar].line_of(kind, entry.index)

    def attach(self, sidecar: Sidecar) -> None:
        """Find the sidecar's page; a sidecar without a published page contributes nothing."""
        page = next((self.pages[c] for c in page_candidates(sidecar.rel) if c in self.pages), None)
        count = f"{len(sidecar.beliefs)} belief(s)"
        if page is None:
            wanted = page_candidates(sidecar.rel)[0]
            hint = diag.did_you_mean(wanted, sorted(self.pages))
            self.report("bad-sidecar", (sidecar.display, 1, 1),
                        f"no page {wanted} for this sidecar{hint}; its {count} are skipped "
                        "(create the page, or rename or delete the sidecar)")
            return
        if not page.published:
            self.unpublished.update(b.belief_id for b in sidecar.beliefs)
            self.found.append(diag.Diagnostic(
                sidecar.display, 1, 1, "bad-sidecar",
                f"{page.display} is a draft; its {count} and provenance are left out of the "
                "index, the site and every JSON output", diag.Level.INFO))
            return
        declared = sidecar.declared_page
        if declared is not None and declared.removeprefix("./") not in (page.path, page.display):
            self.report("bad-sidecar", (sidecar.display, *sidecar.text.locate(("page",))),
                        f"\"page\" says {declared!r} but the sidecar belongs to {page.path} "
                        "(its file name decides); fix or remove \"page\"")
        self.page_of[sidecar.display] = page
        self.sidecars.append(sidecar)
        self.by_display[sidecar.display] = sidecar

    def pool_provenance(self, sidecar: Sidecar) -> None:
        network = self.page_of[sidecar.display].network
        for entry in sidecar.provenance:
            key = (network, entry.id)
            first = self.provenance.get(key)
            if first is None:
                check = self.raw.check(entry, self.verified_at)
                self.provenance[key] = VerifiedProvenance(entry, network, check)
                if check.problem is not None:
                    self._report_quote(sidecar, entry, check.problem, check.reason)
            elif (first.provenance.raw_path, first.provenance.quote) != (
                entry.raw_path, entry.quote
            ):
                where = (sidecar.display, *sidecar.text.locate(("provenance", entry.index, "id")))
                self.report("belief-provenance", where,
                            f"provenance id {entry.id!r} is already defined differently in "
                            f"{first.provenance.sidecar}:{self._line(first.provenance)}; "
                            "this entry is ignored (ids are unique per network)")

    def _report_quote(self, sidecar: Sidecar, entry: Provenance, problem: str,
                      reason: str) -> None:
        field = {"hash": "quote_hash", "absent": "quote"}.get(problem, "raw_path")
        where = (sidecar.display, *sidecar.text.locate(("provenance", entry.index, field)))
        code = "path-escape" if problem == "escape" else "quote-drift"
        self.report(code, where, f"provenance {entry.id!r}: {reason}; "
                    "verified_against_source is false")

    def collect(self, sidecar: Sidecar) -> None:
        for belief in sidecar.beliefs:
            first = self.beliefs.get(belief.belief_id)
            if first is not None:
                self.report("duplicate-id", self.at(belief, "belief_id"),
                            f"belief id {belief.belief_id!r} is already used at "
                            f"{first.sidecar}:{self._line(first)}; this belief is ignored "
                            "(belief ids are unique across the knowledge base)")
                continue
            self.beliefs[belief.belief_id] = belief

    def check_page(self, sidecar: Sidecar) -> None:
        """Footnote coverage both ways and section anchors of one page."""
        page = self.page_of[sidecar.display]
        own = [b for b in sidecar.beliefs if self.beliefs.get(b.belief_id) is b]
        cited = {f for b in own for f in b.footnote_ids}
        known = {f[0] for f in page.footnote_refs} | {f[0] for f in page.footnote_defs}
        reported: set[str] = set()
        for ref, line, column in page.footnote_refs:
            if ref not in cited and ref not in reported:
                reported.add(ref)
                self.report("belief-coverage", (page.display, line, column),
                            f"footnote [^{ref}] is cited by no belief in {sidecar.display}; "
                            "add a belief whose footnote_ids include it")
        for belief in own:
            for footnote in belief.footnote_ids:
                if footnote not in known:
                    hint = diag.did_you_mean(footnote, sorted(known))
                    self.report("belief-coverage", self.at(belief, "footnote_ids"),
                                f"{belief.belief_id} cites footnote [^{footnote}], which "
                                f"{page.display} does not have{hint}")
            anchor = belief.wiki_section_anchor
            if anchor is not None and anchor[1:] not in page.anchors:
                hint = diag.did_you_mean(anchor[1:], sorted(page.anchors))
                self.report("unresolved-anchor", self.at(belief, "wiki_section_anchor"),
                            f"{belief.belief_id}: {page.display} has no heading {anchor}{hint}")

    def link_provenance(self, belief: Belief) -> tuple[VerifiedProvenance, ...]:
        network = self.page_of[belief.sidecar].network
        linked = []
        for prov_id in dict.fromkeys(belief.provenance_ids):
            entry = self.provenance.get((network, prov_id))
            if entry is None:
                ids = [key[1] for key in self.provenance if key[0] == network]
                hint = diag.did_you_mean(prov_id, ids)
                self.report("belief-provenance", self.at(belief, "provenance_ids"),
                            f"{belief.belief_id} cites provenance {prov_id!r}, which no sidecar "
                            f"of network {network!r} defines{hint}")
            else:
                linked.append(entry)
        return tuple(linked)


def verify_project(
    sidecar_paths: Iterable[Path],
    pages: Mapping[str, PageFacts],
    docs_dir: Path,
    raw_dir: Path,
    display_root: Path,
    today: date,
) -> BeliefSet:
    """Load and verify every sidecar; the result holds verified beliefs and diagnostics."""
    run = _Run(pages, RawSources(raw_dir, display_root), today)
    real_docs = os.path.realpath(docs_dir)
    for path in sorted(set(sidecar_paths)):
        rel, shown = display_path(path, docs_dir), display_path(path, display_root)
        real = os.path.realpath(path)
        if not real.startswith(real_docs.rstrip(os.sep) + os.sep):
            run.report("path-escape", (shown, 1, 1), "the sidecar is (or links to) a file "
                       "outside docs_dir; it is not read")
            continue
        sidecar, problems = load_sidecar(path, rel, shown)
        run.found.extend(problems)
        if sidecar is not None:
            run.attach(sidecar)
    for sidecar in run.sidecars:
        run.pool_provenance(sidecar)
    for sidecar in run.sidecars:
        run.collect(sidecar)
    for sidecar in run.sidecars:
        run.check_page(sidecar)
    return _finish(run, today)


def verify_context(project: ProjectContext) -> BeliefSet:
    """``verify_project`` for a ``ProjectContext`` (what the CLI and tests hold)."""
    return verify_project(project.sidecar_paths(), project.pages, project.docs_dir,
                          project.raw_dir, project.root, project.today)


def _finish(run: _Run, today: date) -> BeliefSet:
    network_of = {b: run.page_of[belief.sidecar].network for b, belief in run.beliefs.items()}
    sources = {b: run.link_provenance(belief) for b, belief in run.beliefs.items()}
    revision = revise(run.beliefs, network_of, frozenset(run.unpublished),
                      lambda belief, field: run.at(belief, field))
    run.found.extend(revision.diagnostics)
    verified: dict[str, VerifiedBelief] = {}
    pages: dict[str, list[str]] = defaultdict(list)
    topics: dict[str, list[str]] = defaultdict(list)
    for belief_id in sorted(run.beliefs):
        belief = run.beliefs[belief_id]
        page = run.page_of[belief.sidecar]
        contradicting = revision.contradicting.get(belief_id, ())
        count = len(sources[belief_id])
        hint = "contested" if contradicting else belief.confidence_hint or (
            "multi_source" if count > 1 else "single_source")
        verified[belief_id] = VerifiedBelief(
            belief, page.network, page.path, page.url, revision.superseded_at[belief_id],
            count, contradicting, hint, sources[belief_id])
        topics[belief.topic].append(belief_id)
    for sidecar in run.sidecars:
        page = run.page_of[sidecar.display]
        pages[page.path].extend(b.belief_id for b in sidecar.beliefs if b.belief_id in verified
                                and run.beliefs[b.belief_id] is b)
    run.found.sort(key=diag.sort_key)
    return BeliefSet(
        beliefs=verified,
        provenance=dict(sorted(run.provenance.items())),
        pages={p: tuple(ids) for p, ids in sorted(pages.items())},
        topics={t: tuple(ids) for t, ids in sorted(topics.items())},
        sidecars=tuple(run.sidecars),
        diagnostics=tuple(run.found),
        today=today,
    )

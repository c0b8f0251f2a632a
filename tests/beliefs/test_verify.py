"""Every check of the deterministic verifier (SPEC 6.2), one behaviour per test."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from beliefbase.beliefs import dates
from beliefbase.beliefs.facts import ProjectContext
from beliefbase.beliefs.model import BeliefSet
from beliefbase.beliefs.verify import verify_context

from .test_bad_input import PAGE, QUOTE, belief, provenance, sidecar

MakeProject = Callable[[dict[str, str | bytes]], ProjectContext]


def run(make_project: MakeProject, *beliefs: dict[str, Any],
        prov: list[dict[str, Any]] | None = None, page: str = PAGE,
        extra: dict[str, str | bytes] | None = None) -> tuple[BeliefSet, list[str]]:
    files: dict[str, str | bytes] = {"docs/sky.md": page, "raw/sky.md": f"Notes. {QUOTE}\n",
                                     "docs/sky.beliefs.json": sidecar(*beliefs, prov=prov)}
    result = verify_context(make_project({**files, **(extra or {})}))
    return result, [str(d) for d in result.diagnostics]


# -- the clean fixture ------------------------------------------------------------


def test_acme_verifies_clean_except_the_draft_note(acme: ProjectContext) -> None:
    result = verify_context(acme)
    assert [(d.code, d.level.value, d.file) for d in result.diagnostics] == [
        ("bad-sidecar", "info", "docs/drafts/secret.beliefs.json")
    ]
    assert list(result.beliefs) == [
        "b-2026-01-10-acme-auth-001", "b-2026-02-01-acme-auth-002", "b-2026-04-15-acme-auth-001",
        "b-billing-001", "b-billing-002", "b-billing-003",
    ]
    assert all(vb.verified_against_source for vb in result.beliefs.values())


def test_acme_computed_fields(acme: ProjectContext) -> None:
    result = verify_context(acme)
    old, new = (result.beliefs[b] for b in ("b-2026-01-10-acme-auth-001",
                                             "b-2026-04-15-acme-auth-001"))
    assert (old.is_current, new.is_current) == (False, True)
    assert old.superseded_at == "2026-04-15"
    assert new.wiki_page == "topics/auth/#token-refresh"
    assert result.chain(new.belief_id) == (old.belief_id, new.belief_id)
    monthly, weekly, eur = (result.beliefs[f"b-billing-00{i}"] for i in (1, 2, 3))
    assert monthly.contradicting_belief_ids == ("b-billing-002",)
    assert weekly.contradicting_belief_ids == ("b-billing-001",)
    assert monthly.confidence_hint == weekly.confidence_hint == "contested"
    assert (eur.supporting_count, eur.confidence_hint) == (2, "authoritative")
    assert new.confidence_hint == "single_source"
    # provenance defined in auth's sidecar, cited from billing's: same network.
    assert [s.id for s in eur.sources] == ["prov-acme-api-v1-7", "prov-billing-faq"]
    assert weekly.belief.footnote_ids == ("b",)  # written "[^b]" in the sidecar
    assert monthly.belief.wiki_section_anchor == "#invoices"  # written without "#"
    assert result.beliefs["b-2026-02-01-acme-auth-002"].belief.asserted_at == (
        "2026-02-01T09:30:00Z")
    assert result.pages["topics/billing.md"] == ("b-billing-001", "b-billing-002",
                                                 "b-billing-003")
    assert set(result.topics) == {"auth", "billing"}


def test_drafts_leak_nowhere(acme: ProjectContext) -> None:
    result = verify_context(acme)
    assert "b-secret-001" not in result.beliefs
    assert all(key[1] != "prov-board" for key in result.provenance)
    assert "drafts/secret.md" not in result.pages and "plans" not in result.topics


def test_latin1_and_crlf_raw_files_verify(acme: ProjectContext) -> None:
    result = verify_context(acme)
    reasons = {k[1]: p.check.reason for k, p in result.provenance.items()}
    assert reasons["prov-billing-handbook"] == "quote found in raw/billing/handbook-fr.txt"
    assert reasons["prov-acme-api-v1-40"] == "quote found in raw/papers/acme-api-spec-v1.md"


def test_verification_is_deterministic(acme: ProjectContext) -> None:
    first, second = verify_context(acme), verify_context(acme)
    assert first.beliefs == second.beliefs and first.diagnostics == second.diagnostics


# -- coverage and anchors ----------------------------------------------------------


def test_coverage_both_ways(make_project: MakeProject) -> None:
    page = "# Sky\n\n## Colour\n\nBlue.[^1] Grey at night.[^2]\n\n[^1]: a\n[^2]: b\n"
    _, found = run(make_project, belief(footnote_ids=["1", "9"]), page=page)
    assert found == [
        "docs/sky.beliefs.json:8:7: belief-coverage: b-sky cites footnote [^9], which "
        "docs/sky.md does not have",
        "docs/sky.md:5:25: belief-coverage: footnote [^2] is cited by no belief in "
        "docs/sky.beliefs.json; add a belief whose footnote_ids include it",
    ]


def test_unresolved_section_anchor_suggests_headings(make_project: MakeProject) -> None:
    _, found = run(make_project, belief(wiki_section_anchor="#colours"))
    assert found == ["docs/sky.beliefs.json:7:7: unresolved-anchor: b-sky: docs/sky.md has no "
                     "heading #colours (did you mean 'colour'?)"]


# -- provenance and quotes -----------------------------------------------------------


def test_missing_provenance(make_project: MakeProject) -> None:
    result, found = run(make_project, belief(provenance_ids=["p-sky", "p-skyy", "p-zzz"]))
    assert found == [
        "docs/sky.beliefs.json:11:7: belief-provenance: b-sky cites provenance 'p-skyy', which "
        "no sidecar of network 'root' defines (did you mean 'p-sky'?)",
        "docs/sky.beliefs.json:11:7: belief-provenance: b-sky cites provenance 'p-zzz', which "
        "no sidecar of network 'root' defines",
    ]
    assert result.beliefs["b-sky"].supporting_count == 1


def test_provenance_of_another_network_is_not_visible(make_project: MakeProject) -> None:
    project = make_project({
        "docs/sky.md": PAGE, "raw/sky.md": QUOTE,
        "docs/sky.beliefs.json": sidecar(belief(), prov=[]),
        "docs/sea/sea.md": "# Sea\n", "docs/sea/sea.beliefs.json": sidecar(belief("b-sea",
            footnote_ids=[], wiki_section_anchor=None, provenance_ids=["p-sky"])),
    })
    pages = dict(project.pages)
    pages["sea/sea.md"] = dataclasses.replace(pages["sea/sea.md"], network="sea")
    found = [str(d) for d in verify_context(dataclasses.replace(project, pages=pages)).diagnostics]
    assert found == ["docs/sky.beliefs.json:11:7: belief-provenance: b-sky cites provenance "
                     "'p-sky', which no sidecar of network 'root' defines"]


def test_conflicting_provenance_ids(make_project: MakeProject) -> None:
    other = sidecar(belief("b-2", footnote_ids=[], wiki_section_anchor=None),
                    prov=[provenance(quote="Something else.")])
    _, found = run(make_project, belief(), extra={"docs/zz.md": "# Z\n",
                                                  "docs/zz.beliefs.json": other})
    assert found == ["docs/zz.beliefs.json:17:7: belief-provenance: provenance id 'p-sky' is "
                     "already defined differently in docs/sky.beliefs.json:18; this entry is "
                     "ignored (ids are unique per network)"]


QUOTE_SHA = hashlib.sha256(QUOTE.encode()).hexdigest()
GREEN = "The sky is green."


@pytest.mark.parametrize(("change", "code", "reason"), [
    ({"quote_hash": "0" * 64}, "quote-drift",
     f"quote_hash is not the SHA-256 of the quote (that is {QUOTE_SHA})"),
    ({"quote": GREEN, "quote_hash": hashlib.sha256(GREEN.encode()).hexdigest()}, "quote-drift",
     "quote not found in raw/sky.md"),
    ({"raw_path": "../secret.md"}, "path-escape", "raw_path '../secret.md' leaves raw_dir"),
    ({"raw_path": "/etc/passwd"}, "path-escape", "raw_path '/etc/passwd' leaves raw_dir"),
    ({"raw_path": "C:\\x.md"}, "path-escape", "raw_path 'C:\\\\x.md' leaves raw_dir"),
])
def test_quote_anchor_failures(make_project: MakeProject, change: dict[str, Any], code: str,
                               reason: str) -> None:
    result, found = run(make_project, belief(), prov=[provenance(**change)])
    assert len(found) == 1 and f": {code}: provenance 'p-sky': {reason};" in found[0], found
    assert not result.beliefs["b-sky"].verified_against_source
    assert result.provenance[("root", "p-sky")].check.reason == reason


def test_symlinks_are_followed_only_inside_raw_dir(make_project: MakeProject,
                                                  tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(QUOTE)
    project = make_project({"docs/sky.md": PAGE, "raw/real.md": QUOTE,
                            "docs/sky.beliefs.json": sidecar(prov=[provenance(raw_path="in.md")])})
    os.symlink(project.raw_dir / "real.md", project.raw_dir / "in.md")
    assert verify_context(project).diagnostics == ()
    (project.raw_dir / "in.md").unlink()
    os.symlink(outside, project.raw_dir / "in.md")
    assert [str(d) for d in verify_context(project).diagnostics] == [
        "docs/sky.beliefs.json:20:7: path-escape: provenance 'p-sky': raw_path 'in.md' is a "
        "symlink out of raw_dir; verified_against_source is false"]


def test_each_raw_file_is_read_once(acme: ProjectContext, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    original = Path.read_bytes

    def counting(self: Path) -> bytes:
        reads.append(self.name)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    verify_context(acme)
    assert reads.count("acme-api-spec-v1.md") == 1


# -- supersession ----------------------------------------------------------------------


def two(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    base_old = belief("b-old", subject="sky colour", predicate="is", object="blue")
    base_new = belief("b-new", subject="sky colour", predicate="is", object="grey",
                      asserted_at="2026-03-01")
    return {**base_old, **old}, {**base_new, **new}


def test_supersession_to_a_missing_belief(make_project: MakeProject) -> None:
    old, new = two({"superseded_at": "2026-03-01", "superseded_by_belief_id": "b-neww"}, {})
    result, found = run(make_project, old, new)
    assert found == ["docs/sky.beliefs.json:19:7: belief-supersession: b-old is superseded by "
                     "'b-neww' (did you mean 'b-new'?)"]
    assert not result.beliefs["b-old"].is_current


def test_supersession_cycle_is_printed(make_project: MakeProject) -> None:
    old, new = two({"superseded_at": "2026-03-01", "superseded_by_belief_id": "b-new"},
                   {"superseded_at": "2026-04-01", "superseded_by_belief_id": "b-old"})
    _, found = run(make_project, old, new)
    assert found == ["docs/sky.beliefs.json:37:7: belief-supersession: supersession cycle: "
                     "b-new -> b-old -> b-new; clear superseded_by_belief_id on one of them"]


def test_self_supersession_is_a_cycle(make_project: MakeProject) -> None:
    old, _ = two({"superseded_at": "2026-03-01", "superseded_by_belief_id": "b-old"}, {})
    _, found = run(make_project, old)
    assert found == ["docs/sky.beliefs.json:19:7: belief-supersession: supersession cycle: "
                     "b-old -> b-old; clear superseded_by_belief_id on one of them"]


def test_superseded_before_asserted(make_project: MakeProject) -> None:
    old, new = two({"superseded_at": "2025-12-31", "superseded_by_belief_id": "b-new"}, {})
    _, found = run(make_project, old, new)
    assert found == ["docs/sky.beliefs.json:18:7: belief-supersession: b-old is superseded at "
                     "2025-12-31, before it was asserted (2026-01-01)"]


def test_same_day_supersession_with_times_is_fine(make_project: MakeProject) -> None:
    old, new = two({"asserted_at": "2026-03-01T10:00:00Z", "superseded_at": "2026-03-01",
                    "superseded_by_belief_id": "b-new"}, {})
    assert run(make_project, old, new)[1] == []


def test_unjustified_supersession(make_project: MakeProject) -> None:
    old, new = two({"superseded_at": "2026-03-01", "superseded_by_belief_id": "b-new"},
                   {"topic": "weather", "subject": "rain"})
    _, found = run(make_project, old, new)
    assert found == ["docs/sky.beliefs.json:19:7: belief-supersession: unjustified "
                     "supersession: b-old and b-new share neither subject+predicate nor topic "
                     "('sky' vs 'weather')"]


def test_same_subject_and_predicate_justify_across_topics(make_project: MakeProject) -> None:
    old, new = two({"superseded_at": "2026-03-01", "superseded_by_belief_id": "b-new"},
                   {"topic": "weather", "subject": "  Sky   Colour "})
    assert run(make_project, old, new)[1] == []


def test_successor_without_superseded_at(make_project: MakeProject) -> None:
    old, new = two({"superseded_by_belief_id": "b-new"}, {})
    result, found = run(make_project, old, new)
    assert found == ["docs/sky.beliefs.json:18:7: belief-supersession: b-old names a successor "
                     "but no superseded_at; treated as superseded at 2026-03-01 (b-new's "
                     "asserted_at): add superseded_at"]
    assert result.beliefs["b-old"].superseded_at == "2026-03-01"


def test_supersession_by_a_draft_belief(make_project: MakeProject) -> None:
    old, _ = two({"superseded_at": "2026-03-01", "superseded_by_belief_id": "b-secret"}, {})
    draft = sidecar(belief("b-secret", footnote_ids=[], wiki_section_anchor=None))
    _, found = run(make_project, old, extra={"docs/d.md": "---\ndraft: true\n---\n# D\n",
                                             "docs/d.beliefs.json": draft})
    # the draft's belief id is not named: diagnostics.json is published
    assert found[1] == ("docs/sky.beliefs.json:19:7: belief-supersession: b-old is superseded "
                        "by a belief on an unpublished page")


# -- contradictions, duplicates, page field --------------------------------------------


def test_contradictions_only_between_current_beliefs(make_project: MakeProject) -> None:
    a = belief("b-a", subject="Sky colour", predicate="is", object="blue")
    b = belief("b-b", subject="sky  colour", predicate="IS", object="Grey")
    c = belief("b-c", subject="sky colour", predicate="is", object="red",
               superseded_at="2026-02-01")
    d = belief("b-d", subject="sky colour", predicate="is", object="BLUE")
    result, found = run(make_project, a, b, c, d)
    assert found == []
    assert result.beliefs["b-a"].contradicting_belief_ids == ("b-b",)
    assert result.beliefs["b-b"].contradicting_belief_ids == ("b-a", "b-d")
    assert result.beliefs["b-c"].contradicting_belief_ids == ()
    assert result.beliefs["b-c"].confidence_hint == "single_source"


def test_declared_contradictions_are_symmetric_and_checked(make_project: MakeProject) -> None:
    a = belief("b-a", contradicting_belief_ids=["b-b", "b-zz"])
    b = belief("b-b")
    result, found = run(make_project, a, b)
    assert result.beliefs["b-b"].contradicting_belief_ids == ("b-a",)
    assert result.beliefs["b-b"].confidence_hint == "contested"
    assert found == ["docs/sky.beliefs.json:15:7: bad-sidecar: contradicting_belief_ids names "
                     "'b-zz', which is not another published belief"]


def test_duplicate_belief_ids_across_sidecars(make_project: MakeProject) -> None:
    other = sidecar(belief("b-sky", statement="Other.", footnote_ids=[],
                           wiki_section_anchor=None))
    result, found = run(make_project, belief(), extra={"docs/zz.md": "# Z\n",
                                                       "docs/zz.beliefs.json": other})
    assert found == ["docs/zz.beliefs.json:4:7: duplicate-id: belief id 'b-sky' is already used "
                     "at docs/sky.beliefs.json:3; this belief is ignored (belief ids are unique "
                     "across the knowledge base)"]
    assert result.beliefs["b-sky"].belief.statement == "The sky is blue."


def test_page_field_must_match_the_sidecar(make_project: MakeProject) -> None:
    files: dict[str, str | bytes] = {"docs/sky.md": PAGE, "raw/sky.md": QUOTE,
             "docs/sky.beliefs.json": '{"page": "sea.md", ' + sidecar()[1:]}
    found = [str(d) for d in verify_context(make_project(files)).diagnostics]
    assert found == ["docs/sky.beliefs.json:1:2: bad-sidecar: \"page\" says 'sea.md' but the "
                     "sidecar belongs to sky.md (its file name decides); fix or remove \"page\""]


# -- time ------------------------------------------------------------------------------


@pytest.mark.parametrize(("as_of", "old_current", "new_current"), [
    ("2026-01-09", False, False),
    ("2026-01-10", True, False),
    ("2026-04-14", True, False),
    ("2026-04-15", False, True),  # superseded on D is not current on D
    ("2026-04-15T00:00:00Z", False, True),
    ("2026-04-14T23:59:59Z", True, False),
    ("2026-04-15T01:00:00+02:00", True, False),  # 23:00 UTC on the 14th
])
def test_as_of_boundaries(acme: ProjectContext, as_of: str, old_current: bool,
                          new_current: bool) -> None:
    result = verify_context(acme)
    bound = dates.query_bound(as_of)
    old, new = (result.beliefs[b] for b in ("b-2026-01-10-acme-auth-001",
                                             "b-2026-04-15-acme-auth-001"))
    assert (old.current_at(bound), new.current_at(bound)) == (old_current, new_current)


def test_helpers_for_the_site(acme: ProjectContext) -> None:
    result = verify_context(acme)
    assert result.footnotes("topics/auth.md") == {
        "1": ("b-2026-01-10-acme-auth-001",), "2": ("b-2026-04-15-acme-auth-001",),
        "3": ("b-2026-02-01-acme-auth-002",)}
    recent = result.superseded_between("2026-04-01", "2026-05-01")
    assert [vb.belief_id for vb in recent] == ["b-2026-01-10-acme-auth-001"]
    assert result.superseded_between("2026-04-15", "2026-05-01") == []

"""``why``: each resolution step, ties, chains, time filters and the answer's shape."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from beliefbase.beliefs.facts import ProjectContext
from beliefbase.beliefs.quotes import RawSources, quote_hash
from beliefbase.beliefs.store import BeliefStore
from beliefbase.beliefs.verify import verify_context
from beliefbase.beliefs.why import history, why

from .conftest import context_for

OLD, NEW = "b-2026-01-10-acme-auth-001", "b-2026-04-15-acme-auth-001"
SESSION = "b-2026-02-01-acme-auth-002"


@pytest.fixture
def store(acme: ProjectContext) -> BeliefStore:
    result = BeliefStore(acme.store_path)
    result.sync(verify_context(acme))
    return result


def ids(beliefs: list[dict[str, Any]]) -> list[str]:
    return [b["belief_id"] for b in beliefs]


def test_exact_belief_id_brings_its_chain(store: BeliefStore) -> None:
    answer = why(store, OLD)
    assert answer["match_type"] == "belief_id"
    assert ids(answer["current_beliefs"]) == [NEW] and ids(answer["history"]) == [OLD]
    assert answer["current_beliefs"][0]["match_type"] == "supersession_chain"
    assert answer["history"][0]["match_type"] == "belief_id"
    assert answer["supersession_chain"] == [OLD, NEW]


@pytest.mark.parametrize("query", ["Acme OAuth refresh endpoint",
                                   "  acme oauth   REFRESH endpoint"])
def test_exact_subject_case_and_space_insensitive(store: BeliefStore, query: str) -> None:
    answer = why(store, query)
    assert answer["match_type"] == "subject"
    assert ids(answer["current_beliefs"]) == [NEW] and ids(answer["history"]) == [OLD]


def test_subject_and_predicate(store: BeliefStore) -> None:
    assert why(store, "Acme session lifetime::has_value")["match_type"] == "subject"
    answer = why(store, "Acme session lifetime::is_at")  # no such predicate: words instead
    assert answer["match_type"] == "fts" and ids(answer["current_beliefs"])[0] == SESSION


def test_topic(store: BeliefStore) -> None:
    answer = why(store, "Auth")
    assert answer["match_type"] == "topic"
    assert ids(answer["current_beliefs"]) == [SESSION, NEW] and ids(answer["history"]) == [OLD]


def test_fts_ranked_fallback(store: BeliefStore) -> None:
    answer = why(store, "invoices")
    assert answer["match_type"] == "fts"
    assert sorted(ids(answer["current_beliefs"])) == ["b-billing-001", "b-billing-002"]


def test_nothing_matches(store: BeliefStore) -> None:
    answer = why(store, "quantum gravity")
    assert answer == {"query": "quantum gravity", "match_type": "none", "current_beliefs": [],
                      "history": [], "contradicting_beliefs": [], "supersession_chain": [],
                      "supersession_chains": []}


def test_ties_return_every_exact_match_with_its_type(make_project: Any, acme_dir: Path) -> None:
    auth = acme_dir / "docs/topics/auth.beliefs.json"
    data = json.loads(auth.read_text(encoding="utf-8"))
    data["beliefs"][2]["subject"] = "billing"  # a subject that is also a topic name
    auth.write_text(json.dumps(data), encoding="utf-8")
    project = context_for(acme_dir)
    store = BeliefStore(project.store_path)
    store.sync(verify_context(project))
    answer = why(store, "billing")
    assert answer["match_type"] == "subject"
    types = {b["belief_id"]: b["match_type"] for b in answer["current_beliefs"]}
    assert types == {SESSION: "subject", "b-billing-001": "topic", "b-billing-002": "topic",
                     "b-billing-003": "topic"}


@pytest.mark.parametrize(("as_of", "current", "past"), [
    ("2026-01-09", [], []),
    ("2026-01-10", [OLD], []),
    ("2026-04-14", [OLD], []),
    ("2026-04-15", [NEW], [OLD]),  # a belief superseded on D is not current on D
    ("2026-04-14T23:59:59Z", [OLD], []),
    ("2026-04-15T00:00:00Z", [NEW], [OLD]),
])
def test_as_of(store: BeliefStore, as_of: str, current: list[str], past: list[str]) -> None:
    answer = why(store, "Acme OAuth refresh endpoint", as_of=as_of)
    assert (ids(answer["current_beliefs"]), ids(answer["history"])) == (current, past)


def test_since_and_until(store: BeliefStore) -> None:
    query = "Acme OAuth refresh endpoint"
    since = why(store, query, since="2026-04-15")
    assert ids(since["current_beliefs"]) == [NEW] and since["history"] == []
    since = why(store, query, since="2026-04-14")
    assert ids(since["history"]) == [OLD]
    until = why(store, query, until="2026-04-14")
    assert until["current_beliefs"] == [] and ids(until["history"]) == [OLD]
    both = why(store, query, since="2026-02-01", until="2026-03-01")
    assert ids(both["history"]) == [OLD] and both["current_beliefs"] == []


def test_no_history(store: BeliefStore) -> None:
    answer = why(store, "auth", history=False)
    assert answer["history"] == [] and ids(answer["current_beliefs"]) == [SESSION, NEW]


def test_network_filter(acme_dir: Path) -> None:
    project = context_for(acme_dir)
    pages = dict(project.pages)
    pages["topics/billing.md"] = dataclasses.replace(pages["topics/billing.md"], network="money")
    project = dataclasses.replace(project, pages=pages)
    store = BeliefStore(project.store_path)
    result = verify_context(project)
    store.sync(result)
    # billing's belief cited provenance defined in auth's sidecar: another network now.
    assert any("prov-acme-api-v1-7" in d.message for d in result.diagnostics)
    assert why(store, "billing", network="root")["match_type"] == "none"
    assert len(why(store, "billing", network="money")["current_beliefs"]) == 3
    assert why(store, "EUR", network="money")["current_beliefs"][0]["network"] == "money"


def test_contradicting_beliefs(store: BeliefStore) -> None:
    answer = why(store, "Acme invoice cadence")
    assert ids(answer["contradicting_beliefs"]) == ["b-billing-001", "b-billing-002"]
    assert answer["current_beliefs"][0]["contradicting_belief_ids"] == ["b-billing-002"]


def test_answer_shape_is_the_seeds(store: BeliefStore) -> None:
    answer = why(store, "Acme OAuth refresh endpoint")
    assert list(answer) == ["query", "match_type", "current_beliefs", "history",
                            "contradicting_beliefs", "supersession_chain", "supersession_chains"]
    current = answer["current_beliefs"][0]
    assert current["wiki_page"] == "topics/auth/#token-refresh"
    assert current["asserted_in_run"] == "run-2026-04-15-abc"
    assert current["supporting_sources"] == [{
        "id": "prov-acme-rfc-0034-3", "raw_path": "papers/acme-rfc-0034.md", "page_hint": 3,
        "quote": "v2 moves the refresh endpoint to /auth/v2/refresh.",
        "quote_hash": quote_hash("v2 moves the refresh endpoint to /auth/v2/refresh."),
        "verified_against_source": True,
        "verification": "quote found in raw/papers/acme-rfc-0034.md",
        "verified_at": "2026-06-01",
    }]
    past = answer["history"][0]
    assert (past["superseded_at"], past["superseded_by_belief_id"], past["superseded_in_run"],
            past["supersession_reason"]) == ("2026-04-15", NEW, "run-2026-04-15-abc",
                                             "contradicted_by_new_source")
    json.dumps(answer)  # JSON-ready


def test_live_recheck_sees_drift(store: BeliefStore, acme: ProjectContext) -> None:
    (acme.raw_dir / "papers/acme-rfc-0034.md").write_text("rewritten\n", encoding="utf-8")
    stored = why(store, NEW)["current_beliefs"][0]["supporting_sources"][0]
    assert stored["verified_against_source"] is True
    live = why(store, NEW, raw=RawSources(acme.raw_dir, acme.root),
               checked_at="2026-06-02T10:00:00Z")["current_beliefs"][0]["supporting_sources"][0]
    assert (live["verified_against_source"], live["verified_at"]) == (False,
                                                                      "2026-06-02T10:00:00Z")
    assert live["verification"] == "quote not found in raw/papers/acme-rfc-0034.md"


def test_history_of_a_belief(store: BeliefStore) -> None:
    chain = history(store, NEW)
    assert chain is not None and ids(chain) == [OLD, NEW]
    assert history(store, "nope") is None


def test_bad_dates_raise_value_error(store: BeliefStore) -> None:
    with pytest.raises(ValueError, match="not an ISO date"):
        why(store, "auth", as_of="last week")

"""``beliefs.json`` and the published schema copy."""

from __future__ import annotations

import json
from pathlib import Path

from beliefbase.beliefs.emit import beliefs_document, write_beliefs_json, write_schema
from beliefbase.beliefs.facts import ProjectContext
from beliefbase.beliefs.load import SCHEMA_FILE
from beliefbase.beliefs.store import BeliefStore
from beliefbase.beliefs.verify import verify_context
from beliefbase.beliefs.why import why


def test_beliefs_json_shape(acme: ProjectContext, tmp_path: Path) -> None:
    path = write_beliefs_json(verify_context(acme), tmp_path / "_beliefbase")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert list(document) == ["version", "counts", "beliefs", "topics", "pages"]
    assert document["version"] == 1
    assert document["counts"] == {"beliefs": 6, "current": 5, "superseded": 1, "contested": 2,
                                  "drifted": 0}
    assert document["pages"] == {
        "topics/auth/": ["b-2026-01-10-acme-auth-001", "b-2026-04-15-acme-auth-001",
                         "b-2026-02-01-acme-auth-002"],
        "topics/billing/": ["b-billing-001", "b-billing-002", "b-billing-003"],
    }
    assert "b-secret-001" not in path.read_text(encoding="utf-8")  # drafts leak nowhere
    first = document["beliefs"][0]
    assert (first["status"], first["supersession_chain"]) == (
        "superseded", ["b-2026-01-10-acme-auth-001", "b-2026-04-15-acme-auth-001"])


def test_beliefs_json_records_match_why(acme: ProjectContext) -> None:
    result = verify_context(acme)
    store = BeliefStore(acme.store_path)
    store.sync(result)
    emitted = {b["belief_id"]: b for b in beliefs_document(result)["beliefs"]}
    answered = why(store, "auth")["current_beliefs"][0]
    record = emitted[answered["belief_id"]]
    shared = set(answered) & set(record)
    assert shared >= {"statement", "wiki_page", "supporting_sources", "asserted_at",
                      "confidence_hint", "contradicting_belief_ids"}
    assert {k: answered[k] for k in shared} == {k: record[k] for k in shared}


def test_output_is_deterministic(acme: ProjectContext, tmp_path: Path) -> None:
    a = write_beliefs_json(verify_context(acme), tmp_path / "a").read_bytes()
    b = write_beliefs_json(verify_context(acme), tmp_path / "b").read_bytes()
    assert a == b


def test_schema_copy(tmp_path: Path) -> None:
    path = write_schema(tmp_path / "_beliefbase")
    assert path.name == "beliefs.schema.json"
    assert path.read_bytes() == SCHEMA_FILE.read_bytes()

"""The SQLite belief index: schema, constraints, versioning, determinism, FTS safety."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from beliefbase.beliefs.facts import ProjectContext
from beliefbase.beliefs.store import SCHEMA_VERSION, BeliefStore
from beliefbase.beliefs.verify import verify_context
from beliefbase.beliefs.why import fts_match, why

from .conftest import context_for


def built(project: ProjectContext, path: Path | None = None) -> BeliefStore:
    store = BeliefStore(path or project.store_path)
    store.sync(verify_context(project))
    return store


def test_schema_has_the_seed_tables_indexes_and_triggers(acme: ProjectContext) -> None:
    store = built(acme)
    names = {r[0] for r in store.query("SELECT name FROM sqlite_master")}
    assert {"wiki_beliefs", "wiki_beliefs_fts", "idx_beliefs_workspace_topic",
            "idx_beliefs_workspace_current", "idx_beliefs_subject_predicate",
            "idx_beliefs_wiki_doc", "idx_beliefs_asserted_at", "idx_beliefs_superseded_at",
            "wiki_beliefs_ai", "wiki_beliefs_ad", "wiki_beliefs_au"} <= names
    columns = [r[1] for r in store.query("PRAGMA table_info(wiki_beliefs)")]
    assert columns[:4] == ["belief_id", "workspace", "statement", "topic"]
    assert columns[-1] == "created_at" and len(columns) == 23
    assert store.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION
    assert store.query("SELECT count(*) FROM wiki_beliefs")[0][0] == 6


@pytest.mark.parametrize(("column", "value"), [
    ("statement", "x" * 281),
    ("supersession_reason", "elaborated"),  # without superseded_at
    ("confidence_hint", "sure"),
])
def test_check_constraints(acme: ProjectContext, column: str, value: str) -> None:
    store = built(acme)
    with pytest.raises(sqlite3.IntegrityError):
        store.conn.execute(f"UPDATE wiki_beliefs SET {column} = ? "
                           "WHERE belief_id = 'b-billing-001'", (value,))


def test_rows_carry_the_verified_fields(acme: ProjectContext) -> None:
    store = built(acme)
    row = store.query("SELECT * FROM wiki_beliefs WHERE belief_id = 'b-billing-002'")[0]
    assert row["workspace"] == "root" and row["wiki_document_id"] == "topics/billing.md"
    assert json.loads(row["footnote_ids"]) == ["b"]
    assert json.loads(row["contradicting_belief_ids"]) == ["b-billing-001"]
    assert (row["confidence_hint"], row["supporting_count"]) == ("contested", 1)
    assert row["created_at"] == row["asserted_at"] == "2026-03-20"
    prov = store.query("SELECT * FROM wiki_claim_provenance WHERE id = 'prov-billing-faq'")[0]
    assert prov["verified_against_source"] == 1 and prov["page_hint"] == "Q1"


def test_other_schema_version_is_discarded_and_rebuilt(acme: ProjectContext) -> None:
    built(acme).close()
    conn = sqlite3.connect(acme.store_path)
    conn.execute("PRAGMA user_version = 99")
    conn.execute("DROP TABLE belief_keys")
    conn.commit()
    conn.close()
    store = BeliefStore(acme.store_path)
    assert store.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION
    assert store.query("SELECT count(*) FROM wiki_beliefs")[0][0] == 0
    store.sync(verify_context(acme))
    assert store.query("SELECT count(*) FROM belief_keys")[0][0] == 6


def test_unreadable_database_is_replaced(acme: ProjectContext) -> None:
    acme.store_path.parent.mkdir(parents=True)
    acme.store_path.write_bytes(b"this is not a database" * 100)
    store = built(acme)
    assert store.query("SELECT count(*) FROM wiki_beliefs")[0][0] == 6


def test_rebuild_is_byte_for_byte_deterministic(acme: ProjectContext, tmp_path: Path) -> None:
    result = verify_context(acme)
    first, second = BeliefStore(tmp_path / "a.sqlite"), BeliefStore(tmp_path / "b.sqlite")
    first.rebuild(result)
    second.rebuild(result)
    first.close()
    second.close()
    assert (tmp_path / "a.sqlite").read_bytes() == (tmp_path / "b.sqlite").read_bytes()


def _edit_sidecars(project: Path) -> None:
    auth = project / "docs/topics/auth.beliefs.json"
    data = json.loads(auth.read_text(encoding="utf-8"))
    data["beliefs"][2]["statement"] = "Sessions expire after half an hour of inactivity."
    data["beliefs"].append(dict(data["beliefs"][1], belief_id="b-new", object="/auth/v3"))
    auth.write_text(json.dumps(data, indent=2), encoding="utf-8")
    billing = project / "docs/topics/billing.beliefs.json"
    data = json.loads(billing.read_text(encoding="utf-8"))
    del data["beliefs"][1]
    data["beliefs"][0].update(superseded_at="2026-05-01", superseded_by_belief_id="b-billing-003",
                              supersession_reason="elaborated")
    billing.write_text(json.dumps(data, indent=2), encoding="utf-8")


def test_incremental_sync_equals_a_rebuild_row_for_row(acme_dir: Path, tmp_path: Path) -> None:
    store = built(context_for(acme_dir))
    _edit_sidecars(acme_dir)
    changed = verify_context(context_for(acme_dir))
    store.sync(changed)  # updates, inserts and deletes through the FTS triggers
    fresh = BeliefStore(tmp_path / "rebuilt.sqlite")
    fresh.rebuild(changed)
    assert store.dump() == fresh.dump()
    assert len(store.dump()["wiki_beliefs"]) == 6
    for s in (store, fresh):
        s.conn.execute("INSERT INTO wiki_beliefs_fts(wiki_beliefs_fts) VALUES('integrity-check')")
    for query in ("half an hour", "invoices", "weekly", "/auth/v3", "b-new"):
        assert why(store, query) == why(fresh, query), query


def test_sync_without_changes_changes_nothing(acme: ProjectContext) -> None:
    store = built(acme)
    before = store.dump()
    changes = store.conn.total_changes
    store.sync(verify_context(acme))
    assert store.dump() == before
    assert store.conn.total_changes == changes


def test_a_knowledge_base_without_beliefs_keeps_its_empty_index(tmp_path: Path) -> None:
    """No sidecars: every build syncs an empty set; the file is written once, not
    thrown away and made again each time (a tenth of a second per serve rebuild)."""
    empty = verify_context(context_for(_empty_project(tmp_path)))
    assert not empty.beliefs
    path = tmp_path / "cache" / "beliefs.sqlite"
    with BeliefStore(path) as store:
        store.sync(empty)
    first = path.stat().st_ino, path.stat().st_mtime_ns
    with BeliefStore(path) as store:
        store.sync(empty)
        assert store.dump()["wiki_beliefs"] == []
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == first


def _empty_project(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    return root


HOSTILE_QUERIES = ["don't", '"x', "AND", "NOT", "(a", "*", "", "   ", "a OR", "NEAR(a b)",
                   "statement:blue", "^a", "a-b", "'); DROP TABLE wiki_beliefs; --", '""""',
                   "\u0000", "é", "-", "a AND NOT b", "{x}", "x*", "+"]


@pytest.mark.parametrize("query", HOSTILE_QUERIES)
def test_hostile_fts_queries_answer_and_never_raise(acme: ProjectContext, query: str) -> None:
    store = built(acme)
    answer = why(store, query)
    assert answer["match_type"] in ("fts", "none")
    assert store.query("SELECT count(*) FROM wiki_beliefs")[0][0] == 6


def test_fts_tokens_are_quoted_strings() -> None:
    assert fts_match("don't stop") == '"don\'t" "stop"'
    assert fts_match('say "x') == '"say" """x"'
    assert fts_match("a AND b", " OR ") == '"a" OR "AND" OR "b"'
    assert fts_match("* ( )") is None and fts_match("") is None


def test_fts_words_find_statements(acme: ProjectContext) -> None:
    store = built(acme)
    answer = why(store, "don't EUR")  # AND finds nothing, so the words are OR-ed
    assert [b["belief_id"] for b in answer["current_beliefs"]] == ["b-billing-003"]
    assert why(store, "factures")["match_type"] == "none"  # quotes are not indexed
    assert why(store, "refresh endpoint")["match_type"] == "fts"

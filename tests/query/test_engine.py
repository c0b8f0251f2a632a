"""The Cypher engine over the compiled graph: SPEC §8's features, one test each."""

from __future__ import annotations

import pytest
from beliefbase.query.run import QueryEngine

from tests.conftest import Project

from .conftest import write_vault


def titles(engine: QueryEngine, text: str) -> list[object]:
    result = engine.run(text)
    assert result.error is None, result.error
    return [row[0] for row in result.rows]


def test_seed_query_verbatim(engine: QueryEngine) -> None:
    result = engine.run("MATCH (p:Project {status: 'active'}) RETURN p ORDER BY p.priority DESC")
    assert result.error is None
    assert [row[0]["title"] for row in result.rows] == ["Beta", "Alpha"]
    beta = result.rows[0][0]
    assert beta["label"] == "Project" and beta["kind"] == "Document"
    assert beta["url"] == "beta/" and beta["path"] == "beta.md"
    assert beta["tags"] == ["work", "urgent"] and beta["priority"] == 7
    assert result.is_nodes and result.schema == "Project"


def test_every_document_by_kind(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (d) WHERE d.kind = 'Document' RETURN d.title") == [
        "Ada Lovelace", "Alpha", "Beta", "Gamma", "Loose"]


def test_note_is_the_label_without_schema(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (n:Note) RETURN n.title") == ["Loose"]


def test_drafts_and_unpublished_are_never_loaded(engine: QueryEngine) -> None:
    everything = engine.run("MATCH (n) RETURN n.title, n.path")
    assert everything.error is None
    shown = repr(everything.rows)
    assert "Secret draft" not in shown and "draft.md" not in shown
    assert "Hidden" not in shown and "hidden.md" not in shown


def test_relationship_type_and_direction(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (a)-[:links_to]->(b:Person) RETURN a.title") == ["Alpha"]
    assert titles(engine, "MATCH (b:Person)<-[:links_to]-(a) RETURN a.title") == ["Alpha"]
    assert titles(engine, "MATCH (b:Person)-[:links_to]->(a) RETURN a.title") == []


def test_typed_relation_from_frontmatter(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (p)-[:owner]->(o) RETURN o.title") == ["Ada Lovelace"]


def test_relationship_properties(engine: QueryEngine) -> None:
    result = engine.run("MATCH (a {title: 'Beta'})-[r:links_to]->(b) RETURN r")
    assert result.rows == (({"type": "links_to", "file": "beta.md", "line": 8,
                             "weight_kind": "Epistemic"},),)


def test_tagged(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (p)-[:tagged]->(t:Tag {title: '#urgent'}) RETURN p.title") == [
        "Beta"]


def test_variable_length_paths(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (a {title: 'Alpha'})-[:links_to*1..2]->(b) "
                          "RETURN b.title") == ["Ada Lovelace", "Beta", "Gamma"]
    assert titles(engine, "MATCH (a {title: 'Alpha'})-[:links_to*2..2]->(b) "
                          "RETURN b.title") == ["Gamma"]


def test_optional_match(engine: QueryEngine) -> None:
    result = engine.run("MATCH (p:Project) OPTIONAL MATCH (p)-[:owner]->(o) "
                        "RETURN p.title, o.title")
    assert result.rows == (("Alpha", "Ada Lovelace"), ("Beta", None), ("Gamma", None))


def test_where_operators(engine: QueryEngine) -> None:
    base = "MATCH (p:Project) WHERE {} RETURN p.title"
    assert titles(engine, base.format("p.priority > 2 AND p.priority < 7")) == ["Alpha"]
    assert titles(engine, base.format("p.status <> 'active' OR p.priority = 7")) == [
        "Beta", "Gamma"]
    assert titles(engine, base.format("NOT p.status = 'active'")) == ["Gamma"]
    assert titles(engine, base.format("p.title IN ['Gamma', 'Nope']")) == ["Gamma"]
    assert titles(engine, base.format("p.title CONTAINS 'et'")) == ["Beta"]
    assert titles(engine, base.format("p.title STARTS WITH 'Al'")) == ["Alpha"]
    assert titles(engine, base.format("'urgent' IN p.tags")) == ["Beta"]


def test_pattern_predicate(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (p:Project) WHERE NOT (p)-[:links_to]->() "
                          "RETURN p.title") == ["Gamma"]


def test_with_aggregation_skip_limit(engine: QueryEngine) -> None:
    result = engine.run("MATCH (p:Project) WITH p.status AS status, count(*) AS n, "
                        "collect(p.title) AS names RETURN status, n, size(names) "
                        "ORDER BY status")
    assert result.rows == (("active", 2, 2), ("done", 1, 1))
    assert titles(engine, "MATCH (p:Project) RETURN p.title ORDER BY p.priority "
                          "SKIP 1 LIMIT 1") == ["Alpha"]


def test_distinct(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (p:Project) RETURN DISTINCT p.status") == ["active", "done"]


def test_order_by_is_kept_and_rows_sorted_without(engine: QueryEngine) -> None:
    assert titles(engine, "MATCH (p:Project) RETURN p.title ORDER BY p.title DESC") == [
        "Gamma", "Beta", "Alpha"]
    assert titles(engine, "MATCH (p:Project) RETURN p.title") == ["Alpha", "Beta", "Gamma"]


def test_identical_queries_run_once(engine: QueryEngine) -> None:
    first = engine.run("MATCH (p:Project) RETURN p.title")
    assert engine.run("  MATCH (p:Project) RETURN p.title\n") is first


def test_no_query_loads_nothing(project: Project) -> None:
    write_vault(project)
    engine = QueryEngine(project.compile().graph)
    assert engine._loaded is None  # a build without queries pays nothing


@pytest.mark.parametrize(("text", "message"), [
    ("MATCH (p:Project RETURN p", "Parser exception"),
    ("MATCH (x:Nope) RETURN x", "Nope"),
    ("MATCH (p:Project) RETURN p.nope", "nope"),
])
def test_engine_errors_are_results(engine: QueryEngine, text: str, message: str) -> None:
    result = engine.run(text)
    assert result.error is not None and message in result.error
    assert result.rows == ()


def test_row_limit(project: Project) -> None:
    write_vault(project)
    engine = QueryEngine(project.compile().graph, max_rows=2)
    result = engine.run("MATCH (p:Project) RETURN p.title")
    assert result.error is not None and "query_max_rows" in result.error
    assert engine.run("MATCH (p:Project) RETURN p.title LIMIT 2").error is None


def test_time_limit(project: Project) -> None:
    write_vault(project)
    engine = QueryEngine(project.compile().graph, timeout=0.05)
    result = engine.run("UNWIND range(1, 5000) AS x UNWIND range(1, 5000) AS y RETURN sum(x * y)")
    assert result.error is not None and "query_timeout" in result.error


def test_disagreeing_types_become_text_with_one_diagnostic(project: Project) -> None:
    write_vault(project, {"delta.md": "---\nschema: Project\npriority: high\n---\n# Delta\n"})
    engine = QueryEngine(project.compile().graph)
    assert engine.loaded.labels["Project"]["priority"] == "STRING"
    found = engine.diagnostics
    assert [d.code for d in found] == ["query-property-type"]
    assert "priority" in found[0].message and "alpha.md" in found[0].message
    assert found[0].file.endswith("delta.md")
    assert titles(engine, "MATCH (p:Project) WHERE p.priority = '7' RETURN p.title") == ["Beta"]


def test_hostile_values_load_intact(project: Project) -> None:
    nasty = 'a, "quoted" \\ back, <script>alert(1)</script>'
    project.write("nasty.md", f"---\nschema: Odd\nnote: '{nasty}'\nlines: \"one\\ntwo\"\n"
                  "items: ['x,y', 'plain']\n---\n# It's \"odd\", really\n")
    engine = QueryEngine(project.compile().graph)
    result = engine.run("MATCH (o:Odd) RETURN o.title, o.note, o.lines, o.items")
    assert result.error is None
    assert result.rows == (("It's \"odd\", really", nasty, "one\ntwo", '["x,y", "plain"]'),)

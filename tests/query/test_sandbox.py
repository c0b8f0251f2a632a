"""Only reading queries reach the engine: every other clause is refused first."""

from __future__ import annotations

from pathlib import Path

import pytest
from beliefbase.query.run import QueryEngine
from beliefbase.query.sandbox import Refused, check, has_order_by

from tests.conftest import Project

from .conftest import write_vault

REFUSED = [
    "CREATE (n:Note {bid: 'x'})",
    "MATCH (n) MERGE (m:Note {bid: 'x'})",
    "MATCH (n:Note) SET n.title = 'pwned'",
    "MATCH (n:Note) DELETE n",
    "MATCH (n:Note) DETACH DELETE n",
    "MATCH (n:Note) REMOVE n.title",
    "DROP TABLE Note",
    "ALTER TABLE Note ADD x STRING",
    "ALTER TABLE Note RENAME TO Other",
    "COPY Note FROM '{outside}/in.csv'",
    "COPY (MATCH (n) RETURN n.title) TO '{outside}/out.csv'",
    "LOAD FROM '{outside}/in.csv' RETURN *",
    "LOAD EXTENSION httpfs",
    "INSTALL httpfs",
    "UNINSTALL httpfs",
    "ATTACH '{outside}/db' AS other (dbtype lbug)",
    "DETACH other",
    "USE other",
    "EXPORT DATABASE '{outside}/export'",
    "IMPORT DATABASE '{outside}/export'",
    "CALL show_tables() RETURN *",
    "CALL threads=1",
    "CREATE MACRO m(x) AS x",
    "BEGIN TRANSACTION",
    "COMMIT",
    "ROLLBACK",
    "CHECKPOINT",
    "EXPLAIN MATCH (n) RETURN n",
    "PROFILE MATCH (n) RETURN n",
    "MATCH (n) RETURN n; MATCH (m) RETURN m",
    "match (n:Note) detach delete n",
    "MATCH (n) /* hidden */ SET n.x = 1",
    "",
    "// only a comment",
]


@pytest.mark.parametrize("text", REFUSED)
def test_refused_before_the_engine(project: Project, tmp_path: Path, text: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "in.csv").write_text("bid\nx\n", encoding="utf-8")
    write_vault(project)
    engine = QueryEngine(project.compile().graph)
    before = sorted(p for p in tmp_path.rglob("*"))
    text = text.replace("{outside}", str(outside))
    with pytest.raises(Refused):
        check(text)
    result = engine.run(text)
    assert result.error is not None and result.rows == ()
    assert engine._loaded is None  # never reached the engine
    assert sorted(p for p in tmp_path.rglob("*")) == before  # nothing written
    assert (outside / "in.csv").read_text(encoding="utf-8") == "bid\nx\n"


@pytest.mark.parametrize("text", [
    "MATCH (n) WHERE n.title = 'CREATE something; DELETE' RETURN n",
    'MATCH (n) WHERE n.title CONTAINS "SET \\" LOAD" RETURN n',
    "MATCH (n) // DELETE n\nRETURN n",
    "MATCH (n) /* DROP TABLE Note; */ RETURN n",
    "MATCH (n:`CREATE`) RETURN n.`set`",
    "MATCH (n {set: 1, load: 2}) RETURN n.delete, n.copy",
    "MATCH (n)-[:CALL]->(m) RETURN n",
    "MATCH (n) RETURN n;",
])
def test_reading_queries_pass(text: str) -> None:
    check(text)


def test_order_by_outside_strings() -> None:
    assert has_order_by("MATCH (n) RETURN n ORDER  BY n.title")
    assert not has_order_by("MATCH (n) WHERE n.title = 'ORDER BY' RETURN n")
    assert not has_order_by("MATCH (n) RETURN n // ORDER BY n.title")

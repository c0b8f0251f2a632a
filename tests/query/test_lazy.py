"""Tables are filled the first time a query can reach them (``reach``, ``Loaded.require``):
every answer equals the answer of a database holding the whole graph."""

from __future__ import annotations

import pytest
from beliefbase.graph.model import Graph
from beliefbase.query.reach import reach
from beliefbase.query.run import QueryEngine

from tests.conftest import Project

from .conftest import write_vault

#: A vault with sections, blocks, tags, embeds and a typed relation beside the
#: projects: tables a lazy load must not forget.
EXTRA = {
    "notes/long.md": "---\ntags: [work]\n---\n# Long\n\n## Part one\n\nText ^blk\n\n"
                     "## Part two\n\n![[alpha]] and [[beta#Beta]].\n",
    # a path from a project through a plain note to a project
    "delta.md": "---\nschema: Project\nstatus: idea\n---\n# Delta\nSee [[bridge]].\n",
    "bridge.md": "# Bridge\nOn to [[gamma]].\n",
}

#: The labels of the vault that hold documents.
DOCUMENTS = {"Project", "Person", "Note"}

#: (query, the tables a lazy engine has after it: None when it needs every one).
CASES = [
    # a label only: its own table
    ("MATCH (p:Project) RETURN p.title, p.priority", {"Project"}),
    # a typed relationship between labelled nodes: the pairs of labels named
    ("MATCH (a:Project)-[:links_to]->(b:Project) RETURN a.title, b.title",
     {"Project", "links_to"}),
    ("MATCH (a:Project)-[:links_to]->(b:Person) RETURN a.title, b.title",
     {"Project", "Person", "links_to"}),
    # ... unless a node on the way has no label: every pair of the type
    ("MATCH (a:Project)-[:links_to]->(m)-[:links_to]->(b:Project) RETURN a.title, m.title",
     None),
    ("MATCH (a:Project)-[:links_to*2..2]->(b:Project) RETURN a.title, b.title", None),
    ("MATCH (a:Project)-[:links_to]->(b) RETURN a.title, b.title", None),
    # an unlabelled node next to a typed relationship: the type's ends cover it
    ("MATCH (t:Tag)<-[:tagged]-(n) RETURN t.title, n.title", None),
    ("MATCH (a {title: 'Alpha'})-[:links_to*1..2]->(b) RETURN b.title", None),
    ("MATCH (p:Project) WHERE NOT (p)-[:links_to]->() RETURN p.title", None),
    ("MATCH (p:Project) OPTIONAL MATCH (p)-[:owner]->(o) RETURN p.title, o.title", None),
    ("MATCH (s:Section)-[:child_of]->(d) RETURN s.title, d.title", None),
    ("MATCH (x)-[:embeds]->(y) RETURN x.title, y.title", None),
    # a free unlabelled node pinned to documents: every label holding one, no section
    ("MATCH (d) WHERE d.kind = 'Document' RETURN d.title", DOCUMENTS),
    ("MATCH (d {kind: 'Document'}) RETURN d.title", DOCUMENTS),
    ("MATCH (d) WHERE d.title STARTS WITH 'B' AND \"Document\" = d.kind RETURN d.title",
     DOCUMENTS),
    ("MATCH (d) WHERE d.kind = 'Document' RETURN d.title LIMIT 3", DOCUMENTS),
    ("MATCH (d) WHERE d.kind = 'Document' RETURN d.kind, count(*)", DOCUMENTS),
    ("MATCH (p:Project) OPTIONAL MATCH (d) WHERE d.kind = 'Document' AND d.title = p.title "
     "RETURN p.title, d.title", DOCUMENTS),
    # ... not when the pin is not a term joined by AND alone: every label
    ("MATCH (d) WHERE d.kind = 'Document' OR d.title = 'Part one' RETURN d.title", None),
    ("MATCH (d) WHERE NOT d.kind = 'Document' RETURN d.title", None),
    ("MATCH (d) WHERE d.kind = 'Document' AND d.title = 'Alpha' OR d.kind = 'Section' "
     "RETURN d.title", None),
    ("MATCH (d) WHERE d.kind <> 'Document' RETURN d.title", None),
    # a free unlabelled node: every label
    ("MATCH (d) RETURN d.kind, count(*)", None),
    ("MATCH (p:Project), (q) WHERE q.title = p.title RETURN q.title", None),
    ("MATCH (n {title: 'Part one'}) RETURN n.kind", None),
    # an untyped relationship: every type
    ("MATCH (p:Project)-->(x) RETURN p.title, x.title", None),
    ("MATCH (p:Project)<--(x) RETURN p.title, x.title", None),
    ("MATCH (p:Project)-[r]->(x) RETURN p.title, r.weight_kind, x.title", None),
    ("MATCH (p:Project)-[*1..2]-(x:Person) RETURN DISTINCT p.title", None),
    ("MATCH (l:Note) WHERE (l)--() RETURN l.title", None),
    # several types at once, and names in other cases
    ("MATCH (n)-[:links_to|embeds]->(m:project) RETURN n.title, m.title", None),
    ("MATCH (n:NOTE)-[:TAGGED]->(t) RETURN n.title, t.title", None),
    # labels only in strings or property names: nothing to load
    ("RETURN 'Section' AS s, 'Project' AS p", set()),
]


@pytest.fixture
def graph(project: Project) -> Graph:
    write_vault(project, EXTRA)
    return project.compile().graph


def full_engine(graph: Graph) -> QueryEngine:
    engine = QueryEngine(graph)
    engine.loaded.require(None)
    return engine


@pytest.mark.parametrize(("text", "tables"), CASES)
def test_a_lazy_answer_equals_the_full_one(graph: Graph, text: str,
                                           tables: set[str] | None) -> None:
    lazy = QueryEngine(graph)
    answer = lazy.run(text)
    assert answer.error is None, answer.error
    assert answer.rows, "a case that finds nothing proves nothing"
    assert answer == full_engine(graph).run(text)
    if tables is not None:
        assert lazy.loaded.tables == tables


def test_unnamed_tables_stay_empty(graph: Graph) -> None:
    engine = QueryEngine(graph)
    engine.run("MATCH (p:Project) RETURN p.title")
    assert engine.loaded.tables == {"Project"}
    engine.run("MATCH (t:Tag)<-[:tagged]-(n) RETURN t.title")
    assert engine.loaded.tables == {"Project", "Note", "Tag", "tagged"}
    assert "Section" not in engine.loaded.tables  # the graph's largest table, never asked for


def test_a_later_query_fills_more_and_earlier_answers_stand(graph: Graph) -> None:
    engine = QueryEngine(graph)
    full = full_engine(graph)
    texts = [case[0] for case in CASES]
    for text in [*texts, *reversed(texts)]:
        engine._memo.clear()
        assert engine.run(text) == full.run(text), text


def test_a_type_between_labels_it_never_joins_is_filled_whole(graph: Graph) -> None:
    text = "MATCH (a:Project)-[:tagged]->(b:Project) RETURN a.title"
    engine = QueryEngine(graph)
    assert engine.run(text) == full_engine(graph).run(text)
    assert {"Tag", "tagged"} <= engine.loaded.tables


@pytest.mark.parametrize(("text", "any_end"), [
    ("MATCH (a:Note)-[:links_to]->(b:Note) RETURN b", False),
    ("MATCH (a:Note)-[:links_to]->(b:Note) RETURN count(*), [x IN [1] | x * 2]", False),
    ("MATCH (a:Note)-[:links_to]->(b) RETURN b", True),
    ("MATCH (a:Note)<-[:links_to]-() RETURN a", True),
    ("MATCH (a:Note)-[:links_to*1..3]->(b:Note) RETURN b", True),
    ("MATCH (a:Note) WHERE NOT (a)-[:links_to]->(:Note) RETURN a", True),
])
def test_reach_ends(text: str, any_end: bool) -> None:
    found = reach(text)
    assert found is not None and found.any_end is any_end


def test_a_failing_query_names_an_unknown_label_as_before(graph: Graph) -> None:
    lazy = QueryEngine(graph).run("MATCH (x:Nothing) RETURN x")
    assert lazy.error is not None and "Nothing" in lazy.error
    assert lazy == full_engine(graph).run("MATCH (x:Nothing) RETURN x")


@pytest.mark.parametrize(("text", "names"), [
    ("MATCH (a:Note)-[:links_to]->(b) RETURN b", {"note", "links_to"}),
    ("MATCH (a:`My Type`)<-[r:`odd``type`]-(b) RETURN a", {"my type", "odd`type"}),
    ("MATCH (n:Note) RETURN count(n), exists(n.title), (n.title)", {"note"}),
    ("MATCH (n:Note) WHERE n.title = '(x)--(y)' RETURN n // (m)-->()", {"note"}),
    ("MATCH (n:Note) WHERE n.x > -1 RETURN n", {"note"}),
])
def test_reach_names(text: str, names: set[str]) -> None:
    found = reach(text)
    assert found is not None and names <= found.names


@pytest.mark.parametrize("text", [
    "MATCH (n) RETURN n", "MATCH () RETURN 1", "OPTIONAL MATCH (n {a: 1}) RETURN n",
    "MATCH (a:Note), (b) RETURN a", "MATCH p = (n) RETURN p",
    "MATCH (a:Note)-->(b) RETURN b", "MATCH (a:Note)<--(b) RETURN b",
    "MATCH (a:Note)-[r]->(b) RETURN b", "MATCH (a:Note)-[r {line: 1}]->(b) RETURN b",
    "MATCH (a:Note)-[*1..2]-(b:Note) RETURN b", "MATCH (a:Note)-[]-(b:Note) RETURN b",
])
def test_reach_everything(text: str) -> None:
    assert reach(text) is None


@pytest.mark.parametrize(("text", "documents"), [
    ("MATCH (d) WHERE d.kind = 'Document' RETURN d", True),
    ("MATCH (d {title: 'x', kind: 'Document'}) RETURN d", True),
    ("MATCH (n:Note) WHERE EXISTS { MATCH (d) WHERE d.kind = 'Document' AND d.x = n.x } "
     "RETURN n", True),
    ("MATCH (d) WHERE d.kind = 'Document' RETURN [x IN d.tags WHERE x = 'a' OR true]", True),
    ("MATCH (d:Note) RETURN d", False),
])
def test_reach_documents(text: str, documents: bool) -> None:
    found = reach(text)
    assert found is not None and found.documents is documents


@pytest.mark.parametrize("text", [
    "MATCH (d) WHERE d.kind = 'Document' OR true RETURN d",
    "MATCH (d) WHERE d.kind = 'Document' AND d.limit > 3 OR true RETURN d",
    "MATCH (d) WHERE d.kind = 'Document' AND d.title STARTS WITH 'x' OR true RETURN d",
    "MATCH (d) WHERE d.kind = 'Document' AND d.title ENDS WITH 'x' OR true RETURN d",
    "MATCH (d) WHERE d.kind = 'Document' XOR true RETURN d",
    "MATCH (d) WHERE (d.kind = 'Document' OR true) RETURN d",
    "MATCH (d) WHERE CASE WHEN true THEN d.kind = 'Document' AND true ELSE true END RETURN d",
    "MATCH (d) WHERE d.kind = 'Document' = false RETURN d",
    "MATCH (d) WHERE e.kind = 'Document' RETURN d",
    "MATCH (d) WHERE d.kind = 'Section' RETURN d",
    "MATCH (d {kind: 'Section'}) RETURN d",
    "MATCH (d) WITH d WHERE d.kind = 'Document' RETURN d",
    "MATCH (d), (n:Note) WHERE n.kind = 'Document' RETURN d",
    "MATCH () WHERE true RETURN 1",
])
def test_a_pin_not_joined_by_and_alone_reaches_everything(text: str) -> None:
    assert reach(text) is None

"""The kept database of ``mkdocs serve`` updated from a save's changes (``query/update.py``)
answers every query exactly as a database loaded from the new graph does."""

from __future__ import annotations

from typing import Any

from beliefbase.frozen import FrozenDict, freeze
from beliefbase.graph.model import Edge, Graph, Node, WeightKind
from beliefbase.query.run import QueryEngine
from beliefbase.query.update import KeptDatabase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: Documents (schema Project or none) and their sections.
DOCS = [(f"d{i}", "Project" if i % 2 else None) for i in range(6)]
SECTIONS = [(f"s{i}", f"d{i % 6}") for i in range(4)]

#: Sensitive to the order of rows where the engine is not (LIMIT without ORDER BY, ties
#: of an ORDER BY over nodes); an ORDER BY with ties over edges is not stable in the engine.
QUERIES = [
    "MATCH (n:Project) RETURN n ORDER BY n.status",
    "MATCH (n:Project) RETURN n.title, n.status, n.priority, n.labels",
    "MATCH (n:Note) RETURN n.title, n.status, n.tags LIMIT 2",
    "MATCH (n:Note) RETURN n ORDER BY n.priority DESC",
    "MATCH (a)-[r:links_to]->(b) RETURN a.title, b.title, r.line, r.display",
    "MATCH (a:Project)-[r:links_to]->(b) RETURN a.bid, b.bid, r.line "
    "ORDER BY a.bid, b.bid, r.line LIMIT 5",
    "MATCH (s:Section)-[:child_of]->(d) RETURN s.title, d.title",
    "MATCH (d) WHERE d.kind = 'Document' RETURN d.title, d.path, d.aliases",
    "MATCH (a)-[r]->(b) RETURN a.bid, type(r), b.bid LIMIT 7",
]

statuses = st.sampled_from(["open", "done", "", "Open"])
fields = st.fixed_dictionaries({}, optional={
    "status": statuses, "priority": st.integers(-3, 3),
    "labels": st.lists(st.sampled_from(["x", "y", "[[d1]]"]), max_size=2)})
doc_state = st.fixed_dictionaries({
    "title": st.sampled_from(["Alpha", "Beta", "beta", "Gamma"]),
    "tags": st.lists(st.sampled_from(["work", "home"]), max_size=2, unique=True),
    "fields": fields})
edge = st.tuples(st.sampled_from([d for d, _ in DOCS]),
                 st.sampled_from([d for d, _ in DOCS] + [s for s, _ in SECTIONS]),
                 st.integers(1, 4), st.sampled_from([None, "shown"]))
state = st.tuples(st.fixed_dictionaries({d: doc_state for d, _ in DOCS}),
                  st.lists(edge, max_size=10),
                  st.sampled_from(["", "Part", "Tail"]))  # a section's title


def graph_of(docs: dict[str, dict[str, Any]], links: list[tuple[str, str, int, str | None]],
             section_title: str) -> Graph:
    graph = Graph()
    for bid, schema in DOCS:
        doc = docs[bid]
        graph.add(Node(bid, "Document", doc["title"], schema, f"{bid}.md", f"{bid}/",
                       tuple(doc["tags"]), (), freeze(doc["fields"])))
    for bid, parent in SECTIONS:
        graph.add(Node(bid, "Section", section_title or bid, None, f"{parent}.md",
                       f"{parent}/#{bid}", (), (), FrozenDict()))
        graph.link(Edge(bid, parent, "child_of", WeightKind.SUBSECTION, f"{parent}.md", 1))
    for source, target, line, display in links:
        graph.link(Edge(source, target, "links_to", WeightKind.EPISTEMIC, f"{source}.md",
                        line, display))
    return Graph(graph.nodes, tuple(graph.edges))


def answers(engine: QueryEngine) -> list[Any]:
    return [engine.run(q) for q in QUERIES]


def fresh(graph: Graph) -> list[Any]:
    """The answers of a database loaded from ``graph``, closed at once (each maps a
    large reserve of memory: hundreds left to the garbage collector exhaust it)."""
    engine = QueryEngine(graph)
    try:
        return answers(engine)
    finally:
        engine.loaded.connection.close()
        engine.loaded.database.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(state, min_size=2, max_size=4))
def test_an_updated_database_answers_as_a_new_one(states: list[Any]) -> None:
    kept = KeptDatabase()
    try:
        for docs, links, section_title in states:
            graph = graph_of(docs, links, section_title)
            updated = answers(QueryEngine(graph, kept=kept))
            assert updated == fresh(graph)
    finally:
        kept.forget()


def test_a_field_edit_updates_the_database_in_place() -> None:
    docs = {bid: {"title": bid.upper(), "tags": [], "fields": {"status": "open"}}
            for bid, _ in DOCS}
    links = [("d1", "d2", 1, None), ("d3", "s1", 2, None)]
    kept = KeptDatabase()
    try:
        first = QueryEngine(graph_of(docs, links, ""), kept=kept)
        answers(first)
        loaded = first.loaded
        docs["d1"] = {"title": "D1", "tags": ["work"], "fields": {"status": ""}}  # null, as CSV
        links[0] = ("d1", "d2", 3, "shown")
        graph = graph_of(docs, links, "")
        second = QueryEngine(graph, kept=kept)
        assert answers(second) == fresh(graph)
        assert second.loaded is loaded and kept.updates == 1
        # a new note is a new row in the middle of the order: a new database
        graph = Graph({"d00": Node("d00", "Document", "New", None, "d00.md", "d00/"),
                       **graph.nodes}, graph.edges)
        third = QueryEngine(graph, kept=kept)
        assert answers(third) == fresh(graph)
        assert third.loaded is not loaded and kept.updates == 1
    finally:
        kept.forget()

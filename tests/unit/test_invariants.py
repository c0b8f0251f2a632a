"""The graph invariants checked on every build (SPEC §5.4), one violation each."""

from __future__ import annotations

from beliefbase.graph.invariants import check_graph
from beliefbase.graph.model import Edge, Graph, Node, WeightKind

SUB, EPI, PRA = WeightKind.SUBSECTION, WeightKind.EPISTEMIC, WeightKind.PRAGMATIC


def doc(bid: str, url: str | None = None) -> Node:
    return Node(bid, "Document", bid.upper(), path=f"{bid}.md", url=url)


def graph(*edges: Edge, nodes: tuple[Node, ...] = ()) -> Graph:
    g = Graph()
    for node in nodes or tuple(doc(b) for b in "abcd"):
        g.add(node)
    for edge in edges:
        g.link(edge)
    return g


def messages(g: Graph, urls: set[str] | None = None) -> list[str]:
    return [f"{d.file}:{d.line}: {d.code}: {d.message}"
            for d in check_graph(g, urls, lambda p: f"docs/{p}")]


def test_a_sound_graph_has_no_violation() -> None:
    g = graph(Edge("b", "a", "child_of", SUB), Edge("c", "a", "child_of", SUB),
              Edge("a", "b", "links_to", EPI, "a.md", 3), Edge("b", "c", "depends_on", PRA),
              Edge("a", "a", "links_to", EPI))  # a self-link is no cycle of links_to
    assert messages(g) == []


def test_an_edge_to_a_missing_node_names_it_at_the_edge() -> None:
    g = graph(Edge("a", "zz", "links_to", EPI, "a.md", 7), Edge("yy", "b", "tagged", PRA))
    assert messages(g) == [
        "docs/a.md:7: invariant: edge links_to points at a missing node zz",
        "docs/:1: invariant: edge tagged points at a missing node yy",
    ]


def test_two_structural_parents() -> None:
    g = graph(Edge("c", "a", "child_of", SUB), Edge("c", "b", "child_of", SUB),
              Edge("d", "a", "links_to", EPI), Edge("d", "b", "links_to", EPI))
    assert messages(g) == ["docs/c.md:1: invariant: c has 2 structural parents"]


def test_a_page_url_the_site_lacks() -> None:
    g = graph(nodes=(doc("a", "a/"), doc("b", "gone/")))
    assert messages(g, {"a/"}) == [
        "docs/b.md:1: invariant: the page URL 'gone/' is not in the site"]
    assert messages(g, None) == []  # not checked without the site's pages


def test_cycles_of_acyclic_relations_print_the_cycle() -> None:
    g = graph(Edge("a", "b", "depends_on", PRA, "a.md", 2),
              Edge("b", "a", "depends_on", PRA, "b.md", 4),
              Edge("c", "c", "supersedes", PRA, "c.md", 5),
              Edge("c", "d", "links_to", EPI), Edge("d", "c", "links_to", EPI))
    assert messages(g) == [
        "docs/a.md:2: cycle: depends_on forms a cycle: A -> B -> A; depends_on must not "
        "loop. Remove one of these links",
        "docs/c.md:5: cycle: supersedes points at the note itself; supersedes must not loop",
    ]


def test_relation_types_declared_acyclic_by_edge_and_node_types() -> None:
    nodes = (doc("a"), doc("b"),
             Node("t1", "Document", "parent_of", schema="EdgeType",
                  properties={"acyclic": True}),
             Node("t2", "Document", "Team", schema="NodeType",
                  properties={"acyclic": ["reports_to"]}))
    g = graph(Edge("a", "b", "parent_of", PRA, "a.md", 1),
              Edge("b", "a", "parent_of", PRA, "b.md", 1),
              Edge("a", "b", "reports_to", PRA, "a.md", 2),
              Edge("b", "a", "reports_to", PRA, "b.md", 2), nodes=nodes)
    assert [m.split(": ")[1] for m in messages(g)] == ["cycle", "cycle"]
    assert "parent_of forms a cycle" in messages(g)[0]
    assert "reports_to forms a cycle" in messages(g)[1]

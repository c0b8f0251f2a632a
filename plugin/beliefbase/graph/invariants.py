"""Invariants checked on every build (SPEC §5.4).  A violation is a diagnostic.

* every edge endpoint exists;
* ``child_of`` (Subsection) forms a tree: one parent per node, no cycle;
* every published node with a URL points at a page the site has;
* relation types declared acyclic (always ``depends_on``; ``EdgeType`` nodes
  with ``acyclic: true``; ``NodeType`` nodes listing ``acyclic`` relations)
  have no cycle — the message prints the cycle.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from .. import diagnostics as diag
from .model import Edge, Graph, Node, WeightKind

ALWAYS_ACYCLIC = frozenset({"depends_on", "supersedes"})


def acyclic_types(nodes: Iterable[Node]) -> set[str]:
    """Relation types declared acyclic by EdgeType / NodeType nodes, plus the built-ins."""
    found = set(ALWAYS_ACYCLIC)
    for node in nodes:
        props = node.properties
        if node.schema == "EdgeType" and props.get("acyclic") is True:
            name = props.get("name") or node.title
            if isinstance(name, str):
                found.add(name)
        elif node.schema == "NodeType":
            declared = props.get("acyclic")
            if isinstance(declared, str):
                found.add(declared)
            elif isinstance(declared, list | tuple):  # a YAML list (frozen: a tuple)
                found.update(x for x in declared if isinstance(x, str))
    return found


#: Nodes whose page the compile makes (notes, TOML nodes), and those the site
#: generates (tag pages): the compile checks the first, the site the second.
COMPILED_PAGES = ("Document",)
GENERATED_PAGES = ("Tag",)


def check_graph(
    graph: Graph,
    page_urls: AbstractSet[str] | None,
    display: Callable[[str], str],
    kinds: tuple[str, ...] = COMPILED_PAGES + GENERATED_PAGES,
) -> list[diag.Diagnostic]:
    """Every invariant; page URLs (when given) only for nodes of ``kinds``."""
    found: list[diag.Diagnostic] = []
    parents: dict[str, int] = defaultdict(int)
    nodes = graph.nodes
    for edge in graph.edges:
        if edge.source not in nodes or edge.target not in nodes:
            for end in (edge.source, edge.target):
                if end not in nodes:
                    found.append(_invariant(display, edge.file, edge.line,
                                            f"edge {edge.type} points at a missing node {end}"))
        if edge.weight_kind is WeightKind.SUBSECTION:
            parents[edge.source] += 1
    for bid, count in parents.items():
        if count > 1:
            node = graph.nodes.get(bid)
            found.append(_invariant(display, node.path if node else None, 1,
                                    f"{bid} has {count} structural parents"))
    if page_urls is not None:
        found += missing_pages(graph, page_urls, kinds, display)
    found += _cycles(graph, display)
    return found


def missing_pages(graph: Graph, page_urls: AbstractSet[str], kinds: tuple[str, ...],
                  display: Callable[[str], str]) -> list[diag.Diagnostic]:
    """Nodes of ``kinds`` whose page URL is not among ``page_urls``."""
    return [_invariant(display, node.path, 1, f"the page URL {node.url!r} is not in the site")
            for node in graph.nodes.values()
            if node.kind in kinds and node.url is not None and node.url not in page_urls]


def _cycles(graph: Graph, display: Callable[[str], str]) -> list[diag.Diagnostic]:
    wanted = acyclic_types(graph.nodes.values())
    found: list[diag.Diagnostic] = []
    of_type: dict[str, list[Edge]] = defaultdict(list)  # one pass over the edges
    for edge in graph.edges:
        if edge.type in wanted:
            of_type[edge.type].append(edge)
    for rel in sorted(wanted):
        edges = [e for e in of_type[rel] if e.source != e.target]
        self_loops = [e for e in of_type[rel] if e.source == e.target]
        for edge in self_loops:
            found.append(diag.make("cycle", display(edge.file or ""), edge.line or 1, 1,
                                   f"{rel} points at the note itself; {rel} must not loop"))
        if not edges:
            continue
        import networkx as nx  # heavy to import: only when there are edges to check

        g = nx.DiGraph()
        g.add_edges_from((e.source, e.target, {"edge": e}) for e in edges)
        for component in sorted(nx.strongly_connected_components(g), key=sorted):
            if len(component) < 2:
                continue
            cycle = nx.find_cycle(g.subgraph(component))
            first = g.edges[cycle[0][0], cycle[0][1]]["edge"]
            names = " -> ".join(graph.nodes[u].title for u, _v in cycle)
            names += " -> " + graph.nodes[cycle[0][0]].title
            found.append(diag.make(
                "cycle", display(first.file or ""), first.line or 1, 1,
                f"{rel} forms a cycle: {names}; {rel} must not loop. Remove one of these links",
            ))
    return found


def _invariant(display: Callable[[str], str], path: str | None, line: int | None,
               message: str) -> diag.Diagnostic:
    return diag.make("invariant", display(path or ""), line or 1, 1, message)

"""Invariants checked on every build (SPEC §5.4).  A violation is a diagnostic.

* every edge endpoint exists;
* ``child_of`` (Subsection) forms a tree: one parent per node, no cycle;
* every published node with a URL points at a page the site has;
* relation types declared acyclic (always ``depends_on``; ``EdgeType`` nodes
  with ``acyclic: true``; ``NodeType`` nodes listing ``acyclic`` relations)
  have no cycle — the message prints the cycle.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import compress
from operator import attrgetter

from .. import diagnostics as diag
from .model import Edge, Graph, Node, WeightKind

ALWAYS_ACYCLIC = frozenset({"depends_on", "supersedes"})

_SOURCE = attrgetter("source")
_TARGET = attrgetter("target")
_TYPE = attrgetter("type")
_WEIGHT_KIND = attrgetter("weight_kind")


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
            elif isinstance(declared, list):
                found.update(x for x in declared if isinstance(x, str))
    return found


def check_graph(
    graph: Graph,
    page_urls: set[str] | None,
    display: Callable[[str], str],
) -> list[diag.Diagnostic]:
    """Every invariant's violations.  Runs on every ``mkdocs serve`` rebuild over
    100,000 edges at 5,000 notes: the passes over the edges are ``map``s and
    ``Counter``s (loops in C); edge by edge only to report what is wrong."""
    found: list[diag.Diagnostic] = []
    nodes = graph.nodes
    edges = graph.edges
    ends = set(map(_SOURCE, edges))
    ends.update(map(_TARGET, edges))
    if not ends <= nodes.keys():
        for edge in edges:
            for end in (edge.source, edge.target):
                if end not in nodes:
                    found.append(_invariant(display, edge.file, edge.line,
                                            f"edge {edge.type} points at a missing node {end}"))
    structural = map(WeightKind.SUBSECTION.__eq__, map(_WEIGHT_KIND, edges))
    parents = Counter(compress(map(_SOURCE, edges), structural))
    for bid, count in parents.items():
        if count > 1:
            node = nodes.get(bid)
            found.append(_invariant(display, node.path if node else None, 1,
                                    f"{bid} has {count} structural parents"))
    if page_urls is not None:
        for node in nodes.values():
            if node.kind == "Document" and node.url is not None and node.url not in page_urls:
                found.append(_invariant(display, node.path, 1,
                                        f"the page URL {node.url!r} is not in the site"))
    found += _cycles(graph, display)
    return found


def _cycles(graph: Graph, display: Callable[[str], str]) -> list[diag.Diagnostic]:
    wanted = acyclic_types(graph.nodes.values())
    found: list[diag.Diagnostic] = []
    of_type: dict[str, list[Edge]] = defaultdict(list)
    for edge in compress(graph.edges, map(wanted.__contains__, map(_TYPE, graph.edges))):
        of_type[edge.type].append(edge)
    for rel in sorted(wanted):
        edges = [e for e in of_type[rel] if e.source != e.target]
        self_loops = [e for e in of_type[rel] if e.source == e.target]
        for edge in self_loops:
            found.append(diag.make("cycle", display(edge.file or ""), edge.line or 1, 1,
                                   f"{rel} points at the note itself; {rel} must not loop"))
        if not edges:
            continue
        import networkx as nx  # 20 MB to import: only when there are edges to check

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

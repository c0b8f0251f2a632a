"""GraphML export of the compiled graph (for Gephi, yEd, networkx users)."""

from __future__ import annotations

import io

from .model import Graph


def to_graphml(graph: Graph) -> str:
    import networkx as nx

    g = nx.MultiDiGraph()
    for node in sorted(graph.nodes.values(), key=lambda n: n.bid):
        g.add_node(node.bid, kind=node.kind, title=node.title, schema=node.schema or "",
                   path=node.path or "", url=node.url or "", tags=" ".join(node.tags))
    for edge in graph.edges:
        g.add_edge(edge.source, edge.target, type=edge.type,
                   weight_kind=edge.weight_kind.value, file=edge.file or "",
                   line=edge.line or 0)
    out = io.BytesIO()
    nx.write_graphml(g, out, encoding="utf-8")
    return out.getvalue().decode("utf-8")

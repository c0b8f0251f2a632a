"""GraphML export of the compiled graph (for Gephi, yEd, networkx users)."""

from __future__ import annotations

import io
import re

from .model import Graph

# What XML 1.0 cannot hold at all, even escaped: C0 controls but tab, newline and
# carriage return, lone surrogates, U+FFFE and U+FFFF.  A title may contain them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def to_graphml(graph: Graph) -> str:
    """The graph as GraphML; every string made fit for XML (``xml_text``)."""
    import networkx as nx

    g = nx.MultiDiGraph()
    for node in sorted(graph.nodes.values(), key=lambda n: n.bid):
        g.add_node(node.bid, kind=node.kind, title=xml_text(node.title),
                   schema=xml_text(node.schema or ""), path=xml_text(node.path or ""),
                   url=xml_text(node.url or ""), tags=xml_text(" ".join(node.tags)))
    for edge in graph.edges:
        g.add_edge(edge.source, edge.target, type=xml_text(edge.type),
                   weight_kind=edge.weight_kind.value, file=xml_text(edge.file or ""),
                   line=edge.line or 0)
    out = io.BytesIO()
    nx.write_graphml(g, out, encoding="utf-8")
    return out.getvalue().decode("utf-8")

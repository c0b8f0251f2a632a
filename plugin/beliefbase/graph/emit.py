"""``graph.json``: the graph as a versioned public API (documented in docs/).

Deterministic: nodes and edges are sorted, keys are sorted, so the same input
gives byte-identical output.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from typing import Any

from ..site.escape import json_for_html
from .model import Graph, WeightKind

GRAPH_JSON_VERSION = 1

_KIND_ORDER = {k: i for i, k in enumerate(
    ("Network", "Document", "Section", "Block", "Tag", "Asset", "External"))}


def graph_json(graph: Graph) -> dict[str, Any]:
    """The ``graph.json`` document."""
    degree: Counter[str] = Counter()
    for edge in graph.edges:
        if edge.weight_kind is not WeightKind.SUBSECTION:
            degree[edge.source] += 1
            degree[edge.target] += 1
    nodes = sorted(graph.nodes.values(),
                   key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    return {
        "version": GRAPH_JSON_VERSION,
        "nodes": [
            {
                "id": n.bid,
                "kind": n.kind,
                "schema": n.schema,
                "title": n.title,
                "url": n.url,
                "path": n.path,
                "folder": posixpath.dirname(n.path) if n.path else None,
                "tags": list(n.tags),
                "aliases": list(n.aliases),
                "degree": degree[n.bid],
            }
            for n in nodes
        ],
        "edges": [
            {
                "source": e.source,
                "target": e.target,
                "type": e.type,
                "weight_kind": e.weight_kind.value,
                "file": e.file,
                "line": e.line,
                "display": e.display,
                "auto_title": e.auto_title,
            }
            for e in sorted(graph.edges, key=lambda e: (e.file or "", e.line or 0, e.type,
                                                        e.source, e.target))
        ],
    }


def dumps(document: dict[str, Any]) -> str:
    """Compact, sorted JSON; ``<``, ``>``, ``&`` as ``\\u`` escapes (safe even inside HTML)."""
    return json_for_html(document, sort_keys=True, separators=(",", ":"))

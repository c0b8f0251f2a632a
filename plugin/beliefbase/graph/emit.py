"""``graph.json``: the graph as a versioned public API (documented in docs/).

Deterministic: nodes and edges are sorted, keys are sorted, so the same input
gives byte-identical output.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from ..html_json import json_for_html
from .build import _node_json
from .model import Graph

GRAPH_JSON_VERSION = 1

_KIND_ORDER = {k: i for i, k in enumerate(
    ("Network", "Document", "Section", "Block", "Tag", "Asset", "External", "Entity"))}


def graph_json_text(graph: Graph) -> str:
    """The ``graph.json`` text (see ``graph_json_chunks``)."""
    return "".join(graph_json_chunks(graph, keep=False))


def graph_json_chunks(graph: Graph, *, keep: bool = True) -> Iterable[str]:
    """The ``graph.json`` text in pieces: networks, then each document (by path)
    with its sections and blocks, then tags, assets and external links; edges
    grouped by the file that states them.  Assembled from the per-document text
    the ``GraphBuilder`` keeps, so an edit re-serialises only the edited note;
    written piece by piece, so the whole text (the site's largest file) is never
    one string.  The pieces of unchanged documents are the very strings of the
    last build, so comparing two builds' lists is mostly identity checks.

    ``keep`` False (a one-off build: no later build compares): the pieces are made
    as they are written and kept by no one, neither here nor by the parts."""
    own = {n.bid for part in graph.parts for n in part.nodes}
    networks = sorted((n for n in graph.nodes.values() if n.kind == "Network"),
                      key=lambda n: (n.path or "", n.bid))
    shared = sorted((n for n in graph.nodes.values()
                     if n.kind != "Network" and n.bid not in own),
                    key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    if keep:
        edges: Iterable[str] = (part.edges_json for part in graph.parts)
        nodes: Iterable[str] = (part.nodes_json for part in graph.parts)
    else:
        edges = (part.edges_text() for part in graph.parts)
        nodes = (part.nodes_text() for part in graph.parts)
    chunks = itertools.chain(
        ['{"edges":['], _joined(text for text in edges if text), ['],"nodes":['],
        _joined(itertools.chain((_node_json(n) for n in networks),
                                (text for text in nodes if text),
                                (_node_json(n) for n in shared))),
        [f'],"version":{GRAPH_JSON_VERSION}}}'])
    return list(chunks) if keep else chunks


def _joined(items: Iterable[str]) -> Iterator[str]:
    """``items`` with a comma between them (no string is copied)."""
    for i, item in enumerate(items):
        if i:
            yield ","
        yield item


def dumps(document: Any) -> str:
    """Compact, sorted JSON; ``<``, ``>``, ``&`` as ``\\u`` escapes (safe even inside HTML)."""
    return json_for_html(document, sort_keys=True, separators=(",", ":"))


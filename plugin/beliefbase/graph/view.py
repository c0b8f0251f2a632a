"""``graph-view.json``: the graph viewer's own, slim file.

Documents, tags, assets and external links (the viewer's kinds); a link from
or to a section or block counts for its document; structure edges
(``child_of``) and networks are left out.  Node fields equal to their default
are omitted (``kind`` "Document", ``schema`` null, empty ``tags``,
``aliases``, ``folder``, ``url``).  Edges are one flat list of
``source, target, type`` triples: node positions in ``nodes`` and an index
into ``types``, each (source, target, type) once.

Under ``mkdocs serve`` a ``ViewKept`` carries the last build's pieces to the
next: each node's JSON (the ``GraphBuilder`` hands back the same frozen
``Node`` objects for notes that did not change), and the edge list when
nothing it depends on changed — the same nodes in the same order, and every
rebuilt document part with the same nodes and relations (a retitled note, a
body edit that moves no link).  At 5,000 notes the edge list is 60,000
triples: folding and sorting them took a tenth of a rebuild.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from ..site.kept_texts import KeptTexts
from .emit import _KIND_ORDER, dumps
from .model import Graph, Node, WeightKind

GRAPH_VIEW_VERSION = 1

#: Kinds the viewer draws; sections and blocks are folded into their document.
_VIEW_KINDS = ("Document", "Tag", "Asset", "External")
_FOLDED = ("Section", "Block")


@dataclass
class ViewKept:
    """The last ``graph-view.json``'s pieces, for the next ``mkdocs serve`` rebuild."""

    nodes: KeptTexts = field(default_factory=KeptTexts)
    parts: dict[str, Any] = field(default_factory=dict)  # document path -> its DocPart
    shown: list[str] = field(default_factory=list)  # the shown nodes' BIDs, in order
    edges: tuple[list[str], str] | None = None  # the types and the edge list's text


def graph_view_text(graph: Graph, kept: ViewKept | None = None) -> str:
    """The text of ``graph-view.json`` (see the module's docstring)."""
    kept = kept if kept is not None else ViewKept()
    fold = _fold(graph)
    shown = sorted((graph.nodes[b] for b in set(fold.values())),
                   key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    bids = [n.bid for n in shown]
    parts = {part.doc.path: part for part in graph.parts}
    if kept.edges is None or not _same_edges(bids, parts, kept):
        kept.edges = _edges(graph, fold, bids)
    kept.parts, kept.shown = parts, bids
    types, edges = kept.edges
    nodes = [kept.nodes.text(node, _view_node_json) for node in shown]
    kept.nodes.end_round()
    return ('{"edges":[' + edges + '],"nodes":[' + ",".join(nodes)
            + '],"types":' + dumps(types) + f',"version":{GRAPH_VIEW_VERSION}}}')


def _fold(graph: Graph) -> dict[str, str]:
    """Each node the viewer knows -> the node it shows for it (itself, or its document)."""
    by_path: dict[str | None, str] = {}
    fold: dict[str, str] = {}
    folded: list[Node] = []
    for node in graph.nodes.values():
        if node.kind in _VIEW_KINDS:
            fold[node.bid] = node.bid
            if node.kind == "Document" and node.path:
                by_path[node.path] = node.bid
        elif node.kind in _FOLDED:
            folded.append(node)
    for node in folded:
        document = by_path.get(node.path)
        if document is not None:
            fold[node.bid] = document
    return fold


def _edges(graph: Graph, fold: dict[str, str], shown: list[str]) -> tuple[list[str], str]:
    """The edge types and the text of the flat edge list."""
    position = {bid: k for k, bid in enumerate(shown)}
    at = {bid: position[shown_as] for bid, shown_as in fold.items()}.get
    triples: set[tuple[int, int, str]] = set()
    for edge in graph.edges:
        if edge.weight_kind is WeightKind.SUBSECTION:
            continue
        source, target = at(edge.source), at(edge.target)
        if source is None or target is None or source == target:
            continue
        triples.add((source, target, edge.type))
    types = sorted({t for _s, _t, t in triples})
    # the types' order is their index's, so the triples sort as they are
    index = {t: str(k) for k, t in enumerate(types)}
    return types, ",".join([f"{s},{t},{index[kind]}" for s, t, kind in sorted(triples)])


def _same_edges(shown: list[str], parts: dict[str, Any], kept: ViewKept) -> bool:
    """Would the edge list come out as last time?  Yes when the shown nodes are the
    same, in the same order, and every document part built again has the same
    nodes (so every node folds as before) and the same relations."""
    if shown != kept.shown or parts.keys() != kept.parts.keys():
        return False
    return all(part is kept.parts[path] or _shape(part) == _shape(kept.parts[path])
               for path, part in parts.items())


def _shape(part: Any) -> tuple[set[tuple[Any, ...]], set[tuple[str, str, str]]]:
    """What of a document part the edge list depends on (not titles, not lines)."""
    return ({(n.bid, n.kind, n.path) for n in part.nodes},
            {(e.source, e.target, e.type) for e in part.edges
             if e.weight_kind is not WeightKind.SUBSECTION})


def _view_node_json(node: Node) -> str:
    return dumps(_view_node(node))


def _view_node(node: Node) -> dict[str, Any]:
    out: dict[str, Any] = {"id": node.bid, "title": node.title}
    if node.kind != "Document":
        out["kind"] = node.kind
    if node.url:
        out["url"] = node.url
    if node.schema:
        out["schema"] = node.schema
    folder = posixpath.dirname(node.path) if node.path and node.kind == "Document" else ""
    if folder:
        out["folder"] = folder
    if node.tags:
        out["tags"] = list(node.tags)
    if node.aliases:
        out["aliases"] = list(node.aliases)
    return out

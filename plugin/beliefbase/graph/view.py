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
body edit that moves no link).  When it did change (a note added or
deleted: every position after it moves), the list is sorted again from each
document's folded relations, kept per ``DocPart``: only new parts are
folded, not the 110,000 edges of 5,000 notes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..kept_texts import KeptTexts
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
    #: document path -> its part's relations as the viewer shows them (by BID), and
    #: the documents whose nodes they were folded through
    relations: dict[str, Relations] = field(default_factory=dict)
    #: document path -> the BID of its node in the graph
    documents: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Relations:
    part: Any  # the DocPart they were made from
    triples: frozenset[tuple[str, str, str]]  # (source, target, type), folded
    through: frozenset[str]  # paths of the documents whose nodes an end folded through


def graph_view_text(graph: Graph, kept: ViewKept | None = None) -> str:
    """The text of ``graph-view.json`` (see the module's docstring)."""
    kept = kept if kept is not None else ViewKept()
    shown = sorted((n for n in graph.nodes.values() if n.kind in _VIEW_KINDS),
                   key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    bids = [n.bid for n in shown]
    parts = {part.doc.path: part for part in graph.parts}
    if kept.edges is None or not _same_edges(bids, parts, kept):
        kept.relations, kept.documents = _relations(graph, parts, kept)
        kept.edges = _edges(kept.relations.values(), bids)
    kept.parts, kept.shown = parts, bids
    types, edges = kept.edges
    nodes = [kept.nodes.text(node, _view_node_json) for node in shown]
    kept.nodes.end_round()
    return ('{"edges":[' + edges + '],"nodes":[' + ",".join(nodes)
            + '],"types":' + dumps(types) + f',"version":{GRAPH_VIEW_VERSION}}}')


def _relations(graph: Graph, parts: dict[str, Any], kept: ViewKept
               ) -> tuple[dict[str, Relations], dict[str, str]]:
    """Each document part's relations, folded: a link from or to a section or block
    counts for its document.  A part's are made again only when the part is new or
    a document they were folded through has another node now (deleted, or a BID
    two notes share now standing for the other)."""
    nodes = graph.nodes
    documents: dict[str, str] = {}
    for path, part in parts.items():
        node: Node = part.nodes[0]  # the document's own
        if nodes.get(node.bid) is node:  # not a BID another note took first
            documents[path] = node.bid
    moved = {path for path, _bid in documents.items() ^ kept.documents.items()}
    relations: dict[str, Relations] = {}
    for path, part in parts.items():
        last = kept.relations.get(path)
        reuse = last is not None and last.part is part and moved.isdisjoint(last.through)
        relations[path] = last if reuse and last else _part_relations(part, nodes, documents)
    return relations, documents


def _part_relations(part: Any, nodes: dict[str, Node], documents: dict[str, str]) -> Relations:
    triples: set[tuple[str, str, str]] = set()
    through: set[str] = set()
    for edge in part.edges:
        if edge.weight_kind is WeightKind.SUBSECTION:
            continue
        source = _shown_as(nodes.get(edge.source), documents, through)
        target = _shown_as(nodes.get(edge.target), documents, through)
        if source is not None and target is not None and source != target:
            triples.add((source, target, edge.type))
    return Relations(part, frozenset(triples), frozenset(through))


def _shown_as(node: Node | None, documents: dict[str, str], through: set[str]) -> str | None:
    """The BID of the shown node ``node`` counts for (itself, or its document's);
    the document it went through is added to ``through``."""
    if node is None:
        return None
    if node.path and (node.kind == "Document" or node.kind in _FOLDED):
        through.add(node.path)
    if node.kind in _VIEW_KINDS:
        return node.bid
    if node.kind in _FOLDED and node.path:
        return documents.get(node.path)
    return None


def _edges(relations: Iterable[Relations], shown: list[str]) -> tuple[list[str], str]:
    """The edge types and the text of the flat edge list."""
    position = {bid: k for k, bid in enumerate(shown)}
    triples = frozenset().union(*(r.triples for r in relations))
    types = sorted({t for _s, _t, t in triples})
    # the types' order is their index's, so the triples sort as they are
    index = {t: str(k) for k, t in enumerate(types)}
    at = position.__getitem__
    return types, ",".join([f"{s},{t},{index[kind]}" for s, t, kind in
                            sorted((at(s), at(t), kind) for s, t, kind in triples)])


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

"""``graph.json``: the graph as a versioned public API (documented in docs/).

Deterministic: nodes and edges are sorted, keys are sorted, so the same input
gives byte-identical output.
"""

from __future__ import annotations

import itertools
import json
import posixpath
from collections.abc import Iterable
from typing import Any

from ..site.escape import json_for_html
from ..site.kept_texts import KeptTexts
from .build import _node_json
from .model import Graph, Node, WeightKind

GRAPH_JSON_VERSION = 1

_KIND_ORDER = {k: i for i, k in enumerate(
    ("Network", "Document", "Section", "Block", "Tag", "Asset", "External"))}


def graph_json_text(graph: Graph) -> str:
    """The ``graph.json`` text (see ``graph_json_chunks``)."""
    return "".join(graph_json_chunks(graph))


def graph_json_chunks(graph: Graph) -> list[str]:
    """The ``graph.json`` text in pieces: networks, then each document (by path)
    with its sections and blocks, then tags, assets and external links; edges
    grouped by the file that states them.  Assembled from the per-document text
    the ``GraphBuilder`` keeps, so an edit re-serialises only the edited note;
    written piece by piece, so the whole text (13 MB at 1,000 notes) is never
    one string.  The pieces of unchanged documents are the very strings of the
    last build, so comparing two builds' lists is mostly identity checks."""
    own = {n.bid for part in graph.parts for n in part.nodes}
    networks = sorted((n for n in graph.nodes.values() if n.kind == "Network"),
                      key=lambda n: (n.path or "", n.bid))
    shared = sorted((n for n in graph.nodes.values()
                     if n.kind != "Network" and n.bid not in own),
                    key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    chunks = ['{"edges":[']
    _joined(chunks, (part.edges_json for part in graph.parts if part.edges_json))
    chunks.append('],"nodes":[')
    _joined(chunks, itertools.chain((_node_json(n) for n in networks),
                                    (part.nodes_json for part in graph.parts if part.nodes_json),
                                    (_node_json(n) for n in shared)))
    chunks.append(f'],"version":{GRAPH_JSON_VERSION}}}')
    return chunks


def _joined(chunks: list[str], items: Iterable[str]) -> None:
    """Append ``items`` to ``chunks`` with a comma between them (no string is copied)."""
    for i, item in enumerate(items):
        if i:
            chunks.append(",")
        chunks.append(item)


def dumps(document: Any) -> str:
    """Compact, sorted JSON; ``<``, ``>``, ``&`` as ``\\u`` escapes (safe even inside HTML)."""
    return json_for_html(document, sort_keys=True, separators=(",", ":"))


def graph_json(graph: Graph) -> dict[str, Any]:
    """``graph.json`` as data (tests and tools; the site writes ``graph_json_text``)."""
    return json.loads(graph_json_text(graph))  # type: ignore[no-any-return]


# -- graph-view.json: the graph viewer's own, slim file --------------------------------

GRAPH_VIEW_VERSION = 1

#: Kinds the viewer draws; sections and blocks are folded into their document.
_VIEW_KINDS = ("Document", "Tag", "Asset", "External")
_FOLDED = ("Section", "Block")


def graph_view_text(graph: Graph, kept: KeptTexts | None = None) -> str:
    """``graph-view.json``: what the graph viewer draws, and nothing else.

    Documents, tags, assets and external links (the viewer's kinds); a link
    from or to a section or block counts for its document; structure edges
    (``child_of``) and networks are left out.  Node fields equal to their
    default are omitted (``kind`` "Document", ``schema`` null, empty ``tags``,
    ``aliases``, ``folder``, ``url``).  Edges are one flat list of
    ``source, target, type`` triples: node positions in ``nodes`` and an index
    into ``types``, each (source, target, type) once.

    ``kept`` keeps each node's JSON from one ``mkdocs serve`` rebuild to the
    next (the ``GraphBuilder`` hands back the same frozen ``Node`` objects for
    notes that did not change): serialising every node again took a fifth of
    a rebuild's output time at 5,000 notes.
    """
    shown, types, edges = _graph_view(graph)
    kept = kept if kept is not None else KeptTexts()
    nodes = [kept.text(node, _view_node_json) for node in shown]
    kept.end_round()
    return ('{"edges":[' + edges + '],"nodes":[' + ",".join(nodes)
            + '],"types":' + dumps(types) + f',"version":{GRAPH_VIEW_VERSION}}}')


def _graph_view(graph: Graph) -> tuple[list[Node], list[str], str]:
    """The nodes the viewer shows (in order), the edge types, the flat edge list's text."""
    nodes = graph.nodes
    by_path: dict[str | None, str] = {}
    fold: dict[str, str] = {}  # node -> the node the viewer shows for it
    folded: list[Node] = []
    for node in nodes.values():
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
    shown = sorted((nodes[b] for b in set(fold.values())),
                   key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    position = {n.bid: k for k, n in enumerate(shown)}
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
    return shown, types, ",".join([f"{s},{t},{index[kind]}" for s, t, kind in sorted(triples)])


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

"""``Linked`` -> ``Graph``: one node per published thing, one edge per relation.

Drafts contribute nothing: no node, no edge, not even a target of a link
(links to drafts are unresolved links).

A ``GraphBuilder`` lives as long as the plugin (all of ``mkdocs serve``): what
one document contributes — its node, sections, blocks, tags, and the edges of
its links, plus their ``graph.json`` text — is kept, and built again only when
the compiler produced a new ``Document`` or a new list of resolved links for
it.  Nothing in a document's part depends on another document's mutable
state: an auto-titled edge carries ``display: null`` (the target's title *is*
its display text), and a section's identity is (document BID, anchor).
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..builder.compiled import Linked
from ..builder.documents import Document, Network, section_bid, section_of_line
from ..builder.options import CompileOptions
from ..builder.resolve import ResolvedLink
from ..codecs.frontmatter import jsonable
from ..frozen import FrozenDict, freeze
from ..html_json import compact_json_for_html
from ..ids import SrcPath, asset_url, provisional_bid, tag_page_src, url_for_src
from .inline_properties import inline_properties
from .model import Edge, Graph, Node, WeightKind

#: a note's Entity nodes and ``mentions`` edges (``compile/entity_graph.py``)
MentionPart = tuple[tuple[Node, Edge], ...]

#: Frontmatter keys the graph shows as node fields rather than properties.
_OWN_FIELDS = {"title", "tags", "tag", "aliases", "alias", "schema", "bid", "draft", "publish"}


@dataclass(frozen=True)
class DocPart:
    """What one document adds to the graph (and its text in graph.json).

    Frozen: the ``GraphBuilder`` hands the same part to every compile until the
    document changes.  The text is made when first asked for: in ``mkdocs build``
    that is in the worker that writes ``graph.json`` on the second core
    (``render_ahead``), not in ``on_files``, which runs on one.
    """

    doc: Document
    links: tuple[ResolvedLink, ...] | None
    nodes: tuple[Node, ...] = ()  # the document, sections, blocks
    shared: tuple[Node, ...] = ()  # tags, assets, externals (deduplicated)
    edges: tuple[Edge, ...] = ()
    entities: MentionPart = ()  # its Entity nodes and mentions edges

    # one encoding per list, its brackets cut off: the same text as the records
    # encoded one by one and joined, without an encoder call per record (hundreds
    # of thousands of calls in a large vault)
    @functools.cached_property
    def nodes_json(self) -> str:
        return self.nodes_text()

    @functools.cached_property
    def edges_json(self) -> str:
        return self.edges_text()

    def nodes_text(self) -> str:
        """``nodes_json`` made anew, kept by no one (a one-off build writes each part
        once: keeping every part's text held all of ``graph.json`` while it wrote)."""
        if "nodes_json" in self.__dict__:
            return self.nodes_json
        return compact_json_for_html([node_record(n) for n in self.nodes])[1:-1]

    def edges_text(self) -> str:
        """``edges_json`` made anew, likewise."""
        if "edges_json" in self.__dict__:
            return self.edges_json
        return compact_json_for_html(
            [edge_record(e) for e in sorted(self.edges, key=_edge_order)])[1:-1]


class GraphBuilder:
    """Builds the graph of each compile, reusing the parts of unchanged documents."""

    def __init__(self) -> None:
        self._parts: dict[str, DocPart] = {}

    def build(self, compiled: Linked, mentions: Mapping[SrcPath, MentionPart]) -> Graph:
        """The graph of ``compiled``; ``mentions``: each note's entity part."""
        parts: dict[str, DocPart] = {}
        seen: set[str] = set()
        duplicates = False
        for path, doc in compiled.published.items():  # sorted by path
            if doc.bid in seen:
                # a bid written twice (``duplicate-id``): the id is one node, the
                # first note's by path, as links by bid go to it
                duplicates = True
                continue
            seen.add(doc.bid)
            links = compiled.links.get(path)
            part = self._parts.get(path)
            ents = mentions.get(path, ())
            if part is None or part.doc is not doc or part.links is not links or (
                    part.entities != ents):
                part = _document_part(doc, links, ents, compiled.documents,
                                      compiled.options)
            parts[path] = part
        self._parts = parts
        if duplicates:
            parts = _without_dangling_edges(parts, compiled.networks)
        graph = Graph()
        for network in compiled.networks.values():
            graph.add(Node(network.bid, "Network", network.title, path=network.path))
        edges: list[Edge] = []
        for part in parts.values():
            for node in part.nodes:
                graph.add(node)
            for node in part.shared:
                graph.add(node)
            edges.extend(part.edges)
        return Graph(graph.nodes, edges).frozen([parts[p] for p in sorted(parts)])


def _without_dangling_edges(parts: dict[str, DocPart], networks: Mapping[str, Network]
                            ) -> dict[str, DocPart]:
    """The parts with no edge to a node that a duplicate bid left out (a section or
    block of the note that lost its id).  New parts, not the kept ones: the next
    build, with the duplicate gone, must see every edge again."""
    nodes = {n.bid for part in parts.values() for n in (*part.nodes, *part.shared)}
    nodes |= {network.bid for network in networks.values()}
    out = {}
    for path, part in parts.items():
        if all(e.target in nodes for e in part.edges):
            out[path] = part
            continue
        out[path] = DocPart(part.doc, part.links, part.nodes, part.shared,
                            tuple(e for e in part.edges if e.target in nodes))
    return out


def _json_value(value: Any) -> Any:
    """A frontmatter value as the graph keeps it: JSON, read-only all the way down."""
    if type(value) is str or type(value) is int or value is None:  # most values: as they are
        return value
    if type(value) is tuple and all(type(v) is str for v in value):  # tags, aliases...
        return value
    return freeze(jsonable(value))


def _document_part(doc: Document, links: tuple[ResolvedLink, ...] | None, ents: MentionPart,
                   documents: Mapping[SrcPath, Document], options: CompileOptions) -> DocPart:
    """``doc``'s nodes and edges (``documents``: its links' targets by path)."""
    nodes: list[Node] = []
    shared: list[Node] = []
    edges: list[Edge] = []
    props = {k: _json_value(v) for k, v in doc.meta.items() if k not in _OWN_FIELDS}
    if doc.parsed.inline_fields:  # the frontmatter wins a clash (graph/inline_properties.py)
        taken = {str(k).lower() for k in doc.meta} | _OWN_FIELDS
        props.update((k, freeze(v)) for k, v in
                     inline_properties(doc.parsed.inline_fields, taken).items())
    nodes.append(Node(doc.bid, "Document", doc.title, doc.schema, doc.path, doc.url,
                           doc.tags, doc.aliases, FrozenDict(props)))
    edges.append(Edge(doc.bid, doc.network.bid, "child_of", WeightKind.SUBSECTION,
                           doc.path, 1))
    for section in doc.sections:
        bid = section_bid(doc.bid, section.anchor)
        nodes.append(Node(bid, "Section", section.text, None, doc.path,
                               f"{doc.url}#{section.anchor}"))
        parent = section_bid(doc.bid, section.parent) if section.parent else doc.bid
        edges.append(Edge(bid, parent, "child_of", WeightKind.SUBSECTION, doc.path,
                               section.line))
    for block_id, block in sorted(doc.blocks.items()):
        bid = provisional_bid(doc.bid, "^" + block_id)
        nodes.append(Node(bid, "Block", f"^{block_id}", None, doc.path,
                               f"{doc.url}#^{block_id}"))
        holder = section_of_line(doc, block.line)
        parent = section_bid(doc.bid, holder.anchor) if holder else doc.bid
        edges.append(Edge(bid, parent, "child_of", WeightKind.SUBSECTION, doc.path,
                               block.line))
    for tag in doc.tags:
        tag_node = _tag_node(tag, options.tags_page, options.use_directory_urls)
        shared.append(tag_node)
        edges.append(Edge(doc.bid, tag_node.bid, "tagged", WeightKind.PRAGMATIC, doc.path, 1))
    for resolution in links or ():
        _add_link(shared, edges, documents, doc, resolution)
    for node, edge in ents:
        shared.append(node)
        edges.append(edge)
    return DocPart(doc, links, tuple(nodes), tuple(shared), tuple(edges), entities=ents)


@functools.lru_cache(maxsize=8192)
def _tag_node(tag: str, tags_page: str, use_directory_urls: bool) -> Node:
    """A tag's node, the same for every note carrying it (made once: 20,000
    ``gen_vault.py`` notes carry 85,000 tags)."""
    src = tag_page_src(tags_page, tag)
    url = url_for_src(src, use_directory_urls) if src is not None else None
    return Node(provisional_bid("tag", tag.lower()), "Tag", f"#{tag}", url=url)


def _add_link(shared: list[Node], edges: list[Edge], documents: Mapping[SrcPath, Document],
              doc: Document, resolution: ResolvedLink) -> None:
    link = resolution.link
    weight = WeightKind.PRAGMATIC if link.form == "meta" else WeightKind.EPISTEMIC
    if resolution.status == "external":
        target = provisional_bid("external", link.target)
        shared.append(Node(target, "External", link.target, url=link.target))
    elif resolution.status != "ok" or resolution.target is None:
        return
    elif resolution.is_asset:
        target = provisional_bid("asset", resolution.target)
        shared.append(Node(target, "Asset", posixpath.basename(resolution.target),
                                path=resolution.target, url=asset_url(resolution.target)))
    else:
        target_doc = documents[resolution.target]
        target = target_doc.bid
        if resolution.anchor and resolution.anchor.startswith("^"):
            target = provisional_bid(target_doc.bid, resolution.anchor)
        elif resolution.anchor:
            target = section_bid(target_doc.bid, resolution.anchor)
    auto = link.display is None and link.form != "autolink"
    edges.append(Edge(doc.bid, target, link.relation, weight, doc.path, link.line,
                           None if auto else link.display, auto))


def _edge_order(e: Edge) -> tuple[int, str, str, str]:
    return (e.line or 0, e.type, e.source, e.target)


def node_record(n: Node) -> dict[str, Any]:
    """One node of graph.json (the documented schema)."""
    return {
        "aliases": list(n.aliases),
        "folder": posixpath.dirname(n.path) if n.path else None,
        "id": n.bid,
        "kind": n.kind,
        "path": n.path,
        "schema": n.schema,
        "tags": list(n.tags),
        "title": n.title,
        "url": n.url,
    }


def edge_record(e: Edge) -> dict[str, Any]:
    """One edge of graph.json (the documented schema)."""
    return {
        "auto_title": e.auto_title,
        "display": e.display,
        "file": e.file,
        "line": e.line,
        "source": e.source,
        "target": e.target,
        "type": e.type,
        "weight_kind": e.weight_kind.value,
    }


def _node_json(n: Node) -> str:
    return compact_json_for_html(node_record(n))

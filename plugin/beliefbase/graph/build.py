"""``Compiled`` -> ``Graph``: one node per published thing, one edge per relation.

Drafts contribute nothing: no node, no edge, not even a target of a link
(links to drafts are unresolved links).
"""

from __future__ import annotations

import posixpath

from ..builder.compiled import Compiled
from ..builder.documents import Document, section_bid, section_of_line
from ..builder.resolve import ResolvedLink
from ..builder.wikitext import link_text
from ..codecs.frontmatter import jsonable
from ..ids import asset_url, provisional_bid
from .model import Edge, Graph, Node, WeightKind

#: Frontmatter keys the graph shows as node fields rather than properties.
_OWN_FIELDS = {"title", "tags", "tag", "aliases", "alias", "schema", "bid", "draft", "publish"}


def build_graph(compiled: Compiled) -> Graph:
    graph = Graph()
    docs = compiled.published
    for network in compiled.networks.values():
        graph.add(Node(network.bid, "Network", network.title, path=network.path))
    for doc in docs.values():
        _add_document(graph, doc)
    for path, links in compiled.links.items():
        doc = docs[path]
        for rl in links:
            _add_link(graph, compiled, doc, rl)
    return graph


def _add_document(graph: Graph, doc: Document) -> None:
    props = {k: jsonable(v) for k, v in doc.meta.items() if k not in _OWN_FIELDS}
    graph.add(Node(doc.bid, "Document", doc.title, doc.schema, doc.path, doc.url, doc.tags,
                   doc.aliases, props))
    graph.link(Edge(doc.bid, doc.network.bid, "child_of", WeightKind.SUBSECTION, doc.path, 1))
    for section in doc.sections:
        bid = section_bid(doc.bid, section.anchor)
        graph.add(Node(bid, "Section", section.text, None, doc.path,
                       f"{doc.url}#{section.anchor}"))
        parent = section_bid(doc.bid, section.parent) if section.parent else doc.bid
        graph.link(Edge(bid, parent, "child_of", WeightKind.SUBSECTION, doc.path,
                        section.line))
    for block_id, block in sorted(doc.blocks.items()):
        bid = provisional_bid(doc.bid, "^" + block_id)
        graph.add(Node(bid, "Block", f"^{block_id}", None, doc.path, f"{doc.url}#^{block_id}"))
        holder = section_of_line(doc, block.line)
        parent = section_bid(doc.bid, holder.anchor) if holder else doc.bid
        graph.link(Edge(bid, parent, "child_of",
                        WeightKind.SUBSECTION, doc.path, block.line))
    for tag in doc.tags:
        tag_bid = provisional_bid("tag", tag.lower())
        graph.add(Node(tag_bid, "Tag", f"#{tag}"))
        graph.link(Edge(doc.bid, tag_bid, "tagged", WeightKind.PRAGMATIC, doc.path, 1))


def _add_link(graph: Graph, compiled: Compiled, doc: Document, rl: ResolvedLink) -> None:
    link = rl.link
    weight = WeightKind.PRAGMATIC if link.form == "meta" else WeightKind.EPISTEMIC
    if rl.status == "external":
        bid = provisional_bid("external", link.target)
        graph.add(Node(bid, "External", link.target, url=link.target))
        target = bid
    elif rl.status != "ok" or rl.target is None:
        return
    elif rl.is_asset:
        target = provisional_bid("asset", rl.target)
        graph.add(Node(target, "Asset", posixpath.basename(rl.target), path=rl.target,
                       url=asset_url(rl.target)))
    else:
        target_doc = compiled.documents[rl.target]
        target = target_doc.bid
        if rl.anchor and rl.anchor.startswith("^"):
            target = provisional_bid(target_doc.bid, rl.anchor)
        elif rl.anchor:
            target = section_bid(target_doc.bid, rl.anchor)
    display = link_text(rl, compiled.documents) if rl.status == "ok" else link.target
    graph.link(Edge(doc.bid, target, link.relation, weight, doc.path, link.line, display,
                    link.display is None and link.form != "autolink"))

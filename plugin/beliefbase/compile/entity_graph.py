"""Entities in the graph (SPEC §7): an ``Entity`` node per entity (its type as the
node's ``schema``), a ``mentions`` edge from a document to each entity it mentions
(one per mention, with its line).

``entity_parts(index, documents, options)`` gives, per note, the (node, edge) pairs its graph
part adds; the compile hands them to the ``GraphBuilder``, which compares them to
reuse a part whose mentions did not change (an entity tagged elsewhere adds auto
mentions to unchanged notes).  A compile stage between two others (entities,
graph): neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..builder import CompileOptions
from ..builder.documents import Document
from ..entities.index import EntityIndex
from ..entities.source import entity_url
from ..frozen import FrozenDict
from ..graph.build import MentionPart
from ..graph.model import Edge, Node, WeightKind
from ..ids import SrcPath, provisional_bid


def entity_bid(key: str) -> str:
    """The BID of an entity's node: derived from its key, stable across builds."""
    return provisional_bid("entity", key)


def entity_parts(index: EntityIndex, documents: Mapping[SrcPath, Document],
                 options: CompileOptions) -> dict[SrcPath, MentionPart]:
    """Per note of ``documents``, the Entity nodes and ``mentions`` edges of its
    mentions (from the note's node)."""
    if not index:
        return {}
    out: dict[SrcPath, list[tuple[Node, Edge]]] = {}
    for entity in index.entities.values():
        bid = entity_bid(entity.key)
        node = Node(bid, "Entity", entity.name, entity.type, url=entity_url(options, entity.slug),
                    aliases=tuple(entity.aliases), properties=FrozenDict({"type": entity.type}))
        for m in entity.mentions:
            doc = documents.get(m.path)
            if doc is None:
                continue
            edge = Edge(doc.bid, bid, "mentions", WeightKind.EPISTEMIC, m.path, m.line,
                        m.name if m.name != entity.name else None)
            out.setdefault(m.path, []).append((node, edge))
    return {path: tuple(pairs) for path, pairs in out.items()}

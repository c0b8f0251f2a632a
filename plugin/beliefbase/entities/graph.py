"""Entities in the graph (SPEC §7): an ``Entity`` node per entity (its type as the
node's ``schema``), a ``mentions`` edge from a document to each entity it mentions
(one per mention, with its line).

``entity_parts(compiled)`` gives, per note, the (node, edge) pairs its graph part
adds; the ``GraphBuilder`` compares them to reuse a part whose mentions did not
change (an entity tagged elsewhere adds auto mentions to unchanged notes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..frozen import FrozenDict
from ..graph.model import Edge, Node, WeightKind
from ..ids import SrcPath, provisional_bid
from .source import compile_entities, entity_url

if TYPE_CHECKING:
    from ..builder import Compiled

MentionPart = tuple[tuple[Node, Edge], ...]


def entity_bid(key: str) -> str:
    """The BID of an entity's node: derived from its key, stable across builds."""
    return provisional_bid("entity", key)


def entity_parts(compiled: Compiled) -> dict[SrcPath, MentionPart]:
    """Per note, the Entity nodes and ``mentions`` edges of its mentions."""
    index, _found = compile_entities(compiled)
    if not index:
        return {}
    out: dict[SrcPath, list[tuple[Node, Edge]]] = {}
    for entity in index.entities.values():
        bid = entity_bid(entity.key)
        node = Node(bid, "Entity", entity.name, entity.type, url=entity_url(compiled, entity.slug),
                    aliases=tuple(entity.aliases), properties=FrozenDict({"type": entity.type}))
        for m in entity.mentions:
            doc = compiled.documents.get(m.path)
            if doc is None:
                continue
            edge = Edge(doc.bid, bid, "mentions", WeightKind.EPISTEMIC, m.path, m.line,
                        m.name if m.name != entity.name else None)
            out.setdefault(m.path, []).append((node, edge))
    return {path: tuple(pairs) for path, pairs in out.items()}

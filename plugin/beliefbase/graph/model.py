"""The typed graph (SPEC §5.4): nodes of ten kinds, edges of three WeightKinds.

* ``Subsection`` – structure, edge type ``child_of`` (child -> parent):
  document -> network, section -> section/document, block -> section/document.
* ``Epistemic``  – links in prose: ``links_to``, ``embeds``, inline fields.
* ``Pragmatic``  – relations in metadata: frontmatter relation fields,
  ``tagged``.

Edges carry their payload: type, file, line, display text and whether the
link is auto-titled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any

from ..frozen import FrozenDict, empty


class WeightKind(StrEnum):
    SUBSECTION = "Subsection"
    EPISTEMIC = "Epistemic"
    PRAGMATIC = "Pragmatic"


@dataclass(frozen=True, slots=True)
class Node:
    bid: str
    kind: str
    title: str
    schema: str | None = None
    path: str | None = None  # file path relative to docs_dir
    url: str | None = None  # site-relative URL (with #anchor for sections/blocks)
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    #: a document's frontmatter fields (JSON values), read-only all the way down
    #: (``frozen.freeze``: the builders hand in frozen ones)
    properties: dict[str, Any] = field(default_factory=empty)

    def __reduce__(self) -> tuple[type[Node], tuple[Any, ...]]:
        return (Node, _node_fields(self))


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    type: str
    weight_kind: WeightKind
    file: str | None = None  # path relative to docs_dir of the file that states it
    line: int | None = None
    display: str | None = None
    auto_title: bool = False

    def __reduce__(self) -> tuple[Callable[..., Edge], tuple[Any, ...]]:
        return (Edge, _edge_fields(self))


# Pickled as their fields in order, rebuilt by the constructor: the dataclass default
# for slotted classes calls ``fields()`` for every object both ways (a 5,000-note
# graph's snapshot: 2.3 s to write, 3 s to read, most of it there).
_node_fields = attrgetter(*(f.name for f in fields(Node)))
_edge_fields = attrgetter(*(f.name for f in fields(Edge)))


@dataclass(frozen=True, slots=True)
class Graph:
    """Nodes by BID and edges.  Made with ``add`` and ``link``, then ``frozen()``: the
    graph of a ``Compiled`` (``GraphBuilder.build``) refuses both."""

    nodes: dict[str, Node] = field(default_factory=dict)  # a FrozenDict once frozen
    edges: Sequence[Edge] = field(default_factory=list)  # a tuple once frozen
    parts: Sequence[Any] = ()  # build.DocPart per document, by path

    def add(self, node: Node) -> Node:
        """Add ``node`` unless a node with its BID exists; return the stored one."""
        return self.nodes.setdefault(node.bid, node)

    def link(self, edge: Edge) -> None:
        if not isinstance(self.edges, list):
            raise TypeError("a frozen graph is read-only: make a new one instead")
        self.edges.append(edge)

    def frozen(self, parts: Sequence[Any] = ()) -> Graph:
        """This graph, read-only from now on (with ``parts``)."""
        return Graph(FrozenDict(self.nodes), tuple(self.edges), tuple(parts))

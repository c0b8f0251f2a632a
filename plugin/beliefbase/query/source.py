"""Where the query layer gets the graph of a compile: one function, so that the
day ``Compiled`` carries its own graph only this line changes."""

from __future__ import annotations

from ..builder.compiled import Compiled
from ..graph.build import build_graph
from ..graph.model import Graph


def graph_of(compiled: Compiled) -> Graph:
    """The graph of ``compiled`` (published notes only: drafts contribute nothing)."""
    return build_graph(compiled)

"""Where the query layer gets the graph of a compile: the one the compile built."""

from __future__ import annotations

from ..builder.compiled import Compiled
from ..graph.build import build_graph
from ..graph.model import Graph


def graph_of(compiled: Compiled) -> Graph:
    """The graph of ``compiled`` (published notes only: drafts contribute nothing)."""
    return compiled.graph if compiled.graph is not None else build_graph(compiled)

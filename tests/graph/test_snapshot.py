"""The graph snapshot ``check --events`` compares with (``graph/events.py``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from beliefbase.frozen import FrozenDict
from beliefbase.graph.events import SNAPSHOT_FILE, diff_graphs, load_snapshot, save_snapshot
from beliefbase.graph.model import Edge, Graph, Node, WeightKind

NODES = (
    Node("d1", "document", "Home"),
    Node("d2", "document", "Über uns", schema="person", path="a/b.md", url="a/b/",
         tags=("x", "y/z"), aliases=("About",),
         properties=FrozenDict({"n": 1, "list": (1, "two"), "nested": FrozenDict({"k": None})})),
)
EDGES = (
    Edge("d1", "d2", "links_to", WeightKind.EPISTEMIC),
    Edge("d2", "d1", "child_of", WeightKind.SUBSECTION, file="a/b.md", line=3,
         display="back", auto_title=True),
)


@pytest.mark.parametrize("record", NODES + EDGES)
def test_a_record_pickles_to_an_equal_one(record: Node | Edge) -> None:
    again = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == record and type(again) is type(record)
    if isinstance(record, Node):
        assert isinstance(again.properties, FrozenDict)
    else:
        assert type(again.weight_kind) is WeightKind


def test_the_snapshot_keeps_nodes_and_edges_not_the_compile(tmp_path: Path) -> None:
    graph = Graph({n.bid: n for n in NODES}, list(EDGES)).frozen(parts=("a part",) * 3)
    save_snapshot(tmp_path, graph)
    kept = load_snapshot(tmp_path)
    assert kept is not None
    assert kept.nodes == graph.nodes and tuple(kept.edges) == tuple(graph.edges)
    assert kept.parts == ()  # a document's part holds its whole compile
    assert diff_graphs(kept, graph) == []


def test_an_old_snapshot_is_compared_with_nothing(tmp_path: Path) -> None:
    graph = Graph({n.bid: n for n in NODES}, list(EDGES)).frozen()
    with (tmp_path / SNAPSHOT_FILE).open("wb") as fh:
        pickle.dump(("beliefbase-graph-snapshot/2", graph), fh)
    assert load_snapshot(tmp_path) is None

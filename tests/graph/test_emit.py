"""graph.json written in pieces: a one-off build keeps none of them."""

from __future__ import annotations

import json

from beliefbase.graph.emit import graph_json_chunks

from tests.conftest import Project


def test_pieces_kept_or_streamed_give_the_same_text(project: Project) -> None:
    project.write("a.md", "# A\n\nSee [[b]] and [[b#Part]]. #tag\n")
    project.write("b.md", "# B\n\n## Part\n\nBack to [[a]].\n")
    graph = project.compile().graph
    assert graph is not None
    streamed = "".join(graph_json_chunks(graph, keep=False))
    # a one-off build: the parts kept no text (serve keeps it, to compare rebuilds)
    assert all("nodes_json" not in vars(p) and "edges_json" not in vars(p)
               for p in graph.parts)
    kept = graph_json_chunks(graph)
    assert isinstance(kept, list) and "".join(kept) == streamed
    assert all("nodes_json" in vars(p) for p in graph.parts if p.nodes)
    # made again from what the parts kept: the same text
    assert "".join(graph_json_chunks(graph, keep=False)) == streamed
    data = json.loads(streamed)
    assert {n["title"] for n in data["nodes"] if n["kind"] == "Document"} == {"A", "B"}

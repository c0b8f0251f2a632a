"""The reader's parts of the built pages: graph page, aliases, panels, options."""

from __future__ import annotations

from typing import Any

from tests.conftest import BuildResult


def test_graph_page(built: BuildResult) -> None:
    html = built.page("graph/")
    assert 'data-bb-graph data-mode="full"' in html
    assert 'data-graph-url="../_beliefbase/graph-view.json"' in html
    assert 'data-search-index-url="../_beliefbase/search-index.json"' in html
    assert 'data-lunr-url="../_beliefbase/lunr.js"' in html
    assert '<script type="module" async src="../_beliefbase/graph/graph.js">' in html
    assert "<title>Graph" in html
    assert "md-sidebar--primary" not in html or 'data-md-component="sidebar"' in html
    for name in ("graph.js", "model.js", "scene-worker.js", "graph.css"):
        assert (built.site / "_beliefbase" / "graph" / name).is_file()
    assert (built.site / "_beliefbase" / "lunr.js").is_file()


def test_aliases_line_under_the_title(built: BuildResult) -> None:
    html = built.article("notes/alpha/")
    h1 = html.index("</h1>")
    line = html.index('<p class="bb-aliases">')
    assert h1 < line < html.index("Alpha is the first note")
    assert '<span class="bb-aliases__name">First Letter</span>' in html
    hostile = built.article("notes/hostile/")
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in hostile
    assert "<script>alert(2)" not in hostile


def test_panels_order_and_local_graph(built: BuildResult) -> None:
    html = built.article("notes/beta/")
    backlinks = html.index("bb-backlinks")
    local = html.index("bb-local-graph")
    mentions = html.index("bb-mentions")
    assert backlinks < local < mentions
    assert 'data-node-id="' in html and 'data-graph-url="../../_beliefbase/graph-view.json"' in html


def test_options_turn_parts_off_and_move_the_graph_page(kb: Any) -> None:
    result = kb.build(plugins=["search", {"beliefbase": {"local_graph": False,
                                                         "graph_page": "map/"}}])
    assert result.error is None
    assert "bb-local-graph" not in result.article("notes/beta/")
    assert 'data-mode="full"' in result.page("map/")
    assert not (result.site / "graph").exists()


def test_a_note_at_the_graph_url_keeps_it(kb: Any) -> None:
    kb.write("graph.md", "# My graph note\n\nMine.\n")
    result = kb.build()
    assert "My graph note" in result.page("graph/")
    assert any("page-conflict" in line and "graph.md" in line for line in result.lines)

"""Canvas pages, embeds and links (issue 28, item 6; codecs/canvas.py, site/canvas.py)."""

from __future__ import annotations

import json
import re

from tests.conftest import Project, diagnostic_lines

BOARD = {
    "nodes": [
        {"id": "g", "type": "group", "x": -40, "y": -60, "width": 760, "height": 380,
         "label": "Research <i>", "color": "4"},
        {"id": "t", "type": "text", "x": 0, "y": 0, "width": 300, "height": 160,
         "text": "# Idea\n\nSee [[Alpha]] and $E = mc^2$.\n\n<script>alert(1)</script>",
         "color": "1"},
        {"id": "f", "type": "file", "x": 380, "y": 0, "width": 300, "height": 240,
         "file": "Alpha.md"},
        {"id": "s", "type": "file", "x": 380, "y": 420, "width": 300, "height": 120,
         "file": "notes/Beta.md", "subpath": "#Part two", "color": "#3366ff"},
        {"id": "l", "type": "link", "x": 0, "y": 420, "width": 300, "height": 80,
         "url": "https://jsoncanvas.org/"},
        {"id": "i", "type": "file", "x": 800, "y": 0, "width": 200, "height": 150,
         "file": "img/dot.png"},
    ],
    "edges": [
        {"id": "e1", "fromNode": "t", "fromSide": "right", "toNode": "f", "toSide": "left",
         "label": "<b>explains</b>"},
        {"id": "e2", "fromNode": "f", "toNode": "s", "fromEnd": "arrow", "color": "6"},
    ],
}


def _vault(project: Project) -> None:
    project.write("Board.canvas", json.dumps(BOARD, indent=2))
    project.write("Alpha.md", "# Alpha\n\nAlpha text.\n")
    project.write("notes/Beta.md", "# Beta\n\nIntro.\n\n## Part two\n\nSecond part.\n")
    project.write("img/dot.png", b"\x89PNG\r\n\x1a\n")
    project.write("index.md", "# Home\n\n![[Board.canvas]]\n\nSee [[Board.canvas]].\n")


def test_a_canvas_is_a_page_at_its_path(project: Project) -> None:
    _vault(project)
    result = project.build(strict=True)
    assert result.error is None, result.lines
    page = result.page("Board.canvas/")
    assert "<title>Board" in page
    assert 'data-bb-canvas data-width="1160"' in page
    # text node: Markdown with a resolved wikilink and math, its HTML escaped
    assert '<a class="bb-link" data-bb-target=' in page and 'href="../Alpha/"' in page
    assert "<math" in page
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    # file nodes: the note, the section, the image
    assert "Alpha text." in page
    assert "Second part." in page and "Intro." not in page
    assert 'src="../img/dot.png"' in page
    # link node, group label, edge label, colours: all escaped
    assert 'href="https://jsoncanvas.org/"' in page
    assert "Research &lt;i&gt;" in page and "&lt;b&gt;explains&lt;/b&gt;" in page
    assert 'data-color="1"' in page and "--bb-canvas-color: #3366ff" in page
    assert page.count("<polygon") == 3  # e1 has an arrow at its end, e2 at both ends
    # the raw JSON is not published next to the page
    assert not (result.site / "Board.canvas").is_file()


def test_embed_and_link(project: Project) -> None:
    _vault(project)
    home = project.build().page("")
    assert 'class="bb-canvas bb-canvas--embedded"' in home
    assert '<a class="bb-canvas__open" href="Board.canvas/">Board</a>' in home
    assert "Alpha text." in home
    assert re.search(r'<a class="bb-link"[^>]*href="Board.canvas/">Board</a>', home)


def test_the_graph_and_backlinks_know_its_links(project: Project) -> None:
    _vault(project)
    result = project.build()
    for url in ("Alpha/", "notes/Beta/"):
        assert 'href="../Board.canvas/"' in result.page(url).split("bb-backlinks", 1)[1] or \
            'href="../../Board.canvas/"' in result.page(url).split("bb-backlinks", 1)[1]
    graph = json.loads((result.site / "_beliefbase" / "graph.json").read_text("utf-8"))
    board = next(n for n in graph["nodes"] if n.get("url") == "Board.canvas/")
    alpha = next(n for n in graph["nodes"] if n.get("url") == "Alpha/")
    edges = graph.get("edges", graph.get("links"))
    assert any(e["source"] == board["id"] and e["target"] == alpha["id"] for e in edges)


def test_a_note_and_a_canvas_of_the_same_name(project: Project) -> None:
    _vault(project)
    project.write("Board.md", "# Board note\n\n[[Board]] is this note.\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    assert "Board note" in result.page("Board/")
    assert "data-bb-canvas" in result.page("Board.canvas/")


def test_a_malformed_canvas_is_a_diagnostic_and_a_page_that_says_so(project: Project) -> None:
    project.write("index.md", "# Home\n")
    project.write("Broken.canvas", '{\n  "nodes": [\n    {"id": }\n')
    project.write("Half.canvas", json.dumps({"nodes": [
        {"id": "a", "type": "text", "x": 0, "y": 0, "width": 10, "height": 10, "text": "ok"},
        {"id": "b", "type": "text", "x": "far", "y": 0, "width": 10, "height": 10}],
        "edges": []}, indent=2))
    result = project.build()
    assert diagnostic_lines(result, "bad-canvas") == [
        "WARNING docs/Broken.canvas:3:12: bad-canvas: not valid JSON: Expecting value",
        'WARNING docs/Half.canvas:13:1: bad-canvas: node left out: "x" is "far", not a '
        "number from -1000000 to 1000000",
    ]
    assert "This canvas cannot be shown." in result.page("Broken.canvas/")
    half = result.page("Half.canvas/")
    assert "1 part of this canvas could not be read" in half and ">ok</p>" in half
    assert project.build(strict=True).error is not None


def test_a_canvas_embedding_itself_stops(project: Project) -> None:
    project.write("index.md", "# Home\n")
    project.write("Loop.canvas", json.dumps({"nodes": [
        {"id": "a", "type": "text", "x": 0, "y": 0, "width": 10, "height": 10,
         "text": "![[Loop.canvas]]"},
        {"id": "b", "type": "file", "x": 0, "y": 50, "width": 10, "height": 10,
         "file": "Loop.canvas"}]}))
    page = project.build().page("Loop.canvas/")
    assert page.count("data-bb-canvas ") == 1


def test_serve_dirty_follows_a_board_and_the_notes_it_shows(project: Project) -> None:
    import time

    _vault(project)
    first = project.build(dirty=True)
    assert first.error is None and "Alpha text." in first.page("Board.canvas/")
    time.sleep(0.05)
    project.write("Alpha.md", "# Alpha\n\nAlpha changed.\n")
    second = project.build(dirty=True)
    assert "Alpha changed." in second.page("Board.canvas/")
    board = dict(BOARD, nodes=[*BOARD["nodes"][:1],
                               dict(BOARD["nodes"][1], text="Rewritten [[Alpha]]"),
                               *BOARD["nodes"][2:]])
    project.write("Board.canvas", json.dumps(board, indent=2))
    third = project.build(dirty=True)
    assert "Rewritten" in third.page("Board.canvas/")
    assert "Rewritten" in third.page("")  # the note that embeds it


def test_without_directory_urls(project: Project) -> None:
    _vault(project)
    result = project.build(use_directory_urls=False)
    assert result.error is None, result.lines
    page = (result.site / "Board.canvas.html").read_text("utf-8")
    assert "data-bb-canvas" in page and 'href="Alpha.html"' in page
    home = (result.site / "index.html").read_text("utf-8")
    assert 'href="Board.canvas.html"' in home


HOSTILE_TEXTS = [
    "<script>alert(1)</script>",
    "```\n<script>alert(1)</script>",  # a fence that never closes
    "`x <script>alert(1)</script>",  # a code span that never closes
    "a <!-- b\n\n<script>alert(1)</script>",  # a comment that never closes
    "<img src=x onerror=alert(1)>",
    "</div></div></figure><script>alert(1)</script>",
    "[[x|<script>alert(1)</script>]]",
    "$x$ <svg onload=alert(1)>",
]


def test_no_html_of_a_text_node_acts_on_the_page(project: Project) -> None:
    project.write("index.md", "# Home\n")
    nodes = [{"id": f"n{i}", "type": "text", "x": i * 200, "y": 0, "width": 150,
              "height": 100, "text": text} for i, text in enumerate(HOSTILE_TEXTS)]
    project.write("H.canvas", json.dumps({"nodes": nodes, "edges": []}))
    page = project.build().page("H.canvas/")
    board = page[page.index("<figure"):page.index("</figure>")]
    assert "<script" not in board and "<img src=x" not in board and "<svg onload" not in board
    assert "</div></div></figure>" not in board
    assert board.count("bb-canvas__node--text") == len(HOSTILE_TEXTS)


def _properties_board(project: Project) -> None:
    board = {"nodes": [
        {"id": "a", "type": "file", "x": 0, "y": 0, "width": 300, "height": 200,
         "file": "Film.md"},
        {"id": "b", "type": "file", "x": 400, "y": 0, "width": 300, "height": 200,
         "file": "Quiet.md"},
    ], "edges": []}
    project.write("Board.canvas", json.dumps(board))
    project.write("Film.md", "---\nrating: 8.8\n---\n# Film\n\nFilm text.\n")
    project.write("Quiet.md", "---\nproperties: false\nmood: calm\n---\n# Quiet\n\nQuiet text.\n")
    project.write("index.md", "# Home\n\n![[Board.canvas]]\n")


def test_a_file_node_shows_the_properties_block_as_the_note_page_does(
        project: Project) -> None:
    _properties_board(project)
    result = project.build(strict=True)
    assert result.error is None, result.lines
    for page in (result.page("Board.canvas/"), result.page("")):
        # the note's block, inside the embed under its title; none for the quiet note
        film = page[page.index("Film text.") - 3000:page.index("Film text.")]
        assert film.count('class="bb-properties') >= 1 and "rating" in film
        assert "8.8" in film
        assert "mood" not in page and "calm" not in page
        assert "Quiet text." in page
    # the note's own pages agree
    assert "rating" in result.page("Film/") and "mood" not in result.page("Quiet/")


def test_a_file_node_shows_no_properties_block_when_the_site_shows_none(
        project: Project) -> None:
    _properties_board(project)
    result = project.build(strict=True, plugins=["search", {"beliefbase": {"properties": False}}])
    assert result.error is None, result.lines
    for page in (result.page("Board.canvas/"), result.page(""), result.page("Film/")):
        assert "Film text." in page or "Film" in page
        assert "bb-properties" not in page and "rating" not in page
    assert "Film text." in result.page("Board.canvas/")


def test_a_board_with_a_heading_in_a_node_keeps_the_page_title(project: Project) -> None:
    """Material prints the page's title only when the page holds no ``<h1>``: a text
    node's ``# Idea`` (or a file node's note with an H1) must not take its place."""
    _vault(project)
    project.write("Top.canvas", json.dumps({"nodes": [
        {"id": "t", "type": "text", "x": 0, "y": 0, "width": 200, "height": 100,
         "text": "# Idea\n\nText."}], "edges": []}))
    result = project.build(strict=True)
    assert result.error is None, result.lines
    for url, title in (("Board.canvas/", "Board"), ("Top.canvas/", "Top")):
        article = result.article(url)
        first = re.search(r"<h1\b[^>]*>(.*?)</h1>", article)
        assert first is not None and first.group(1) == title, article[:600]

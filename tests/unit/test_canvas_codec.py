"""The JSON Canvas codec (codecs/canvas.py): what it keeps, what it reports, where."""

from __future__ import annotations

import json

import pytest
from beliefbase.codecs.canvas import MAX_COORD, parse_canvas, read_canvas
from beliefbase.ids import SrcPath
from hypothesis import given, settings
from hypothesis import strategies as st


def _canvas(nodes: list[object], edges: list[object] | None = None) -> str:
    return json.dumps({"nodes": nodes, "edges": edges or []}, indent=2)


def _text(node_id: str, text: str = "hi", **more: object) -> dict[str, object]:
    return {"id": node_id, "type": "text", "x": 0, "y": 0, "width": 100, "height": 50,
            "text": text, **more}


def test_reads_every_kind_of_node_and_edge() -> None:
    text = _canvas(
        [_text("t", "# Hi [[A]]", color="1"),
         {"id": "f", "type": "file", "x": 200, "y": -40, "width": 300, "height": 200,
          "file": "notes/A.md", "subpath": "#Part", "color": "#AbC"},
         {"id": "l", "type": "link", "x": 0, "y": 300, "width": 100, "height": 40,
          "url": "https://example.org"},
         {"id": "g", "type": "group", "x": -10, "y": -10, "width": 600, "height": 400,
          "label": "Group"}],
        [{"id": "e", "fromNode": "t", "fromSide": "right", "toNode": "f", "toSide": "left",
          "label": "why", "color": "4"},
         {"id": "e2", "fromNode": "f", "toNode": "l", "fromEnd": "arrow", "toEnd": "none"}])
    canvas, problems = read_canvas(text)
    assert problems == []
    assert [n.kind for n in canvas.nodes] == ["text", "file", "link", "group"]
    file_node = canvas.nodes[1]
    assert (file_node.file, file_node.subpath, file_node.color) == ("notes/A.md", "#Part",
                                                                   "#aabbcc")
    first, second = canvas.edges
    assert (first.from_side, first.to_side, first.from_end, first.to_end, first.label,
            first.color) == ("right", "left", "none", "arrow", "why", "4")
    assert (second.from_end, second.to_end, second.from_side) == ("arrow", "none", None)


def test_links_are_file_nodes_and_text_node_links_at_their_lines() -> None:
    text = _canvas([_text("t", "See [[Alpha]] and [b](Beta.md)"),
                    {"id": "f", "type": "file", "x": 0, "y": 0, "width": 9, "height": 9,
                     "file": "Gamma.md", "subpath": "#^block"}])
    parsed = parse_canvas(SrcPath("Board.canvas"), text.encode(), "docs/Board.canvas")
    assert parsed.kind == "canvas"
    found = [(link.form, link.target, link.fragment, link.line) for link in parsed.links]
    assert found == [("wikilink", "Alpha", "", 4), ("markdown", "Beta.md", "", 4),
                     ("embed", "Gamma.md", "^block", 13)]


@pytest.mark.parametrize(("text", "where", "words"), [
    ('{"nodes": [', (1, 12), "not valid JSON"),
    ("[1, 2]", (1, 1), "JSON object"),
    ('{"nodes": {"a": 1}}', (1, 1), '"nodes" is not a list'),
])
def test_unreadable_files_are_one_problem_each(text: str, where: tuple[int, int],
                                              words: str) -> None:
    canvas, problems = read_canvas(text)
    assert canvas.nodes == ()
    assert len(problems) == 1 and problems[0][:2] == where and words in problems[0][2]


def test_malformed_json_is_a_bad_canvas_diagnostic_at_its_line() -> None:
    parsed = parse_canvas(SrcPath("B.canvas"), b'{\n  "nodes": [\n    {"id": }\n', "docs/B.canvas")
    (d,) = parsed.diagnostics
    assert d.code == "bad-canvas" and (d.line, d.column) == (3, 12)
    assert parsed.links == ()


@pytest.mark.parametrize(("node", "words"), [
    ({"id": "n", "type": "text", "x": "1", "y": 0, "width": 1, "height": 1}, '"x" is "1"'),
    ({"id": "n", "type": "text", "x": True, "y": 0, "width": 1, "height": 1}, '"x" is true'),
    ({"id": "n", "type": "text", "x": 1e300, "y": 0, "width": 1, "height": 1}, '"x" is 1e+300'),
    ({"id": "n", "type": "text", "x": 0, "y": -MAX_COORD - 1, "width": 1, "height": 1}, '"y"'),
    ({"id": "n", "type": "text", "x": 0, "y": 0, "width": 0, "height": 1}, '"width" is 0'),
    ({"id": "n", "type": "text", "x": 0, "y": 0, "width": 1, "height": 1e9}, '"height"'),
    ({"id": "n", "type": "script", "x": 0, "y": 0, "width": 1, "height": 1}, '"type"'),
    ({"type": "text", "x": 0, "y": 0, "width": 1, "height": 1}, 'no "id"'),
    ({"id": "n", "type": "text", "x": 0, "y": 0, "width": 1, "height": 1, "text": ["a"]},
     '"text" is ["a"]'),
    ({"id": "n", "type": "file", "x": 0, "y": 0, "width": 1, "height": 1}, 'without "file"'),
    ("just a string", "not a JSON object"),
])
def test_bad_nodes_are_left_out_and_said(node: object, words: str) -> None:
    canvas, problems = read_canvas(_canvas([_text("ok"), node]))
    assert [n.id for n in canvas.nodes] == ["ok"]
    assert len(problems) == 1 and words in problems[0][2], problems
    assert problems[0][2].startswith("node left out: ")


def test_problem_lines_point_at_the_node() -> None:
    text = _canvas([_text("a"), _text("b", x="far")])
    (problem,) = read_canvas(text)[1]
    assert text.splitlines()[problem[0] - 1].strip() == '"id": "b",'


def test_bad_edges_and_bad_values() -> None:
    text = _canvas(
        [_text("a", color="red"), _text("b"), _text("a")],
        [{"id": "e1", "fromNode": "a", "toNode": "ghost"},
         {"id": "e2", "fromNode": "a", "toNode": "b", "fromSide": "middle", "toEnd": "big",
          "label": 5, "color": "7"},
         "nope"])
    canvas, problems = read_canvas(text)
    assert [n.id for n in canvas.nodes] == ["a", "b"]  # the second "a" is left out
    assert canvas.nodes[0].color is None
    (edge,) = canvas.edges
    assert (edge.from_side, edge.to_end, edge.label, edge.color) == (None, "arrow", "", None)
    messages = " | ".join(p[2] for p in problems)
    for words in ('color "red" ignored', 'second node with id', '"toNode" is "ghost"',
                  '"fromSide" "middle" ignored', '"toEnd" "big" ignored', '"label" 5',
                  'color "7" ignored', "edge left out: not a JSON object"):
        assert words in messages


def test_strings_are_kept_as_written_never_interpreted() -> None:
    canvas, problems = read_canvas(_canvas([_text("<b>", "<script>alert(1)</script>",
                                                  label="</div>")]))
    assert problems == []
    assert canvas.nodes[0].text == "<script>alert(1)</script>"  # the site escapes it
    assert canvas.nodes[0].id == "<b>"


def test_javascript_link_nodes_are_said() -> None:
    canvas, problems = read_canvas(_canvas([{"id": "l", "type": "link", "x": 0, "y": 0,
                                             "width": 1, "height": 1,
                                             "url": "javascript:alert(1)"}]))
    assert len(canvas.nodes) == 1 and "only http(s)" in problems[0][2]


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    canvas, problems = read_canvas("[" * 100_000 + "]" * 100_000)
    assert canvas.error is not None and problems


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(
                        ["id", "type", "x", "y", "width", "height", "nodes", "edges",
                         "text", "file", "fromNode", "toNode", "color", "label"]), inner,
                        max_size=8), max_leaves=30))
def test_any_json_reads_without_raising(value: object) -> None:
    text = json.dumps(value) if not isinstance(value, dict) else json.dumps(
        {"nodes": [value], "edges": [value]})
    canvas, problems = read_canvas(text)
    for node in canvas.nodes:
        assert abs(node.x) <= MAX_COORD and node.width >= 1
    parse_canvas(SrcPath("x.canvas"), text.encode(), "docs/x.canvas")


def test_text_node_html_is_shown_as_text_but_code_and_math_are_kept() -> None:
    from beliefbase.site.canvas import without_html

    assert without_html("<script>x</script> a<b") == "&lt;script>x&lt;/script> a&lt;b"
    assert without_html("`<b>` and $a<b$ and <https://e.org>") == (
        "`<b>` and $a<b$ and <https://e.org>")
    assert without_html("```\n<div>\n```\n<div>") == "```\n<div>\n```\n&lt;div>"
    # a comment that never closes is text too: it would hide the rest of the page
    assert without_html("a <!-- b <script>") == "a &lt;!-- b &lt;script>"
    assert without_html("<!-- c --> <i>") == "<!-- c --> &lt;i>"
    assert without_html("[[Note|a<b>]] <b>") == "[[Note|a<b>]] &lt;b>"
    # so is a fence that never closes: Python-Markdown reads it as a paragraph
    assert without_html("```\n<script>") == "```\n&lt;script>"
    assert without_html("~~~~\n<b>\n~~~~\n") == "~~~~\n<b>\n~~~~\n"


def test_a_board_of_ten_thousand_nodes_keeps_every_line() -> None:
    nodes = [_text(f"n{i}", x=i) for i in range(10_000)]
    nodes[-1]["x"] = "bad"
    edges = [{"id": f"e{i}", "fromNode": f"n{i}", "toNode": f"n{i + 1}"} for i in range(9_999)]
    text = _canvas(nodes, edges)
    canvas, problems = read_canvas(text)  # one pass over the text for every line
    assert len(canvas.nodes) == 9_999 and len(canvas.edges) == 9_998
    lines = text.splitlines()
    assert [lines[p[0] - 1].strip() for p in problems] == ['"id": "n9999",', '"id": "e9998",']

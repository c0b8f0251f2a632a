"""``beliefbase sync`` fixes a canvas's links to renamed notes: its file nodes and the
links in its text nodes, every other byte of the JSON as written (canvas_relink.py)."""

from __future__ import annotations

import json

from tests.cli.test_check import run

A = "0190f0a0-0000-7000-8000-00000000000a"

# Obsidian's own layout: tabs, one node per line, keys in its order, an unknown key
BOARD = (
    '{\n\t"nodes":[\n'
    '\t\t{"id":"f1","type":"file","file":"Folder/Old.md","subpath":"#Part",'
    '"x":0,"y":0,"width":400,"height":300,"styleAttributes":{"shape":"pill"}},\n'
    '\t\t{"id":"t1","type":"text","text":"# Plan\\n\\nSee [[Old]], [[Old|the \\"old\\" one]]'
    ' and ![[Folder/Old#Part]].\\n\\nAlso [x](Folder/Old.md) \\u00e9t\\u00e9 \\ud83d\\ude00 '
    '[[Other]].","x":500,"y":0,"width":300,"height":200,"color":"4"},\n'
    '\t\t{"id":"f2","type":"file","file":"Other.md","x":0,"y":400,"width":400,"height":300}\n'
    '\t],\n\t"edges":[\n'
    '\t\t{"id":"e1","fromNode":"t1","fromSide":"left","toNode":"f1","toSide":"right",'
    '"label":"[[Old]]"}\n\t]\n}')


def _vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Folder/Old.md", f"---\nbid: {A}\n---\n# Old note\n\n## Part\n\nText.\n")
    project.write("Other.md", "# Other\n")
    project.write("Board.canvas", BOARD.encode())
    project.write("index.md", "---\nbid: 0190f0a0-0000-7000-8000-00000000000b\n---\n# Home\n")
    assert run(project, "check").exit_code == 0  # records what each link means
    (project.docs / "Folder/Old.md").rename(project.docs / "New place.md")


def test_a_canvas_follows_a_renamed_note(project) -> None:  # type: ignore[no-untyped-def]
    _vault(project)
    check = run(project, "sync", "--check")
    assert check.exit_code == 1, check.stderr
    assert "docs/Board.canvas: would fix 5 links\n" in check.stdout
    assert (project.docs / "Board.canvas").read_text() == BOARD
    diff = run(project, "sync", "--diff")
    assert diff.exit_code == 1
    assert '+\t\t{"id":"f1","type":"file","file":"New place.md","subpath":"#Part",' in diff.stdout
    assert (project.docs / "Board.canvas").read_text() == BOARD
    result = run(project, "sync")
    assert result.exit_code == 0, result.stderr
    assert "docs/Board.canvas: fixed 5 links\n" in result.stdout
    # only the targets changed; the rest of each string keeps its escapes
    assert (project.docs / "Board.canvas").read_text() == (
        BOARD.replace('"file":"Folder/Old.md"', '"file":"New place.md"')
        .replace("[[Old]], [[Old|", "[[New place]], [[New place|")
        .replace("![[Folder/Old#Part]]", "![[New place#Part]]")
        .replace("[x](Folder/Old.md)", "[x](New%20place.md)"))
    data = json.loads((project.docs / "Board.canvas").read_text())
    assert data["edges"][0]["label"] == "[[Old]]"  # an edge label is no link
    assert data["nodes"][0]["styleAttributes"] == {"shape": "pill"}
    assert run(project, "sync", "--check").exit_code == 0  # idempotent
    assert "unresolved" not in run(project, "check").stdout


def test_an_ascii_canvas_stays_ascii(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Old.md", f"---\nbid: {A}\n---\nText.\n")
    board = {"nodes": [{"id": "f", "type": "file", "file": "Old.md", "x": 0, "y": 0,
                        "width": 1, "height": 1},
                       {"id": "t", "type": "text", "text": "caf\u00e9 [[Old]]", "x": 0,
                        "y": 9, "width": 1, "height": 1}], "edges": []}
    written = json.dumps(board, indent=2)  # Python's own: ASCII, \u escapes
    project.write("Board.canvas", written.encode())
    assert run(project, "check").exit_code == 0
    (project.docs / "Old.md").rename(project.docs / "Th\u00e9ta.md")
    assert run(project, "sync").exit_code == 0
    text = (project.docs / "Board.canvas").read_text()
    assert text == written.replace('"Old.md"', '"Th\\u00e9ta.md"').replace(
        "[[Old]]", "[[Th\\u00e9ta]]")


def test_a_canvas_edited_after_the_last_compile_is_fixed_as_it_is_now(project) -> None:  # type: ignore[no-untyped-def]
    _vault(project)
    (project.docs / "Board.canvas").write_text(BOARD + "\n")  # edited after the last compile
    result = run(project, "sync")
    # the command compiles first: the edit is seen, and the links are fixed in it
    assert result.exit_code == 0, result.stderr
    assert '"file":"New place.md"' in (project.docs / "Board.canvas").read_text()
    assert (project.docs / "Board.canvas").read_text().endswith("}\n")


def test_a_target_written_with_escapes_is_rewritten_whole(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Old.md", f"---\nbid: {A}\n---\nText.\n")
    written = ('{"nodes":[{"id":"f","type":"file","file":"\\u004fld.md","x":0,"y":0,'
               '"width":1,"height":1},{"id":"t","type":"text","text":"a\\/b [[\\u004fld|'
               '\\u00e9]] \\ud83d\\ude00","x":0,"y":9,"width":1,"height":1}],"edges":[]}')
    project.write("Board.canvas", written.encode())
    assert run(project, "check").exit_code == 0
    (project.docs / "Old.md").rename(project.docs / "New.md")
    assert run(project, "sync").exit_code == 0
    assert (project.docs / "Board.canvas").read_text() == written.replace(
        '"\\u004fld.md"', '"New.md"').replace("[[\\u004fld|", "[[New|")

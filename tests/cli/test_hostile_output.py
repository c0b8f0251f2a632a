"""The command line on hostile data: nothing raw reaches a terminal, exports parse,
user errors end in a message (exit 1), never a traceback."""

from __future__ import annotations

import json
import xml.dom.minidom

import pytest
from beliefbase.terminal import printable

from tests.cli.test_check import run

ESCAPES = "\x1b]0;pwned\x07 \x1b[31mred\x9b \r\u202eevil\x00"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, tab\tand newline\n", "plain text, tab\tand newline\n"),
        ("\x1b[31m", "\\u001b[31m"),
        ("bell\x07", "bell\\u0007"),
        ("csi\x9b", "csi\\u009b"),
        ("back\rover", "back\\u000dover"),
        ("\u202eright-to-left", "\\u202eright-to-left"),
        ("delete\x7f", "delete\\u007f"),
        ("Ünïcode 中文 ok", "Ünïcode 中文 ok"),
    ],
)
def test_printable(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_printable_keeps_json_json() -> None:
    data = {"title": ESCAPES}
    text = printable(json.dumps(data, ensure_ascii=False))
    assert json.loads(text) == data


def _hostile(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", '---\ntitle: "T \\x1b[31mred\\x07 \\x01"\n---\n[[Missing \x1bc note]]\n')
    project.write("b.md", "B[^1]\n\n[^1]: a note\n")
    sidecar = {"page": "b.md", "beliefs": [{
        "belief_id": "b-1", "statement": f"Evil {ESCAPES} statement", "topic": "t",
        "subject": "s", "predicate": "p", "object": "o", "footnote_ids": ["1"],
        "provenance_ids": [], "asserted_at": "2026-01-01"}], "provenance": []}
    project.write("b.beliefs.json", json.dumps(sidecar))


def _no_raw_controls(text: str) -> None:
    assert not any(c in text for c in "\x1b\x07\x9b\x00\r\u202e\x01"), repr(text)


def test_commands_print_no_control_characters(project) -> None:  # type: ignore[no-untyped-def]
    _hostile(project)
    for args in (["check"], ["check", "--json"], ["why", "s"], ["why", "s", "--json"],
                 ["beliefs", "list"], ["beliefs", "export"], ["graph", "export"]):
        result = run(project, *args)
        _no_raw_controls(result.stdout)
        _no_raw_controls(result.stderr)
    assert "\\u001b" in run(project, "why", "s").stdout
    data = json.loads(run(project, "why", "s", "--json").stdout)
    assert data["current_beliefs"][0]["statement"] == f"Evil {ESCAPES} statement"


def test_graphml_parses_with_control_characters(project) -> None:  # type: ignore[no-untyped-def]
    _hostile(project)
    result = run(project, "graph", "export", "--format", "graphml")
    assert result.exit_code == 0
    document = xml.dom.minidom.parseString(result.stdout)
    assert document.documentElement.tagName == "graphml"
    out = project.root / "g.graphml"
    assert run(project, "graph", "export", "--format", "graphml", "-o", str(out)).exit_code == 0
    xml.dom.minidom.parse(str(out))


def test_export_into_a_missing_folder_is_a_message(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "A\n")
    result = run(project, "graph", "export", "-o", "missing/dir/graph.json")
    assert result.exit_code == 1
    assert "cannot write missing/dir/graph.json" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_build_log_has_no_control_characters(project) -> None:  # type: ignore[no-untyped-def]
    _hostile(project)
    result = project.build()
    assert result.error is None
    for line in result.lines:
        _no_raw_controls(line)
    assert any("\\u001b" in line for line in result.lines)


def test_malformed_ids_are_reported(project) -> None:  # type: ignore[no-untyped-def]
    (project.root / "src.txt").write_text("source\n")
    project.write("a.md", "---\nbid: not-a-uuid\n---\nA\n")
    project.write("b.md", "---\nsource_refs:\n  - path: src.txt\n    sha256: 1234567890\n---\nB\n")
    project.write("c.md", "---\nbid: 12\n---\nC\n")
    data = json.loads(run(project, "check", "--json").stdout)
    got = {(d["file"], d["line"], d["code"]) for d in data["diagnostics"]}
    assert got == {("docs/a.md", 2, "bad-frontmatter"), ("docs/b.md", 2, "bad-frontmatter"),
                   ("docs/c.md", 2, "bad-frontmatter")}
    messages = " ".join(d["message"] for d in data["diagnostics"])
    assert "'not-a-uuid' is not a UUID" in messages
    assert "sha256 '1234567890' is not a SHA-256" in messages


def test_duplicate_bid_is_one_node_and_one_diagnostic(project) -> None:  # type: ignore[no-untyped-def]
    bid = "0190f0a0-0000-7000-8000-00000000abcd"
    project.write("b.md", f"---\nbid: {bid}\n---\n## Part\n[[c]]\n")
    project.write("c.md", f"---\nbid: {bid}\n---\n## Part\n## Only in c\n[[b]]\n")
    project.write("index.md", "[[b]] [[c]] [[c#Only in c]]\n")
    result = project.build()
    assert result.error is None
    assert [line.split(": ", 2)[1] for line in result.lines if ": duplicate-id:" in line] \
        == ["duplicate-id"]
    assert any("docs/c.md:2:1: duplicate-id" in line and "docs/b.md" in line
               for line in result.lines)
    assert not any("invariant" in line for line in result.lines)
    graph = json.loads((result.site / "_beliefbase" / "graph.json").read_text())
    ids = [n["id"] for n in graph["nodes"]]
    assert len(ids) == len(set(ids))
    assert [n["path"] for n in graph["nodes"] if n["id"] == bid] == ["b.md"]
    check = json.loads(run(project, "check", "--json").stdout)
    assert [d["code"] for d in check["diagnostics"]] == ["duplicate-id"]

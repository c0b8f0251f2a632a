"""``beliefbase check`` and ``beliefbase graph export``: exact output and exit codes."""

from __future__ import annotations

import gc
import json
import os

from beliefbase.cli import main
from beliefbase.process.collector import THRESHOLD
from click.testing import CliRunner


def run(project, *args: str):  # type: ignore[no-untyped-def]
    project.write_config()
    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()
    cwd = os.getcwd()
    os.chdir(project.root)
    try:
        return runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(cwd)


def test_check_prints_diagnostics_and_exit_codes(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n[[Missing]] and [[draft]]\n")
    project.write("draft.md", "---\ndraft: true\n---\n")
    result = run(project, "check")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "warning: docs/index.md:3:1: unresolved-link: [[Missing]] matches no note, title or "
        "alias; create the note or fix the link",
        "info: docs/index.md:3:17: link-to-unpublished: [[draft]] points at a note that is not "
        "published (draft or publish: false); it renders as a broken link",
    ]
    assert run(project, "check", "--strict").exit_code == 1


def test_check_json(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "[[Missing]]\n")
    data = json.loads(run(project, "check", "--json").stdout)
    assert data["version"] == 1
    assert [d["code"] for d in data["diagnostics"]] == ["unresolved-link"]


def test_check_clean_project_exits_0(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n[[other]]\n")
    project.write("other.md", "# Other\n")
    result = run(project, "check", "--strict")
    assert result.exit_code == 0 and result.stdout == ""


def test_check_events_against_previous_compile(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n[[other]]\n")
    project.write("other.md", "# Other\n")
    run(project, "check")
    project.write("other.md", "# Other Renamed\n")
    project.write("new.md", "# New\n")
    out = run(project, "check", "--events").stdout.splitlines()
    kinds = [line.split(" ")[0] for line in out]
    assert "NodeAdded" in kinds and "NodeUpdated" in kinds
    assert any(line.startswith("NodeAdded") and "'New'" in line for line in out)
    assert any(line.startswith("NodeUpdated") and "title" in line for line in out)
    assert run(project, "check", "--events").stdout == ""  # nothing changed since


def test_codes(project) -> None:  # type: ignore[no-untyped-def]
    out = run(project, "check", "--codes").stdout
    for code in ("unresolved-link", "ambiguous-link", "embed-cycle", "source-ref-drift"):
        assert code in out


def test_graph_export_json_and_graphml(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n[[other]]\n")
    project.write("other.md", "# Other\n")
    graph = json.loads(run(project, "graph", "export").stdout)
    assert {n["title"] for n in graph["nodes"] if n["kind"] == "Document"} == {"Home", "Other"}
    graphml = run(project, "graph", "export", "--format", "graphml").stdout
    assert graphml.startswith("<?xml") and "links_to" in graphml


def test_a_command_tunes_the_collector_as_a_build_does(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        run(project, "check")
        assert gc.get_threshold()[0] >= THRESHOLD  # its compile is not rescanned every 700
    finally:
        gc.set_threshold(*before)

"""``beliefbase query``: the three formats, errors without tracebacks, -f."""

from __future__ import annotations

import json
import os

from beliefbase.cli import main
from click.testing import CliRunner, Result

from tests.conftest import Project

from .conftest import write_vault

SEED = "MATCH (p:Project {status: 'active'}) RETURN p ORDER BY p.priority DESC"


def run(project: Project, *args: str) -> Result:
    write_vault(project)
    project.write_config()
    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()
    cwd = os.getcwd()
    os.chdir(project.root)
    try:
        return runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(cwd)


def test_table(project: Project) -> None:
    result = run(project, "query", "MATCH (p:Project) RETURN p.title, p.priority, p.tags "
                 "ORDER BY p.priority")
    assert result.exit_code == 0
    assert result.stdout == (
        "p.title  p.priority  p.tags\n"
        "-------  ----------  ------------\n"
        "Gamma    1\n"
        "Alpha    3           work\n"
        "Beta     7           work, urgent\n"
        "(3 rows)\n")


def test_table_shows_nodes_by_title(project: Project) -> None:
    result = run(project, "query", SEED)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[2:] == ["Beta", "Alpha", "(2 rows)"]


def test_json(project: Project) -> None:
    result = run(project, "query", SEED, "--format", "json")
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    assert [r["p"]["title"] for r in records] == ["Beta", "Alpha"]
    assert records[1]["p"]["due"] == "2026-03-01" and records[1]["p"]["label"] == "Project"


def test_csv(project: Project) -> None:
    result = run(project, "query", "MATCH (p:Project) RETURN p.title AS title, p.status",
                 "--format", "csv")
    assert result.exit_code == 0
    assert result.stdout == "title,p.status\nAlpha,active\nBeta,active\nGamma,done\n"


def test_config_file_option(project: Project) -> None:
    result = run(project, "query", "MATCH (n:Person) RETURN n.title", "-f",
                 str(project.root / "mkdocs.yml"))
    assert result.exit_code == 0 and "Ada Lovelace" in result.stdout


def test_errors_exit_1_with_the_engines_message(project: Project) -> None:
    result = run(project, "query", "MATCH (x:Nope) RETURN x")
    assert result.exit_code == 1
    assert "Nope" in result.stderr and "Traceback" not in result.stderr + result.stdout
    refused = run(project, "query", "MATCH (n) DETACH DELETE n")
    assert refused.exit_code == 1 and "`DETACH` is not allowed" in refused.stderr
    syntax = run(project, "query", "MATCH (n RETURN n")
    assert syntax.exit_code == 1 and "Parser exception" in syntax.stderr


def _books(project: Project) -> None:
    project.write("b1.md", "---\ntags: [book]\nrating: 4\n---\n# B1\n", dedent=False)
    project.write("b2.md", "---\ntags: [book]\nrating: 2\n---\n# B2\n", dedent=False)
    project.write("hidden.md", "---\ntags: [book]\nrating: 9\ndraft: true\n---\n# H\n",
                  dedent=False)
    project.write("Books.base", "filters: file.hasTag(\"book\")\nviews:\n  - type: table\n"
                  "    name: All\n    order: [file.name, rating]\n  - type: list\n"
                  "    name: Top\n    filters: rating > 3\n    order: [file.name]\n",
                  dedent=False)


def test_dataview_mode(project: Project) -> None:
    _books(project)
    result = run(project, "query", "--dataview", "TABLE rating FROM #book SORT rating DESC",
                 "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout == "File,rating\n[[b1.md]],4\n[[b2.md]],2\n"


def test_base_mode_and_its_views(project: Project) -> None:
    _books(project)
    result = run(project, "query", "--base", "docs/Books.base", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"file name": "b1.md", "rating": "4"},
                                         {"file name": "b2.md", "rating": "2"}]
    top = run(project, "query", "--base", "docs/Books.base", "--view", "Top")
    assert top.exit_code == 0 and "b1.md" in top.stdout and "b2.md" not in top.stdout


def test_dataview_and_base_errors_exit_1_with_the_place(project: Project) -> None:
    _books(project)
    bad = run(project, "query", "--dataview", "TABLE FROM")
    assert bad.exit_code == 1 and "dataview-error: 1:" in bad.stderr
    project.write("Bad.base", "filters: [x\n", dedent=False)
    broken = run(project, "query", "--base", "docs/Bad.base")
    assert broken.exit_code == 1 and "docs/Bad.base:2:1: base-error" in broken.stderr
    nothing = run(project, "query", "--base", "docs/Books.base", "--view", "Nope")
    assert nothing.exit_code == 1 and "Nope" in nothing.stderr
    both = run(project, "query", "MATCH (n) RETURN n", "--dataview", "LIST")
    assert both.exit_code == 2

"""One compile (issue 17): ``beliefbase check --json`` and ``mkdocs build`` report the
same diagnostics on every fixture vault.

The build may add only what rendering finds (``SITE_ONLY``, listed in
docs/develop/architecture.md, "One compile"); everything that depends only on
the sources — links, beliefs, graph invariants — comes from the one compile both
run.  ``diagnostics.json`` leaves out drafts and the sidecars of drafts, so the
check's diagnostics about those files are left out before comparing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from beliefbase.cli import main
from beliefbase.project import compile_project
from click.testing import CliRunner

from ..conftest import Project
from ..hostile.vault import write_vault

TESTS = Path(__file__).resolve().parent.parent

#: Codes only the build reports: they come from rendering pages and from the pages
#: the site generates, which ``beliefbase check`` does not do.
SITE_ONLY = frozenset({
    "render-error",  # a page's Markdown conversion raised
    "bad-template",  # a page's template: the theme lacks
    "page-conflict",  # a generated page (belief index, node page) meets a page of the vault
})

Key = tuple[tuple[str, Any], ...]


def _keys(diagnostics: list[dict[str, Any]]) -> set[Key]:
    return {tuple(sorted(d.items())) for d in diagnostics}


def _check(root: Path) -> set[Key]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["check", "--json"], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    return _keys(json.loads(result.stdout)["diagnostics"])


def _built(project: Project) -> set[Key]:
    result = project.build()
    assert result.error is None, result.error
    text = (project.root / "site" / "_beliefbase" / "diagnostics.json").read_text("utf-8")
    return _keys(json.loads(text)["diagnostics"])


def assert_same_diagnostics(project: Project) -> set[str]:
    """Build, then check; the codes both reported."""
    built = _built(project)
    checked = _check(project.root)
    hidden = compile_project(project.root / "mkdocs.yml").hidden_files()
    public = {k for k in checked if dict(k)["file"] not in hidden}
    compiled = {k for k in built if dict(k)["code"] not in SITE_ONLY}
    assert sorted(public - compiled) == [], "only `beliefbase check` reports these"
    assert sorted(compiled - public) == [], "only `mkdocs build` reports these"
    return {dict(k)["code"] for k in public}


def _copy(vault: Path, into: Path) -> Project:
    root = into / vault.name
    shutil.copytree(vault, root, ignore=shutil.ignore_patterns(".beliefbase", "site"))
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    return Project(root, config)


@pytest.mark.parametrize("name", ["golden", "fidelity"])
def test_fixture_vaults(name: str, tmp_path: Path) -> None:
    codes = assert_same_diagnostics(_copy(TESTS / name / "vault", tmp_path))
    assert codes  # the fixture vaults are made to have diagnostics


def test_hostile_vault(project: Project) -> None:
    write_vault(project)
    assert "unreadable-file" in assert_same_diagnostics(project)


def _belief_kb() -> Any:
    # belief_kb.py is no package module (tests/beliefs_site has no __init__.py)
    spec = importlib.util.spec_from_file_location(
        "belief_kb_one_compile", TESTS / "beliefs_site" / "belief_kb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_belief_kb(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    kb = _belief_kb()
    day = kb.BUILD_DATE
    moment = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(moment.timestamp())))
    kb.belief_kb(project)
    assert_same_diagnostics(project)


def test_a_footnote_no_belief_covers(project: Project) -> None:
    """The issue's case: `check --strict` said "no diagnostics" and exited 0 while the
    build warned belief-coverage."""
    project.write("index.md", "# Home\n\nCovered.[^1] Not covered.[^2]\n\n"
                              "[^1]: One.\n[^2]: Two.\n")
    kb = _belief_kb()
    kb.write_raw(project, {"one.md": "One is one.\n"})
    kb.write_json(project, "index.beliefs.json", {
        "beliefs": [kb.belief("b-one", "One is one.", "one", ["1"], ["p-one"], "2026-01-02")],
        "provenance": [kb.prov("p-one", "one.md", "One is one.")]})
    codes = assert_same_diagnostics(project)
    assert "belief-coverage" in codes
    cwd = os.getcwd()
    os.chdir(project.root)
    try:
        result = CliRunner().invoke(main, ["check", "--strict"], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert "belief-coverage" in result.stdout and "[^2]" in result.stdout
    assert result.exit_code == 1


def test_page_queries(project: Project) -> None:
    """``beliefbase check`` runs the pages' queries as the build does (issue 29): a
    failing fence, an embed of no Query note, a Query page, a view that does not
    exist, fields of mixed types; in a list item and a quote too."""
    project.write("a.md", "---\nschema: Task\nsize: 3\nkind: chore\n---\n# A\n")
    project.write("b.md", "---\nschema: Task\nsize: large\n---\n# B\n")
    project.write("q.md", "---\nschema: Query\nquery: MATCH (n) RETURN nope\n---\n# Q\n")
    project.write("index.md", "# Home\n\n```query\nMATCH (n) RETURN m\n```\n\n"
                              "{{query:nothing-here}}\n\n"
                              "- item\n\n  ```query view=nope\n  MATCH (t:Task) RETURN t.title\n  ```\n\n"
                              "> ```query\n> MATCH (t:Task) RETURN t.title, t.size\n> ```\n\n"
                              "````markdown\n```query\nnot run: in a fence\n```\n````\n")
    codes = assert_same_diagnostics(project)
    assert {"query-error", "query-property-type", "query-property-renamed"} <= codes
    checked = _check(project.root)
    assert sorted((dict(k)["file"], dict(k)["line"]) for k in checked
                  if dict(k)["code"] == "query-error") == [
        ("docs/index.md", 3), ("docs/index.md", 7), ("docs/index.md", 11),
        ("docs/q.md", 3)]

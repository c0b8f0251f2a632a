"""Queries in pages converted by the second process (``markdown_offload``): the
same site, log and diagnostics as a serial build."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import pytest
from beliefbase.speedups import render_ahead

from tests.conftest import Project, differing
from tests.site.test_markdown_offload import (
    _both_convert,
    started,  # noqa: F401 - a fixture
)

PAGES = 16


def build(project: Project, tmp_path: Path, flag: bool) -> tuple[Path, list[str]]:
    for i in range(PAGES):
        label = "Task" if i % 2 else "Nope"
        written = project.write(
            f"page-{i}.md", f"---\nschema: Task\nrank: {i}\n---\n# Page {i}\n\n"
            f"```query view=count\nMATCH (t:{label}) WHERE t.rank < {i} RETURN t\n```\n",
            dedent=False)
        os.utime(written, (1_700_000_000, 1_700_000_000))
    result = project.build(plugins=["search", {"beliefbase": {"speedups": {"markdown_offload": flag}}}])
    assert result.error is None
    copy = tmp_path / f"site-{flag}"
    shutil.copytree(result.site, copy)
    return copy, [line for line in result.all_lines if "Documentation built in" not in line]


def test_queries_in_the_worker(project: Project, tmp_path: Path,
                               started: list[render_ahead.RenderAhead],  # noqa: F811
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Both processes convert some pages whatever the load (events, not a race: on a busy
    machine this process used to convert all of them before the worker wrote one)."""
    _both_convert(monkeypatch)
    logging.getLogger("mkdocs.structure.pages").setLevel(logging.INFO)
    on, on_log = build(project, tmp_path, True)
    off, off_log = build(project, tmp_path, False)
    assert len(started) == 1 and 0 < started[0].taken < len(started[0].order)
    assert differing(on, off) == []
    assert on_log == off_log
    found = json.loads((on / "_beliefbase/diagnostics.json").read_text(encoding="utf-8"))
    assert sum(d["code"] == "query-error" for d in found["diagnostics"]) == PAGES // 2
    assert '<span class="bb-query-number">15</span>' in (
        on / "page-15/index.html").read_text(encoding="utf-8")



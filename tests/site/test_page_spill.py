"""Converted pages' HTML on disk until the theme renders them (``site/page_spill.py``):
the same site and log, byte for byte, and no page's HTML in memory between its
conversion and its template (issue 31, peak memory)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from beliefbase.site import build as site_build
from beliefbase.site.page_spill import PageSpill

from tests.conftest import differing

from .test_markdown_offload import build


@pytest.mark.parametrize("html", ["", "<p>a</p>", "é ✓ 😀 \u2028", "\ud800 lone", "x" * 70000])
def test_each_page_comes_back_as_it_went(html: str) -> None:
    spill = PageSpill()
    try:
        assert spill.put("a.md", html)
        assert spill.put("b.md", "<p>b</p>")
        assert spill.take("a.md") == html
        assert spill.take("a.md") is None  # once
        assert spill.take("b.md") == "<p>b</p>"
        assert len(spill) == 0
    finally:
        spill.close()


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Per build, the HTML each converted page holds when the template loop starts."""
    held: list[list[str]] = []
    env = site_build.MkDocsBuild.env

    def spy(self: Any, jinja: Any, config: Any, files: Any) -> Any:
        held.append([f.page.content for f in files.documentation_pages()
                     if f.page is not None and f.page.content is not None])
        return env(self, jinja, config, files)

    monkeypatch.setattr(site_build.MkDocsBuild, "env", spy)
    return held


def test_the_html_waits_on_disk_and_the_site_is_the_same(
        project: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held = _spied(monkeypatch)
    site, spilled_log = build(project, tmp_path, True)
    spilled = tmp_path / "spilled"
    shutil.move(site, spilled)
    assert held[-1] and set(held[-1]) == {""}  # every page's HTML on disk

    def no_file() -> Any:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(site_build, "PageSpill", no_file)
    kept, kept_log = build(project, tmp_path, True)
    assert held[-1] and all(held[-1])  # no temporary file: the HTML stayed here
    assert differing(spilled, kept) == []
    assert spilled_log == kept_log
    assert "of part 3." in (spilled / "page-3" / "index.html").read_text(encoding="utf-8")

"""The plugin under ProperDocs, MkDocs 1.x's drop-in fork (issue 29): the fixture
vaults build to the same site as under MkDocs (the pages' generator line aside),
and ``--strict`` still fails on a warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..sitecompare import EPOCH, build, compare

pytest.importorskip("properdocs")
pytestmark = pytest.mark.slow


def test_fixture_vaults_build_the_same_site(tmp_path: Path) -> None:
    vaults = ("golden", "fidelity")
    build(tmp_path / "mkdocs", sys.executable, True, "mkdocs", vaults)
    build(tmp_path / "properdocs", sys.executable, True, "properdocs", vaults)
    for name in vaults:
        generator = (tmp_path / "properdocs" / name / "index.html").read_text("utf-8")
        assert "ProperDocs" in generator  # really built by the other host
        assert compare(tmp_path / "mkdocs" / name, tmp_path / "properdocs" / name,
                       any_generator=True) == [], name


def test_strict_fails_on_a_warning(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n[[Nowhere]]\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme: {name: material, font: false}\nplugins: [search, beliefbase]\n",
        encoding="utf-8")
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(EPOCH), "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "properdocs", "build", "--strict", "-f",
                          "mkdocs.yml"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode != 0
    assert "docs/index.md:3:1: unresolved-link" in run.stderr

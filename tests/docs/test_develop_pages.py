"""The developer pages stay true to the tree: every test folder is explained, and the
benchmarks page is today's figures (the architecture page's paths:
``tests/packaging/test_doc_paths.py``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "plugin" / "beliefbase"
DEVELOP = ROOT / "docs" / "develop"

def test_the_testing_page_lists_every_test_folder() -> None:
    text = (DEVELOP / "testing.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `tests/([\w-]+)/` \|", text, flags=re.M))
    folders = {p.name for p in (ROOT / "tests").iterdir()
               if p.is_dir() and not p.name.startswith(("_", "."))}
    assert folders - listed == set(), f"test folders not in docs/develop/testing.md: {folders - listed}"
    assert listed - folders == set(), f"docs/develop/testing.md lists folders that do not exist: {listed - folders}"


def test_the_benchmarks_page_is_todays_figures_not_a_diary() -> None:
    page = ROOT / "docs" / "reference" / "benchmarks.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250, f"{len(lines)} lines: history belongs in git, the page in today's table"

"""The developer pages stay true to the tree: a newcomer who follows a path they
name finds it, and every test folder is explained."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "plugin" / "beliefbase"
DEVELOP = ROOT / "docs" / "develop"

# `site/build.py`, `codecs/`, `tests/site/test_dirty.py`, `theme/assets/beliefbase.css`:
# a code span that is a path of the repository (relative to it or to the package).
_CODE_SPAN = re.compile(r"`([^`\s]+)`")
_PATHLIKE = re.compile(r"^[A-Za-z_][\w.-]*(?:/[\w.-]+)*(?:\.py|/)$")


def _named_paths(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)  # code blocks show commands
    return [span for span in _CODE_SPAN.findall(text) if _PATHLIKE.match(span)]


def _exists(path: str) -> bool:
    """A path with a folder must exist from the repository or the package; a bare
    file name (`build.py`, in a sentence about its folder) somewhere in the package.
    A span whose first folder is neither ours (`cache_dir/templates/`, an option's
    value) is not a path of the tree."""
    relative = path.rstrip("/")
    if "/" not in relative:
        return (ROOT / relative).exists() or any(PACKAGE.rglob(relative))
    first = relative.split("/", 1)[0]
    if not any((base / first).is_dir() for base in (ROOT, PACKAGE)):
        return True
    return any((base / relative).exists() for base in (ROOT, PACKAGE))


def test_every_path_the_architecture_page_names_exists() -> None:
    named = _named_paths(DEVELOP / "architecture.md")
    assert len(named) > 20, "the page names the modules it describes"
    missing = sorted({path for path in named if not _exists(path)})
    assert not missing, f"docs/develop/architecture.md names paths that do not exist: {missing}"


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

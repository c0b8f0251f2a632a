"""``docs/develop/architecture.md`` names only files that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "plugin" / "beliefbase"
#: where a path in the page may start: the package, the repository, the theme
BASES = (PACKAGE, ROOT, ROOT / "theme")
#: a code span that reads as one of our files: a folder, or a Python or JS module
_PATH = re.compile(r"`([\w./-]+(?:/|\.py|\.js))`")
#: paths of what a build writes, not of the repository
_OUTPUTS = ("cache_dir/", "_beliefbase/", "site/_beliefbase/")


def named_paths(text: str) -> set[str]:
    return {m.group(1) for m in _PATH.finditer(text)
            if not m.group(1).startswith((".", *_OUTPUTS))}


def exists(path: str) -> bool:
    """A path with a folder: under one of the bases; a bare file name: anywhere in the
    package or the theme (the page names a stage's files after its folder)."""
    if "/" in path.rstrip("/"):
        return any((base / path).exists() for base in BASES)
    name = path.rstrip("/")
    return any(any(base.rglob(name)) for base in (PACKAGE, ROOT / "theme", ROOT / "tests"))


def test_every_path_the_architecture_page_names_exists() -> None:
    text = (ROOT / "docs" / "develop" / "architecture.md").read_text(encoding="utf-8")
    missing = sorted(p for p in named_paths(text) if not exists(p))
    assert missing == []


def test_the_check_sees_a_path_that_moved() -> None:
    assert named_paths("see `site/markdown_ext.py` and `codecs/`") == {
        "site/markdown_ext.py", "codecs/"}
    assert not exists("site/markdown_ext.py")
    assert exists("site/markdown/markdown_ext.py") and exists("codecs/")

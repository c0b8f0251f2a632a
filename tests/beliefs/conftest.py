"""Fixtures for the belief tests: fixture projects copied to tmp, with hand-made PageFacts.

The compiler is not used here: ``page_facts`` reads the few facts beliefs need
(headings, footnotes, ``draft: true``) from the fixture Markdown with simple
patterns, which is enough for these small, well-formed pages.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

try:
    import beliefbase  # noqa: F401
except ImportError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugin"))

from beliefbase.beliefs.facts import PageFacts, ProjectContext
from beliefbase.ids import SrcPath, url_for_src
from markdown.extensions.toc import slugify

FIXTURES = Path(__file__).parent / "fixtures"
TODAY = date(2026, 6, 1)

_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.+?)\s*#*\s*$", re.MULTILINE)
_FOOTNOTE_DEF = re.compile(r"^\[\^(?P<id>[^\]\s]+)\]:", re.MULTILINE)
_FOOTNOTE_REF = re.compile(r"\[\^(?P<id>[^\]\s]+)\](?!:)")


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def page_facts(docs_dir: Path, root: Path, network: str = "root") -> dict[str, PageFacts]:
    """PageFacts for every Markdown file under ``docs_dir``."""
    pages: dict[str, PageFacts] = {}
    for md in sorted(docs_dir.rglob("*.md")):
        rel = md.relative_to(docs_dir).as_posix()
        text = md.read_text(encoding="utf-8")
        published = not re.search(r"^(draft:\s*true|publish:\s*false)\s*$", text, re.MULTILINE)
        pages[rel] = PageFacts(
            path=rel,
            display=md.relative_to(root).as_posix(),
            url=url_for_src(SrcPath(rel)) if published else None,
            network=network,
            published=published,
            anchors=frozenset(slugify(m.group("text"), "-") for m in _HEADING.finditer(text)),
            footnote_refs=tuple((m.group("id"), *_position(text, m.start()))
                                for m in _FOOTNOTE_REF.finditer(text)),
            footnote_defs=tuple((m.group("id"), *_position(text, m.start()))
                                for m in _FOOTNOTE_DEF.finditer(text)),
        )
    return pages


def context_for(project: Path, today: date = TODAY) -> ProjectContext:
    """A ProjectContext for a project folder laid out as docs/ + raw/."""
    docs = project / "docs"
    return ProjectContext(root=project, docs_dir=docs, raw_dir=project / "raw",
                          cache_dir=project / ".beliefbase", pages=page_facts(docs, project),
                          today=today)


def copy_fixture(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


@pytest.fixture
def acme_dir(tmp_path: Path) -> Path:
    """A fresh copy of the clean ``acme`` project (safe to edit)."""
    return copy_fixture("acme", tmp_path)


@pytest.fixture
def acme(acme_dir: Path) -> ProjectContext:
    return context_for(acme_dir)


@pytest.fixture
def loader() -> Callable[[Path], ProjectContext]:
    """The ``load`` argument of the CLI commands: mkdocs.yml path -> ProjectContext."""
    return lambda config: context_for(config.parent)


def write_project(project: Path, files: dict[str, str | bytes]) -> ProjectContext:
    """Write ``files`` (path -> text or bytes) under ``project`` and return its context."""
    for rel, content in files.items():
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    (project / "docs").mkdir(exist_ok=True)
    (project / "raw").mkdir(exist_ok=True)
    return context_for(project)


@pytest.fixture
def make_project(tmp_path: Path) -> Callable[[dict[str, str | bytes]], ProjectContext]:
    """``make_project({"docs/a.md": "...", ...})`` -> ProjectContext of a fresh project."""
    counter = iter(range(1_000_000))
    return lambda files: write_project(tmp_path / f"p{next(counter)}", files)

"""What the belief layer needs to know about the compiled site, and nothing more.

The compiler owns pages; beliefs only need a few facts about each one (its
URL, network, whether it is published, its heading anchors and footnotes).
``PageFacts`` is that protocol, ``ProjectContext`` bundles it with the folders
the belief commands work in.  Tests build both by hand; the plugin and the CLI
fill them from a compile.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import BeliefSet

SIDECAR_SUFFIX = ".beliefs.json"


@dataclass(frozen=True, slots=True)
class PageFacts:
    """One page as the belief verifier sees it."""

    path: str  # relative to docs_dir, POSIX: "topics/auth.md"
    display: str  # path printed in diagnostics: "docs/topics/auth.md"
    url: str | None  # site-relative page URL ("topics/auth/"), None if unpublished
    network: str = "root"  # network id
    published: bool = True
    anchors: frozenset[str] = frozenset()  # heading ids on the page
    footnote_refs: tuple[tuple[str, int, int], ...] = ()  # (id, line, col) of [^id] in the body
    footnote_defs: tuple[tuple[str, int, int], ...] = ()  # (id, line, col) of [^id]: definitions


@dataclass(frozen=True, slots=True)
class ProjectContext:
    """Everything the ``why`` / ``beliefs`` / ``reindex`` commands need from a project.

    Attributes:
        root: folder of mkdocs.yml; diagnostics print paths relative to it.
        docs_dir: the knowledge base (sidecars live here, next to their pages).
        raw_dir: raw sources that provenance quotes; nothing outside it is read.
        cache_dir: where ``beliefs.sqlite`` lives.
        pages: every page of the compile, keyed by ``PageFacts.path``.
        sidecars: sidecar files to read; None means "find them under docs_dir".
        today: the build date (``verified_at`` of quote checks).
        verified: the sidecars as the compile verified them (``compile_project``);
            None: verify them here (``verify_context``).
    """

    root: Path
    docs_dir: Path
    raw_dir: Path
    cache_dir: Path
    pages: Mapping[str, PageFacts]
    sidecars: tuple[Path, ...] | None = None
    today: date = field(default_factory=date.today)
    verified: BeliefSet | None = None

    def sidecar_paths(self) -> tuple[Path, ...]:
        if self.sidecars is not None:
            return self.sidecars
        return tuple(discover_sidecars(self.docs_dir))

    @property
    def store_path(self) -> Path:
        return self.cache_dir / "beliefs.sqlite"


def discover_sidecars(docs_dir: Path) -> Iterator[Path]:
    """Every ``*.beliefs.json`` under ``docs_dir``, sorted; symlinked folders are not entered."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(docs_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(folder, name) for name in files if name.endswith(SIDECAR_SUFFIX))
    yield from sorted(found)


def page_candidates(sidecar_rel: str) -> tuple[str, ...]:
    """Pages a sidecar may belong to: ``a/x.beliefs.json`` -> ``a/x.md``, ``a/x.toml``."""
    stem = sidecar_rel[: -len(SIDECAR_SUFFIX)]
    return (stem + ".md", stem + ".toml")


def display_path(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` in POSIX form, or as given when it is elsewhere."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        try:
            return Path(os.path.relpath(path, root)).as_posix()
        except ValueError:  # another drive on Windows
            return path.as_posix()

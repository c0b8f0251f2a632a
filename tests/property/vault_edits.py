"""A small knowledge base in a temporary folder that a property test edits step by
step, each step with a new mtime (even when the size stays the same)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml
from beliefbase.builder import make_sources
from beliefbase.project import load_project


class EditedVault:
    def __init__(self, root: Path, notes: dict[str, str]) -> None:
        self.docs = root / "docs"
        config = {"site_name": "P", "theme": {"name": "material"},
                  "plugins": [{"beliefbase": {"cache_dir": str(root / "cache")}}]}
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
        for name, text in notes.items():
            (self.docs / f"{name}.md").parent.mkdir(parents=True, exist_ok=True)
            (self.docs / f"{name}.md").write_text(text, encoding="utf-8")
        self.sources, self.options = load_project(root / "mkdocs.yml")
        self._stamp = 1_700_000_000_000_000_000

    def edit(self, name: str, delete: bool, text: str) -> list[Any]:
        """Delete the note ``name`` (if ``delete`` and it exists) or write ``text`` to
        it; the knowledge base's sources afterwards."""
        file = self.docs / f"{name}.md"
        if delete and file.exists():
            file.unlink()
        else:
            file.write_text(text, encoding="utf-8")
            self._stamp += 1_000_000_000
            os.utime(file, ns=(self._stamp, self._stamp))
        return self.sources_now()

    def rename(self, name: str, new: str) -> list[Any]:
        """Move the note ``name`` to ``new`` (replacing it), if it exists."""
        file, to = self.docs / f"{name}.md", self.docs / f"{new}.md"
        if file.exists() and file != to:
            to.parent.mkdir(parents=True, exist_ok=True)
            file.replace(to)
            self._stamp += 1_000_000_000
            os.utime(to, ns=(self._stamp, self._stamp))
        return self.sources_now()

    def sources_now(self) -> list[Any]:
        return make_sources(self.docs, sorted(p.relative_to(self.docs).as_posix()
                                              for p in self.docs.rglob("*.md")))


@contextmanager
def edited_vault(notes: dict[str, str]) -> Iterator[EditedVault]:
    with tempfile.TemporaryDirectory() as tmp:
        yield EditedVault(Path(tmp), notes)

"""What every page depends on besides the vault: when it changed, a plain
``mkdocs serve`` rebuild renders everything (``speedups/plain_serve.py``).

The plan of a dirty rebuild (``plan.py``) follows the vault's notes; it cannot
know what an edited ``mkdocs.yml``, a template in the theme's ``custom_dir``, a
hook or another file listed under ``watch:`` changes.  ``outside_stamp`` names
each such file with its modification time and size; two equal stamps mean none
of them changed between two builds.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

Stamp = tuple[tuple[str, int, int], ...]


def outside_paths(config: Any) -> tuple[str, ...]:
    """``mkdocs.yml``, the theme's ``custom_dir`` and ``watch:`` (hooks are added
    there by MkDocs), without anything under ``docs_dir`` (the plan follows that)."""
    docs = os.path.abspath(str(config.docs_dir))
    found: list[str] = []
    candidates = [config.config_file_path, getattr(config.theme, "custom_dir", None),
                  *(config.watch or ())]
    for path in candidates:
        if not path:
            continue
        full = os.path.abspath(str(path))
        if full == docs or full.startswith(docs + os.sep):
            continue
        found.append(full)
    return tuple(dict.fromkeys(found))


def outside_stamp(paths: tuple[str, ...]) -> Stamp:
    """Every file under ``paths`` with its modification time and size."""
    entries: list[tuple[str, int, int]] = []
    for path in paths:
        root = Path(path)
        files = [root] if not root.is_dir() else [p for p in root.rglob("*") if p.is_file()]
        for file in files:
            try:
                stat = file.stat()
            except OSError:
                entries.append((str(file), -1, -1))
                continue
            entries.append((str(file), stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(entries))

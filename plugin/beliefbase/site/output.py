"""Writing the site's generated files: whole or not at all.

A file is written next to its final name and moved into place, so a browser
reloading during ``mkdocs serve`` never reads half a ``graph.json``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def write_text(path: Path, text: str) -> None:
    write_chunks(path, (text,))


def write_bytes(path: Path, data: bytes) -> None:
    """``data`` into ``path``, whole or not at all, the folder made if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # processes may share a cache
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_chunks(path: Path, chunks: Iterable[str]) -> None:
    """``chunks`` joined, as UTF-8, without ever holding the whole text."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.writelines(chunks)
    os.replace(tmp, path)

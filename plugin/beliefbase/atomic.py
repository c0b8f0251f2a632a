"""Writing a file whole or not at all: the one atomic-write helper of every layer.

A file is written next to its final name and moved into place (``os.replace``),
so a browser reloading under ``mkdocs serve``, another process reading a cache,
or an interrupted build never sees half a file.  The temporary name carries the
process and thread, since builds, workers and the command line may share a
cache folder; it is opened with the usual permissions (``mkstemp``'s would be
owner-only, and a site's files must stay readable by a web server).

``replacing`` hands out an open file (the site's output, the caches); ``replaced``
only the temporary path, for writers that create the file themselves (SQLite's
index in ``beliefs/store.py``, the durable byte-exact edits of ``writeback.py``).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def replacing(path: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """A file to write (``mode`` ``"w"`` for UTF-8 text, ``"wb"`` for bytes) that
    replaces ``path`` when the block ends without an exception; the folder is made
    if needed.  On an exception the temporary file is removed and ``path`` kept."""
    path.parent.mkdir(parents=True, exist_ok=True)
    encoding = None if "b" in mode else "utf-8"
    with replaced(path) as tmp, open(tmp, mode, encoding=encoding) as handle:
        yield handle


@contextlib.contextmanager
def replaced(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for the block to create: moved over ``path``
    when the block ends without an exception, removed when it raises (``path`` kept).

    The name is this process's and thread's: a file already there was left by a
    process that died, and is removed first (an exclusive create then succeeds).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(path: Path, data: bytes) -> None:
    with replacing(path, "wb") as handle:
        handle.write(data)


def write_text(path: Path, text: str) -> None:
    write_chunks(path, (text,))


def write_chunks(path: Path, chunks: Iterable[str]) -> None:
    """``chunks`` joined, as UTF-8, without ever holding the whole text."""
    with replacing(path) as handle:
        handle.writelines(chunks)

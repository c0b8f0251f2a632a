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
    encoding = None if "b" in mode else "utf-8"
    with _created(path) as fd, open(fd, mode, encoding=encoding, buffering=_BUFFER,
                                    closefd=False) as handle:
        yield handle


#: A written file's buffer (given, so that ``open`` asks no ``isatty`` of a new file).
_BUFFER = 1 << 16
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


@contextlib.contextmanager
def _created(path: Path) -> Iterator[int]:
    """``replaced``, with the temporary file created (exclusively) and open: a file
    descriptor for the block to write.

    The folder is made, or a temporary file a dead process left removed, only when
    creating the file fails for that reason: a build writes thousands of files (alias
    redirects, each in a folder of its own), and making sure of both first cost three
    system calls and two Python exceptions per file."""
    tmp = _temporary(path)
    try:
        fd = os.open(tmp, _CREATE, 0o666)
    except FileExistsError:  # left by a process that died (this process's name)
        tmp.unlink()
        fd = os.open(tmp, _CREATE, 0o666)
    except OSError:  # no folder yet (or a file where it would be: mkdir says so)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, _CREATE, 0o666)
    try:
        try:
            yield fd
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")


@contextlib.contextmanager
def replaced(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for the block to create: moved over ``path``
    when the block ends without an exception, removed when it raises (``path`` kept).

    The name is this process's and thread's: a file already there was left by a
    process that died, and is removed first (an exclusive create then succeeds).
    """
    tmp = _temporary(path)
    tmp.unlink(missing_ok=True)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(path: Path, data: bytes) -> None:
    with _created(path) as fd:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_chunks(path: Path, chunks: Iterable[str]) -> None:
    """``chunks`` joined, as UTF-8, without ever holding the whole text."""
    with replacing(path) as handle:
        handle.writelines(chunks)

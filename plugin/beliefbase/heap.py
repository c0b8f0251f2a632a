"""Free memory given back to the system before a fork (``trim``).

Objects larger than CPython's small-object limit (a note's text, the tables of
large dicts and lists) come from the C library's ``malloc``, and glibc keeps
what is freed for its next allocations instead of returning it.  The compile
leaves much of it behind (25 MB at 5,000 notes when MkDocs' page loop starts).
Forked, such free pages are shared with the worker, and every one that either
process later allocates into is copied: the build pays for memory nobody uses,
twice.  ``malloc_trim(0)`` returns every whole free page first (a few
milliseconds).  Where the C library has no ``malloc_trim`` (musl, macOS) this
does nothing.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(None)  # the process's own symbols: the C library it runs on
    except OSError:
        return None
    trim: Callable[[int], int] | None = getattr(libc, "malloc_trim", None)
    return trim


def trim() -> None:
    """Give the C library's free memory back to the system (glibc only)."""
    malloc_trim = _malloc_trim()
    if malloc_trim is not None:
        malloc_trim(0)

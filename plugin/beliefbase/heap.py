"""This process's heap while forked workers share it (``shared_with_forks``).

A forked worker shares every page of this process's memory until either
process writes to it; then the page is copied, and the build pays for it
twice.  Two things write to pages nobody means to change:

- Free memory.  Objects larger than CPython's small-object limit (a note's
  text, the tables of large dicts and lists) come from the C library's
  ``malloc``, and glibc keeps what is freed for its next allocations instead of
  returning it.  The compile leaves much of it behind (25 MB at 5,000 notes when
  MkDocs' page loop starts); shared, every page of it that either process later
  allocates into is copied.  ``trim`` (``malloc_trim(0)``, a few milliseconds)
  returns every whole free page first; where the C library has none (musl,
  macOS) it does nothing.
- The cyclic garbage collector, which writes into every object it examines.  A
  full collection in either process copies every page holding a container.
  Objects frozen (``gc.freeze``) are never examined: frozen before the fork and
  left frozen here until the workers end, neither side's collections touch what
  they share (Python's documentation of ``gc.freeze`` recommends it).  Objects
  made meanwhile are collected as usual; frozen ones that become garbage are
  freed after ``gc.unfreeze``.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
from collections.abc import Callable, Iterator


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


def freeze_for_fork() -> None:
    """Before forking workers: free memory returned, every object frozen."""
    trim()
    gc.freeze()


@contextlib.contextmanager
def shared_with_forks() -> Iterator[None]:
    """Workers forked inside share this heap: frozen (``freeze_for_fork``) until the end."""
    freeze_for_fork()
    try:
        yield
    finally:
        gc.unfreeze()

"""This process's heap as a forked worker inherits it (``frozen_for_fork``).

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
  macOS) it does nothing.  The site also calls it where much was just freed
  (after the panels' burst, when the pages' caches go), or the rest of the build
  carries it.
- The cyclic garbage collector, which writes into every object it examines.
  Objects frozen (``gc.freeze``) at the fork stay frozen in the worker, whose
  collections then leave them alone.  This process unfreezes them at once:
  kept frozen here until the workers ended, it saved no measurable memory
  (5,000 notes: 460 against 465 MB, one run each), and full collections come
  more often while much is frozen (the collector counts from what is not).
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


@contextlib.contextmanager
def frozen_for_fork() -> Iterator[None]:
    """Fork the workers inside: free memory returned first, every object frozen
    for them (``gc.freeze``), unfrozen here on the way out."""
    trim()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def freeze_in_worker() -> None:
    """First thing in a forked worker: every object it has so far frozen, so its own
    collections leave the heap it shares with this process alone."""
    gc.freeze()

"""Python's cyclic garbage collector during builds (``BuildProcess``).

A build allocates millions of small objects that live to the end; Python's
default collection thresholds would scan them again and again (about a fifth of
a serve rebuild), so ``BuildProcess.starts`` raises the first threshold to
50,000: collections still run, just less often.

Under ``mkdocs serve``, Python's cyclic garbage collector runs between saves.

A rebuild after one edit allocates a few hundred thousand objects that
outlive the young generation; Python then scans them, and every object that
survived earlier rebuilds with them, whenever its counters say so — in the
middle of some later rebuild.  In a large vault one such middle-generation
collection takes a good part of the rebuild, before the browser can reload
(figures: docs/develop/speed.md).
Nothing in a rebuild needs the collector (reference counting frees almost
everything at once), so ``IdleCollector`` switches it off for the rebuild and
on again once the server has been idle for a moment: the collection itself
is not skipped, it happens after the reload instead of before it.

Only rebuilds after the first are affected (the first build of a large vault
would grow by its cyclic garbage), and after ``MAX_DEFERRED`` rebuilds in a
row without a quiet moment the collector is left on, so an author saving
continuously never accumulates garbage for long.

When the process ends, ``freeze_at_exit`` spares the collector the objects
that lived to the end (see there).
"""

from __future__ import annotations

import atexit
import gc
import threading

_freeze_registered = False


def freeze_at_exit() -> None:
    """Freeze every object left when the interpreter exits (``gc.freeze``), once registered.

    Python's finalisation runs full collections while it tears modules down,
    each scanning every object still alive.  After a build that is the site's
    whole state, a noticeable wait between MkDocs' last word and the process's
    end (docs/develop/speed.md).  Frozen objects are never scanned, so the
    process ends at once.  Reference counting still frees what it
    frees; objects in reference cycles are left to the operating system, as
    Python already leaves whatever is alive at exit without a promise to
    finalise it.  Nothing happens before the interpreter exits, so a process
    that goes on (tests, an application calling MkDocs) is unaffected.
    """
    global _freeze_registered
    if not _freeze_registered:
        atexit.register(gc.freeze)
        _freeze_registered = True

#: seconds without a rebuild before the collector is switched on again
IDLE = 0.5
#: rebuilds in a row that may run without the collector
MAX_DEFERRED = 5


class IdleCollector:
    """Switch the collector off during rebuilds and on again when idle."""

    def __init__(self, idle: float = IDLE) -> None:
        self.idle = idle
        self._timer: threading.Timer | None = None
        self._deferred = 0  # rebuilds since the collector last ran freely
        self._lock = threading.Lock()

    def rebuild_starts(self) -> None:
        """A rebuild begins (not the first build)."""
        with self._lock:
            self._cancel()
            if self._deferred >= MAX_DEFERRED:
                self._deferred = 0
                gc.enable()
                return
            self._deferred += 1
            gc.disable()

    def rebuild_done(self) -> None:
        """The rebuild wrote the site (or failed): collect once the server is idle."""
        with self._lock:
            self._cancel()
            if gc.isenabled():
                return
            self._timer = threading.Timer(self.idle, self._enable)
            self._timer.daemon = True
            self._timer.start()

    def stop(self) -> None:
        """The server stops: the collector is on again, no timer is left."""
        with self._lock:
            self._cancel()
            gc.enable()

    def _enable(self) -> None:
        with self._lock:
            self._timer = None
            self._deferred = 0
            gc.enable()
        gc.collect(1)  # the young and middle generations, now, while nobody waits

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


#: the collector's first threshold while a process builds (Python's default: 700)
THRESHOLD = 50_000


def one_compile() -> None:
    """Fewer collections over a compile's long-lived objects, and none at the
    interpreter's exit: a build's start, and every ``beliefbase`` command's (whose
    compile then lives to the end; 5,000 notes: ``check`` wrote its graph snapshot
    in 0.77 s with Python's thresholds, 0.26 s without collections)."""
    gc.set_threshold(max(gc.get_threshold()[0], THRESHOLD), 50, 100)
    freeze_at_exit()  # the process's end need not scan the compile's objects again


class BuildProcess:
    """The collector's tuning for the builds of one MkDocs process (``site/build.py``
    calls it at its hooks)."""

    def __init__(self) -> None:
        self.idle = IdleCollector()  # --dirty: the collector runs between saves

    def starts(self) -> None:
        """``on_startup``: ``one_compile``'s tuning."""
        one_compile()

    def rebuild_starts(self) -> None:
        """A serve rebuild after the first build begins (``on_config``)."""
        self.idle.rebuild_starts()

    def rebuild_done(self) -> None:
        """A serve rebuild wrote the site, or failed."""
        self.idle.rebuild_done()

    def stop(self) -> None:
        """The server stops (``on_shutdown``)."""
        self.idle.stop()

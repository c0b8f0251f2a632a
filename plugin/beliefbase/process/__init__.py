"""How this process runs its builds: the garbage collector, and the heap forked
workers share.  Process tuning, not the pipeline: nothing here changes a byte of
a site, only when memory is scanned, frozen or given back.

One place for it, so that the compile and the site read as the pipeline:

* ``BuildProcess`` (``collector.py``): what the MkDocs adapter calls at its
  hooks.  At startup the collector's first threshold is raised and ``gc.freeze``
  is registered for the interpreter's exit (``one_compile``, also each
  ``beliefbase`` command's start); under ``mkdocs serve`` the collector
  is off during each rebuild and runs once the server is idle.
* ``frozen_for_fork``, ``trim`` and ``freeze_in_worker`` (``heap.py``): around
  each fork of workers (the parse, the mention scan, the panels, the pages
  converted ahead), free memory is returned and every object frozen, so a
  worker copies no page of this process's heap for nothing.

It uses ``gc``'s public API and glibc's ``malloc_trim``; nothing here reaches
into another library (that is ``speedups/``).  It sits with the shared helpers,
below the compile, since the compile's own parallel map forks with it.  The
figures behind each choice: docs/develop/speed.md.
"""

from __future__ import annotations

from .collector import BuildProcess, IdleCollector, freeze_at_exit, one_compile
from .heap import freeze_in_worker, frozen_for_fork, trim

__all__ = ["BuildProcess", "IdleCollector", "freeze_at_exit", "freeze_in_worker",
           "frozen_for_fork", "one_compile", "trim"]

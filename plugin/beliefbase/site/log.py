"""What the build log says: diagnostics, quietly, and the progress of a long build.

* The first build of a process logs each diagnostic; a code the compile finds
  more than ``MANY`` times shows its first ``FIRST`` and one line with its count,
  and one met page by page while pages render (``query-error``) its first
  ``MANY`` and, at the end, its count.
* A rebuild of ``mkdocs serve`` logs only the diagnostics that are new since
  the last build and those that are gone, then one summary line
  ("12 warnings, 3 new, 1 gone").  The full list is always in
  ``site/_beliefbase/diagnostics.json`` and in ``beliefbase check``.
* A first build of more than ``PROGRESS_NOTES`` notes says which stage it is in
  (compile, pages n/N) at most every ``PROGRESS_EVERY`` seconds.

Every line goes through MkDocs' plugin logger: ``mkdocs build --strict`` counts
the WARNING records, so each warning of a first build is one (its own line or
its code's count line), and a rebuild's summary line is a warning while
warnings remain.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from .. import diagnostics as diag
from ..terminal import printable

#: a code with more diagnostics than this in one build: its first few, then a count
MANY = 20
FIRST = 5
#: a rebuild's new (or gone) diagnostics of one code in one file shown (the rest: a count)
PER_FILE = 50
#: a first build of more notes than this shows its progress
PROGRESS_NOTES = 300
PROGRESS_EVERY = 5.0  # seconds


class DiagnosticLog:
    """Logs one build's diagnostics; kept for the whole ``mkdocs serve`` (``ServeState``)
    so that a rebuild compares with the last build that finished."""

    def __init__(self) -> None:
        self._last: frozenset[diag.Diagnostic] | None = None  # the last finished build's
        self._shown: set[diag.Diagnostic] = set()  # met in this build
        self._counts: Counter[str] = Counter()  # per code, in this build
        self._hidden: Counter[str] = Counter()  # per code, not shown one by one
        self._levels: dict[str, diag.Level] = {}
        self._summed: set[str] = set()  # codes whose count line is out already

    def begin(self, rebuild: bool) -> None:
        """A build starts (before its compile's diagnostics are shown); ``rebuild``: a
        later build of the same ``mkdocs serve`` (MkDocs keeps the plugin, and this
        log, for the whole process: a new ``mkdocs build`` in it starts afresh)."""
        if not rebuild:
            self._last = None
        self._shown = set()
        self._counts, self._hidden = Counter(), Counter()
        self._levels, self._summed = {}, set()

    def show(self, logger: Logger, found: Iterable[diag.Diagnostic], quiet: bool) -> None:
        """Log ``found`` (quiet: warnings as info, for the plugin option ``strict: false``):
        on a rebuild only those the last build did not have; on a first build each,
        but a code met more than ``MANY`` times shows its first ones and a count."""
        fresh = [d for d in found if d not in self._shown]
        self._shown.update(fresh)
        if self._last is not None:
            new = [d for d in fresh if d not in self._last]
            for d, more in diag.capped(new, PER_FILE):
                text = printable(str(d))  # titles and targets may hold terminal escapes
                if more:
                    text += f" (and {more:,} more {d.code} in this file)"
                logger.log(level_of(d.level, quiet), text)
            return
        by_code: dict[str, list[diag.Diagnostic]] = defaultdict(list)
        for d in fresh:
            by_code[d.code].append(d)
        shown: list[diag.Diagnostic] = []
        floods: dict[str, list[diag.Diagnostic]] = {}
        for code, group in by_code.items():
            before = self._counts[code]
            self._counts[code] += len(group)
            self._levels[code] = group[0].level
            if before == 0 and len(group) > MANY:  # a flood at once: its first, its count
                floods[code] = sorted(group, key=diag.sort_key)[:FIRST]
                self._hidden[code] += len(group) - FIRST
                continue
            room = max(MANY - before, 0) if code not in self._summed else 0
            shown += group[:room]
            self._hidden[code] += len(group) - min(room, len(group))
        for d in sorted(shown, key=diag.sort_key):
            logger.log(level_of(d.level, quiet), printable(str(d)))
        for code, first in sorted(floods.items()):
            for d in first:
                logger.log(level_of(d.level, quiet), printable(str(d)))
            self._summed.add(code)
            logger.log(level_of(self._levels[code], quiet),
                       f"{code}: {self._counts[code]:,} in all, the first {FIRST} above "
                       f"({_EVERY_ONE})")

    def end(self, logger: Logger, found: list[diag.Diagnostic], quiet: bool,
            where: str) -> None:
        """The build finished: on a rebuild the diagnostics gone since the last build
        and one summary line; on the first build the codes not shown one by one, then
        the count per code."""
        now = frozenset(found)
        last, self._last = self._last, now
        if last is None:
            for code in sorted(self._hidden):
                if self._hidden[code] and code not in self._summed:
                    logger.log(level_of(self._levels[code], quiet),
                               f"{code}: {self._counts[code]:,} in all, the first {MANY} "
                               f"above ({_EVERY_ONE})")
            counts = diag.summary(found)
            if counts:
                text = ", ".join(f"{n} {code}" for code, n in counts.items())
                logger.info(f"{len(found)} diagnostics: {text} (all in {where})")
            return
        gone = sorted(last - now, key=diag.sort_key)
        for d, more in diag.capped(gone, PER_FILE):
            text = f"fixed: {printable(str(d))}"
            logger.info(text + (f" (and {more:,} more fixed in this file)" if more else ""))
        logger.log(*summary_line(found, last, quiet, where))


_EVERY_ONE = "every one is in _beliefbase/diagnostics.json; `beliefbase check` prints them all"
Logger = logging.Logger | logging.LoggerAdapter  # type: ignore[type-arg]


def level_of(level: diag.Level, quiet: bool) -> int:
    if level is diag.Level.ERROR:
        return logging.ERROR
    if level is diag.Level.WARNING and not quiet:
        return logging.WARNING
    return logging.INFO


def summary_line(found: list[diag.Diagnostic], last: frozenset[diag.Diagnostic],
                 quiet: bool, where: str) -> tuple[int, str]:
    """A rebuild's one line: "12 warnings, 3 new, 1 gone" (a warning while warnings
    remain, so ``--strict`` counts it)."""
    levels = Counter(d.level for d in found)
    new = sum(1 for d in found if d not in last)
    gone = len(last - frozenset(found))
    parts = [_count(levels[diag.Level.ERROR], "error"),
             _count(levels[diag.Level.WARNING], "warning"),
             _count(levels[diag.Level.INFO], "info")]
    text = ", ".join(p for p in parts if p) or "no diagnostics"
    text += f", {new} new" + (f", {gone} gone" if gone else "") + f" (all in {where})"
    if levels[diag.Level.ERROR]:
        return logging.ERROR, text
    return (logging.WARNING if levels[diag.Level.WARNING] and not quiet else logging.INFO), text


def _count(n: int, what: str) -> str:
    if not n:
        return ""
    return f"{n:,} {what}" if what == "info" else f"{n:,} {what}{'s' if n != 1 else ''}"


class Progress:
    """Where a long first build is: its compile, then pages n/N, at most a line every
    ``every`` seconds (``clock``: a monotonic clock in seconds)."""

    def __init__(self, logger: Logger,
                 clock: Callable[[], float] = time.monotonic,
                 every: float = PROGRESS_EVERY, notes: int = PROGRESS_NOTES) -> None:
        self.logger = logger
        self.clock = clock
        self.every = every
        self.threshold = notes
        self.on = False
        self._total = 0
        self._done = 0
        self._said = 0.0
        self._started = 0.0

    def compiling(self, sources: int, first: bool) -> None:
        """The compile starts (``first``: the process's first build)."""
        self.on = first and sources > self.threshold
        if self.on:
            self._started = self._said = self.clock()
            self.logger.info(f"compiling {sources:,} files (parse, resolve, check)")

    def stage(self, done: str) -> None:
        """A stage of the compile is done (``Compiler.on_stage``): said when the last
        line is ``every`` seconds old."""
        if not self.on:
            return
        now = self.clock()
        if now - self._said >= self.every:
            self._said = now
            self.logger.info(f"compiling: {done} ({now - self._started:.1f} s)")

    def rendering(self, pages: int) -> None:
        """The compile is done; ``pages`` pages are rendered next."""
        if not self.on:
            return
        self._total, self._done = pages, 0
        now = self.clock()
        self.logger.info(f"compiled in {now - self._started:.1f} s; rendering {pages:,} pages")
        self._said = now

    def page(self) -> None:
        if not self.on:
            return
        self._done += 1
        now = self.clock()
        if now - self._said >= self.every and self._done < self._total:
            self._said = now
            self.logger.info(f"pages {self._done:,}/{self._total:,}")

    def done(self) -> None:
        self.on = False

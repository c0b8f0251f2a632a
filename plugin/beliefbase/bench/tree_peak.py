"""A process tree's peak memory that no clock can miss (issue 32).

``child._TreeSampler`` adds up the memory of a build's processes every 100 ms; on
a busy machine it can sample too late and miss a peak.  This measure is made of
what each process says about itself as it ends, so it is the same however the
processes were scheduled:

* every Python process of the tree (the build, its forked workers, the spawned
  search worker) runs ``install`` as it starts: a ``sitecustomize`` that
  ``run_child`` puts on the child's ``PYTHONPATH`` imports it;
* a process appends one line to a log as it starts (``+ pid``) and one as it ends
  (``- pid bytes``), at the interpreter's exit or at ``os._exit`` (how forked
  workers end), with its *own* peak: its high-water mark of resident memory
  (``VmHWM``); a forked process subtracts what it shared with its parent when it
  was forked (its ``VmRSS`` then, counted in the parent's peak already) and adds
  its private memory at its end (the pages it copied on writing, an upper bound of
  the copies it had at its peak);
* ``tree_peak`` reads the log in order (appends to one file are ordered) and
  returns the largest sum of the peaks of the processes alive at once: an upper
  bound of the tree's simultaneous peak (each process counted at its own peak).

A process killed by a signal writes no end; ``tree_peak`` says how many did not
(``unended``), and counts them at their start's size, zero.  Processes that are not
Python (a ``git`` a build runs) are not counted.
"""

from __future__ import annotations

import atexit
import os
import resource
import sys
from dataclasses import dataclass
from pathlib import Path

#: The environment variable naming the log (set by ``run_child(tree_peak=True)``).
ENV = "BELIEFBASE_TREE_PEAK_LOG"
#: What the ``sitecustomize`` put on the child's path says.
SITECUSTOMIZE = """\
try:
    from beliefbase.bench.tree_peak import install
except ImportError:
    pass
else:
    install()
"""
_RSS_UNIT = 1 if sys.platform == "darwin" else 1024

_forked_rss = 0  # this process's resident bytes when it was forked (0: not forked)
_ended = False


def _status(field: str) -> int:
    """A ``/proc/self/status`` figure in bytes (``VmHWM``, ``VmRSS``), 0 if unknown."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(field.encode() + b":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _private() -> int:
    """This process's private resident bytes (``smaps_rollup``), 0 if unknown."""
    total = 0
    try:
        with open("/proc/self/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith((b"Private_Clean:", b"Private_Dirty:")):
                    total += int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 0
    return total


def own_peak() -> int:
    """This process's own peak in bytes, as its end line reports it."""
    peak = _status("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RSS_UNIT
    if _forked_rss:
        peak = max(0, peak - _forked_rss) + _private()
    return peak


def _write(line: str) -> None:
    path = os.environ.get(ENV)
    if not path:
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        os.write(fd, line.encode())  # one write with O_APPEND: whole and in order
    finally:
        os.close(fd)


def _end() -> None:
    global _ended
    if not _ended:
        _ended = True
        _write(f"- {os.getpid()} {own_peak()}\n")


def _after_fork() -> None:
    global _forked_rss, _ended
    _forked_rss = _status("VmRSS") or 1
    _ended = False
    _write(f"+ {os.getpid()} {os.getppid()}\n")


def install() -> None:
    """Log this process's start and end, and those of the processes it forks."""
    if not os.environ.get(ENV) or getattr(os, "_tree_peak_exit", None):
        return
    _write(f"+ {os.getpid()} {os.getppid()}\n")
    atexit.register(_end)
    os.register_at_fork(after_in_child=_after_fork)
    real_exit = os._exit

    def _exit(code: int) -> None:  # how multiprocessing's forked workers end
        _end()
        real_exit(code)

    os._exit = _exit  # type: ignore[assignment]
    os._tree_peak_exit = real_exit  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class TreePeak:
    """The tree's peak (bytes), how many processes it counted, how many never ended."""

    peak: int
    processes: int
    unended: int


def tree_peak(log: Path) -> TreePeak:
    """The largest sum of own peaks of processes alive at once, from ``log``'s lines
    (a pid used again later is another process: each start begins a new one)."""
    try:
        lines = log.read_text(encoding="ascii").splitlines()
    except OSError:
        return TreePeak(0, 0, 0)
    events: list[tuple[bool, int]] = []  # (a start?, the process's number)
    current: dict[str, int] = {}  # pid -> the number of the process that has it now
    peaks: list[int | None] = []
    for line in lines:
        parts = line.split()
        if len(parts) != 3:
            continue  # a line cut short (the disk is full): nothing to count
        if parts[0] == "+":
            current[parts[1]] = len(peaks)
            peaks.append(None)
            events.append((True, current[parts[1]]))
        elif parts[0] == "-" and parts[1] in current:
            number = current.pop(parts[1])
            peaks[number] = int(parts[2])
            events.append((False, number))
    total = best = 0
    for start, number in events:
        total += (peaks[number] or 0) * (1 if start else -1)
        best = max(best, total)
    return TreePeak(best, len(peaks), sum(1 for p in peaks if p is None))

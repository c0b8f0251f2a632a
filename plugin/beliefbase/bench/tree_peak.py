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
  (``VmHWM``); a forked process subtracts the pages it still shares with its
  parent at its end (shared all along, so counted in the parent's peak: a page
  copied on writing is never shared again);
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
#: The variable naming the tree's first process (``install`` sets it there).
ROOT_ENV = "BELIEFBASE_TREE_PEAK_ROOT"
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


def _status(field: str, pid: str = "self") -> int:
    """A ``/proc/<pid>/status`` figure in bytes (``VmHWM``, ``VmRSS``), 0 if unknown."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
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


def own_peak() -> tuple[int, int, int]:
    """This process's own peak in bytes, as its end line reports it, then its
    high-water mark and the bytes it still shares (0 where it was not forked).

    A forked process's pages are its parent's until either writes one (then each
    has its copy); pages still shared at its end were shared all along (a copy is
    never shared again), and the parent's peak counts them.  So its own peak is at
    most its high-water mark less what it shares at its end."""
    hwm = _status("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RSS_UNIT
    if not _forked_rss:
        return hwm, hwm, 0
    shared = max(0, _status("VmRSS") - _private())
    return max(0, hwm - shared), hwm, shared


def _root_hwm() -> int:
    """The tree's first process's high-water mark so far (0 where unknown)."""
    root = os.environ.get(ROOT_ENV, "")
    if root == str(os.getpid()):
        return _status("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RSS_UNIT
    return _status("VmHWM", root) if root.isdigit() else 0


def _write(line: str) -> None:
    path = os.environ.get(ENV)
    if not path:
        return
    line = line.replace("\n", f" {_root_hwm()}\n")
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
        own, hwm, shared = own_peak()
        _write(f"- {os.getpid()} {own} {hwm} {_forked_rss} {shared}\n")


def _after_fork() -> None:
    global _forked_rss, _ended
    _forked_rss = _status("VmRSS") or 1
    _ended = False
    _write(f"+ {os.getpid()} {os.getppid()}\n")


def install() -> None:
    """Log this process's start and end, and those of the processes it forks."""
    if not os.environ.get(ENV) or getattr(os, "_tree_peak_exit", None):
        return
    os.environ.setdefault(ROOT_ENV, str(os.getpid()))
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
    """The largest sum of the processes' own peaks alive at once, from ``log``.

    Each line ends with the first (root) process's high-water mark at that moment:
    between two lines the root used at most the later figure, the others at most
    their own peaks.  A pid used again later is another process."""
    try:
        lines = [line.split() for line in log.read_text(encoding="ascii").splitlines()]
    except OSError:
        return TreePeak(0, 0, 0)
    events: list[tuple[bool, int, int]] = []  # (a start?, the process's number, root's)
    current: dict[str, int] = {}  # pid -> the number of the process that has it now
    peaks: list[int | None] = []
    for parts in lines:
        if len(parts) < 4 or not parts[-1].isdigit():
            continue  # a line cut short (the disk is full): nothing to count
        if parts[0] == "+":
            current[parts[1]] = len(peaks)
            peaks.append(None)
            events.append((True, current[parts[1]], int(parts[-1])))
        elif parts[0] == "-" and parts[1] in current:
            number = current.pop(parts[1])
            peaks[number] = int(parts[2])
            events.append((False, number, int(parts[-1])))
    others = best = 0  # the peaks of the processes alive but the root
    for start, number, root in events:
        best = max(best, root + others)  # up to this line: the root, and those alive
        if number:
            others += (peaks[number] or 0) * (1 if start else -1)
    return TreePeak(best, len(peaks), sum(1 for p in peaks if p is None))

"""Run one measured command in a fresh child process: wall time and peak RSS.

``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` is the maximum over *all*
children a process ever waited for, so it cannot tell the second build from the
first.  Instead each measurement is one ``Popen`` reaped with ``os.wait4(pid)``,
whose rusage covers exactly that child.  Its ``ru_maxrss`` is still a maximum
over single processes, though: a build that runs worker processes uses the
*sum* of their memory.  So while the child runs, ``_TreeSampler`` also adds up
the memory of every process in its session (``/proc``, every 100 ms): each
one's proportional set size (PSS, from ``smaps_rollup``), which counts a page
shared by N processes (a forked worker shares its parent's) as 1/N in each, so
the sum is the memory the machine needs; RSS would count shared pages once per
process.  Where Linux has no ``smaps_rollup``, RSS is summed instead; where it has,
a process whose PSS cannot be read at that moment (forked or ending) is left out,
its RSS being mostly its parent's pages.  The
peak reported is the larger of the sum and the main process's ``ru_maxrss``, where
that is its own: Linux starts a forked child's high-water mark at its parent's
(``fork`` copies it, ``exec`` keeps it), so a child whose ``ru_maxrss`` is no more
than this harness's own peak may be reporting the harness (``_own_maxrss``): a
600-note Material build read 84 MB after the test run had grown to that, 66 MB in
a fresh one.

That sum is sampled, so a busy machine can make it miss a peak.  ``tree_peak=True``
also measures what no clock can miss (``tree_peak``): each Python process of the
tree reports its own peak as it ends, and the largest sum of those alive at once is
``ChildResult.tree_peak_bytes``, an upper bound of the simultaneous peak (the tests
compare it; the benchmark reports the sampled figure, the machine's real need).

The command is the one a user runs (``python -m mkdocs build ...``), so the time
includes interpreter start-up and imports, as a user's build does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .tree_peak import ENV as _TREE_LOG
from .tree_peak import SITECUSTOMIZE, TreePeak
from .tree_peak import tree_peak as _tree_peak

#: ru_maxrss is in KiB on Linux and in bytes on macOS.
_RSS_UNIT = 1 if sys.platform == "darwin" else 1024


@dataclass(frozen=True, slots=True)
class ChildResult:
    """How one child process ran."""

    seconds: float
    max_rss_bytes: int  # max(ru_maxrss of wait4, sampled sum over the process tree)
    returncode: int  # -9 when it was killed at the timeout
    stdout: str
    stderr: str
    timed_out: bool = False
    #: with ``tree_peak=True``: the processes' own peaks summed (``tree_peak``)
    tree: TreePeak | None = None

    @property
    def tree_peak_bytes(self) -> int:
        """The deterministic peak (``tree_peak=True``), else the sampled one."""
        return self.tree.peak if self.tree is not None else self.max_rss_bytes

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def last_json(self) -> dict[str, Any]:
        """The last stdout line parsed as JSON (how ``worker`` reports)."""
        for line in reversed(self.stdout.splitlines()):
            if line.startswith("{"):
                data = json.loads(line)
                if isinstance(data, dict):
                    return data
        raise ValueError("the child printed no JSON line")

    def error_tail(self, lines: int = 8) -> str:
        """The end of stderr, to say why a child failed."""
        return "\n".join(self.stderr.strip().splitlines()[-lines:])


def run_child(
    args: list[str],
    *,
    cwd: Path | None = None,
    timeout: float | None = None,
    env: dict[str, str] | None = None,
    tree_peak: bool = False,
) -> ChildResult:
    """Run ``args`` to completion and measure it; kill its process group at ``timeout``.
    ``tree_peak``: also sum the processes' own peaks (``tree_peak``; Python processes)."""
    with contextlib.ExitStack() as stack:
        log = None
        if tree_peak:
            where = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bb-peak-")))
            (where / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
            log = where / "tree.log"
            env = dict(os.environ if env is None else env)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(where),
                                                             env.get("PYTHONPATH"))))
            env[_TREE_LOG] = str(log)
        result = _run(args, cwd, timeout, env)
        if log is None:
            return result
        return dataclasses.replace(result, tree=_tree_peak(log))
    raise AssertionError("unreachable")  # pragma: no cover - ExitStack swallows nothing


def _run(args: list[str], cwd: Path | None, timeout: float | None,
         env: dict[str, str] | None) -> ChildResult:
    fired = threading.Event()
    harness = _high_water()  # before the fork
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            args, cwd=cwd, env=env, stdout=out, stderr=err, start_new_session=True
        )
        killer = threading.Timer(timeout, _kill_group, (proc.pid, fired)) if timeout else None
        if killer:
            killer.start()
        sampler = _TreeSampler(proc.pid)
        sampler.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            sampler.stop()
            if killer:
                killer.cancel()
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: keep Popen from waiting
        out.seek(0)
        err.seek(0)
        return ChildResult(
            seconds=seconds,
            max_rss_bytes=max(_own_maxrss(usage.ru_maxrss, harness) * _RSS_UNIT,
                              sampler.peak),
            returncode=proc.returncode,
            stdout=out.read(),
            stderr=err.read(),
            timed_out=fired.is_set(),
        )


def _own_maxrss(child: int, harness: int) -> int:
    """The child's ``ru_maxrss`` where it is the child's own, else 0: one no larger than
    the harness's own peak at the fork may be the harness's, inherited."""
    return child if child > harness else 0


def _high_water() -> int:
    """This process's peak resident memory, in ``ru_maxrss``'s unit: ``VmHWM``, its
    memory's own high-water mark (``ru_maxrss`` is tainted the same way: by the
    process that forked this one)."""
    with (contextlib.suppress(OSError, ValueError, IndexError),
          open("/proc/self/status", encoding="ascii", errors="replace") as f):
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 // _RSS_UNIT
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def python_module(module: str, *args: str) -> list[str]:
    """``[sys.executable, "-m", module, *args]``: the child uses this interpreter."""
    return [sys.executable, "-m", module, *args]


#: The sampler's share of the time: reading ``smaps_rollup`` walks the page
#: tables of the process read, 35 ms for a 2 GB build, on one of the cores the
#: build uses and under the lock its memory mappings need.  Every 100 ms, that
#: took a third of a core from the 20,000-note build and almost nothing from the
#: Python-Markdown floor it is compared with; the pause after a sample is now
#: at least this many times as long as the sample took.
_SAMPLER_PAUSE = 19


class _TreeSampler(threading.Thread):
    """Peak of the summed PSS (else RSS) of all processes in session ``sid`` (``/proc``),
    sampled every ``interval`` seconds, or less often where a sample is slow
    (``_SAMPLER_PAUSE``)."""

    def __init__(self, sid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.sid = sid
        self.interval = interval
        self.peak = 0
        self._done = threading.Event()
        self._page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
        #: does Linux say each process's PSS here (else its RSS is summed)?
        self._rollup = _pss(str(os.getpid())) is not None

    def run(self) -> None:
        if not os.path.isdir("/proc"):
            return
        pause = self.interval
        while not self._done.wait(pause):
            start = time.perf_counter()
            self.peak = max(self.peak, self._sample())
            pause = max(self.interval, _SAMPLER_PAUSE * (time.perf_counter() - start))

    def stop(self) -> None:
        self._done.set()
        self.join()

    def _sample(self) -> int:
        members = dict(session_members(self.sid))
        total = 0
        for entry, fields in members.items():
            if vforked(fields, members):
                continue
            pss = _pss(entry)
            if pss is None and self._rollup:
                # a process forked or ending this moment: its pages are its parent's, or
                # going; its RSS counted them again (a 600-note build read 129 MB, 96
                # otherwise, one sample in five builds)
                continue
            total += pss if pss is not None else int(fields[21]) * self._page  # rss: field 24
        return total


def vforked(fields: list[bytes], members: dict[str, list[bytes]]) -> bool:
    """Is this a child between ``vfork`` and ``exec`` (``subprocess`` starts every
    program so), which shares its parent's memory and would count it twice (or, the
    build's own first moment, count the harness that started it)?  Its parent waits
    uninterruptibly (state ``D``) with the same address space (size, stack) until the
    child runs its program."""
    ppid = fields[1].decode()
    parent = members.get(ppid) or stat_fields(ppid)  # (the harness itself, for the build's first)
    return (parent is not None and parent[0] == b"D"
            and parent[20] == fields[20] and parent[25] == fields[25])  # vsize, startstack


def stat_fields(pid: str) -> list[bytes] | None:
    """The fields of ``/proc/<pid>/stat`` after "(comm)", or None (it ended meanwhile);
    ``pid`` may be ``<pid>/task/<tid>``: a thread's."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def session_members(sid: int) -> Iterator[tuple[str, list[bytes]]]:
    """Each live process of session ``sid``: its ``/proc`` entry and the fields of its
    ``stat`` after "(comm)" (state ppid pgrp session ...)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = stat_fields(entry)
        if fields is not None and int(fields[3]) == sid:  # (None: it ended meanwhile)
            yield entry, fields


def _pss(pid: str) -> int | None:
    """Bytes of the proportional set size of ``pid`` (None where Linux does not say)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _kill_group(pid: int, fired: threading.Event) -> None:
    # start_new_session made the child a group leader: this reaches the child
    # and whatever it started, and nothing else.
    fired.set()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)

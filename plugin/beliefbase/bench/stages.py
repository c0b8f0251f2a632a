"""``python -m beliefbase.bench.stages``: where a build's peak memory is, stage by stage.

The peak memory the benchmark reports (``child.run_child``: the PSS of the build's
processes, summed) says how much, not when.  This runs one cold build of a
generated vault (``mkdocs build``, ``.beliefbase/`` removed first) and reads every
process of the build's session every ``--interval`` seconds (PSS and private
memory, ``smaps_rollup``) while the build itself marks where it is: a
``sitecustomize`` on the child's ``PYTHONPATH`` wraps the build's steps
(``MkDocsBuild``'s hooks, the compile, the panels made ahead) once
``beliefbase.plugin`` is imported, in the build's first process only (the search
worker, a fresh interpreter, imports nothing more).  Each stage is printed with its
largest sum and, at that moment, each process's PSS and private memory::

    python -m beliefbase.bench.stages --vault /tmp/v5000 --config mkdocs.explorer.yml

The stages are those of ``plugin.py`` (``docs/reference/benchmarks.md``, "Peak
memory"): the compile, the page loop (the worker converting pages ahead and its
children writing the compile's files), the panels made ahead, the template loop
(with the search worker), and ``on_post_build`` (the search index written).
A sample costs a few milliseconds of the machine; the figures are a little
below ``run_child``'s tree peak, an upper bound.

Each sample also counts the session's threads that are running or waiting for a
core (state ``R`` in ``/proc/<pid>/task/<tid>/stat``), so each stage says how long
it took and how many of the machine's cores it wanted on average: a stage that
wants one core on a two-core machine leaves the other idle (wall-clock time no
other process of the build uses).  A busy machine stretches the stages but not
what they want.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .child import session_members, stat_fields, vforked

#: the environment variable naming the log of marks (set for the child)
ENV = "BELIEFBASE_STAGE_LOG"

#: the build's steps marked, as (module, class, method)
MARKED = (("beliefbase.compile.compiler", "Compiler", "compile"),
          ("beliefbase.site.build", "MkDocsBuild", "nav"),
          ("beliefbase.site.build", "MkDocsBuild", "env"),
          ("beliefbase.site.session", "SiteBuild", "make_panels_ahead"),
          ("beliefbase.site.build", "MkDocsBuild", "post_page"),
          ("beliefbase.site.build", "MkDocsBuild", "pages_done"),
          ("beliefbase.site.build", "MkDocsBuild", "write_outputs"))

SITECUSTOMIZE = '''\
import os, sys, time, importlib, importlib.abc, importlib.util
_LOG = os.environ.get("%(env)s")
_ROOT = int(os.environ.setdefault("%(env)s_ROOT", str(os.getpid())))  # the build's
def _mark(name):
    if os.getpid() != _ROOT:
        return
    fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.write(fd, ("%%.4f %%s\\n" %% (time.time(), name)).encode())
    os.close(fd)
def _wrap(owner, name):
    real, first = getattr(owner, name), [True]
    def marked(*args, **kwargs):
        if not first[0]:
            return real(*args, **kwargs)
        first[0] = name != "post_page"  # the template loop: its first page alone
        _mark(name)
        try:
            return real(*args, **kwargs)
        finally:
            _mark(name + " end")
    setattr(owner, name, marked)
class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "beliefbase.plugin":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            for where, owner, name in %(marked)r:
                _wrap(getattr(importlib.import_module(where), owner), name)
        spec.loader.exec_module = exec_module
        return spec
if _LOG and _ROOT == os.getpid():
    _mark("start")
    sys.meta_path.insert(0, _Finder())
'''


@dataclass(frozen=True, slots=True)
class Sample:
    """One reading of the session: seconds since the start, pid -> (PSS, private) bytes,
    and how many of its threads were running or runnable."""

    at: float
    processes: dict[int, tuple[int, int]]
    runnable: int = 0

    @property
    def total(self) -> int:
        return sum(pss for pss, _ in self.processes.values())


@dataclass(frozen=True, slots=True)
class Stage:
    """From one mark to the next: the sample with the largest sum in it."""

    name: str
    start: float
    peak: Sample | None
    seconds: float = 0.0
    wanted: float = 0.0  # cores wanted on average (runnable threads, at most ``os.cpu_count()``)


def stages(marks: Sequence[tuple[float, str]], samples: Sequence[Sample],
           cores: int | None = None) -> list[Stage]:
    """Each stage between consecutive ``marks`` (seconds, name) with its largest sample,
    its length and the cores it wanted on average (of ``cores``); the last runs to the
    end (its length: to the last sample)."""
    cores = cores or os.cpu_count() or 1
    last = samples[-1].at if samples else 0.0
    found = []
    ends = [at for at, _ in marks[1:]] + [float("inf")]
    for (start, name), end in zip(marks, ends, strict=True):
        inside = [s for s in samples if start <= s.at < end]
        wanted = sum(min(s.runnable, cores) for s in inside) / len(inside) if inside else 0.0
        found.append(Stage(name, start, max(inside, key=lambda s: s.total, default=None),
                           max(0.0, min(end, last) - start), wanted))
    return found


#: what each mark begins
LABELS = {"start": "start, config", "compile": "compile", "compile end": "files",
          "nav": "nav", "nav end": "page loop", "env": "env",
          "make_panels_ahead": "panels made ahead", "make_panels_ahead end": "env, after",
          "env end": "first page", "post_page": "first page", "post_page end": "template loop",
          "pages_done": "pages done", "pages_done end": "search index written",
          "write_outputs": "our outputs", "write_outputs end": "end"}


def table(found: Sequence[Stage], root: int) -> str:
    """The stages as text: the peak sum in MB, then each process's PSS/private MB."""
    lines = [f"{'at s':>7}  {'stage':26} {'s':>6} {'cores':>5} {'MB':>5}  "
             "processes (PSS/private MB; R: the build)"]
    for stage in found:
        if stage.peak is None:
            continue
        parts = " ".join(f"{'R' if pid == root else pid}:{pss >> 20}/{own >> 20}"
                         for pid, (pss, own) in sorted(stage.peak.processes.items(),
                                                        key=lambda p: p[0] != root))
        name = LABELS.get(stage.name, stage.name)
        lines.append(f"{stage.start:7.2f}  {name:26} {stage.seconds:6.2f} {stage.wanted:5.2f} "
                     f"{stage.peak.total >> 20:5}  {parts}")
    return "\n".join(lines)


def _rollup(pid: str) -> tuple[int, int] | None:
    pss = own = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    pss = int(line.split()[1]) * 1024
                elif line.startswith((b"Private_Clean:", b"Private_Dirty:")):
                    own += int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return pss, own


def _runnable(pid: str) -> int:
    """How many of ``pid``'s threads are running or waiting for a core."""
    count = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for tid in tasks:
        fields = stat_fields(f"{pid}/task/{tid}")
        count += fields is not None and fields[0] == b"R"  # (None: it ended meanwhile)
    return count


def _session(sid: int) -> tuple[dict[int, tuple[int, int]], int]:
    found, runnable = {}, 0
    members = dict(session_members(sid))
    for entry, fields in members.items():
        if vforked(fields, members):
            continue  # its parent's memory, counted once
        if (memory := _rollup(entry)) is not None:
            found[int(entry)] = memory
            runnable += _runnable(entry)
    return found, runnable


def measure(args: list[str], cwd: Path | None = None, interval: float = 0.05
            ) -> tuple[list[Stage], int]:
    """Run ``args`` (a build) and return its stages and the build's pid."""
    with tempfile.TemporaryDirectory(prefix="bb-stages-") as where:
        (Path(where) / "sitecustomize.py").write_text(
            SITECUSTOMIZE % {"env": ENV, "marked": MARKED}, encoding="utf-8")
        log = Path(where) / "marks.log"
        env = {**os.environ, ENV: str(log), "NO_MKDOCS_2_WARNING": "1",
               "PYTHONPATH": os.pathsep.join(filter(None, (where, os.environ.get("PYTHONPATH"))))}
        start = time.time()
        child = subprocess.Popen(args, cwd=cwd, env=env, start_new_session=True,
                                 stdout=subprocess.DEVNULL)
        samples = []
        while child.poll() is None:
            processes, runnable = _session(child.pid)
            samples.append(Sample(time.time() - start, processes, runnable))
            time.sleep(interval)
        if child.returncode:
            raise SystemExit(f"the build failed ({child.returncode})")
        marks = [(float(at) - start, name) for at, name in
                 (line.split(" ", 1) for line in log.read_text(encoding="ascii").splitlines())]
    return stages(marks, samples), child.pid


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vault", type=Path, required=True, help="a generated vault")
    parser.add_argument("--config", default="mkdocs.explorer.yml", help="inside the vault")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between samples")
    args = parser.parse_args(argv)
    if not os.path.isdir("/proc"):
        raise SystemExit("needs Linux's /proc")
    shutil.rmtree(args.vault / ".beliefbase", ignore_errors=True)  # cold
    found, root = measure([sys.executable, "-m", "mkdocs", "build", "-q", "-f",
                           str(args.vault / args.config)], interval=args.interval)
    print(table(found, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())

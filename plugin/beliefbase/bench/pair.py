"""``python -m beliefbase.bench.pair``: two checkouts' cold builds of one vault, in turn.

Issue 17's "within 10%" compares the build of one commit with another's on a
shared, loaded machine, where a build's time drifts by more than the gap being
measured.  So the two run in turn, A B, then B A, ... (each round starts with
the one that ran second in the last), every build cold (``.beliefbase/``
removed first, a new site folder), and each figure is the **CPU time** (user +
system) of the build's whole process tree: the build's own and that of every
worker it forked (the conversion worker, the panels' and the parse's), which
wall time on a busy machine does not show.  The ratio is taken pair by pair,
so a slow stretch of the machine slows both halves of a pair.

The CPU is the growth of ``RUSAGE_CHILDREN`` across one ``run_child``: a
child's descendants that it waited for are added to it.  On Linux this process
first makes itself a subreaper, so a descendant left behind (reparented) is
waited for here and counted too.

Each checkout needs its own interpreter with that checkout installed (a
virtualenv per worktree)::

    git worktree add ../old 54817bc      # then a venv there with it installed
    python -m beliefbase.bench.pair --vault /tmp/v1000 --config mkdocs.explorer.yml \\
        --rounds 3 ../new/.venv/bin/python ../old/.venv/bin/python

The vault is ``beliefbase.bench.vault.generate_vault`` and ``explorer_config``'s.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .child import ChildResult, run_child

#: ``prctl(PR_SET_CHILD_SUBREAPER, 1)``: orphaned descendants come to this process.
_PR_SET_CHILD_SUBREAPER = 36


@dataclass
class Run:
    """One build: which side, its CPU and wall seconds, its peak memory."""

    side: str  # "a" or "b"
    cpu: float
    wall: float
    rss_mb: float


@dataclass
class Pairing:
    """Every run of a paired measurement, in the order they ran."""

    runs: list[Run] = field(default_factory=list)

    def cpu(self, side: str) -> list[float]:
        return [r.cpu for r in self.runs if r.side == side]

    def ratios(self) -> list[float]:
        """A/B of each round's two builds."""
        return [a / b for a, b in zip(self.cpu("a"), self.cpu("b"), strict=True) if b > 0]

    def summary(self) -> dict[str, float | list[float]]:
        a, b, ratios = self.cpu("a"), self.cpu("b"), self.ratios()
        return {
            "a_cpu_median_s": round(statistics.median(a), 2),
            "b_cpu_median_s": round(statistics.median(b), 2),
            "ratio_median": round(statistics.median(ratios), 3),
            "ratio_min": round(min(ratios), 3),
            "ratio_max": round(max(ratios), 3),
            "ratios": [round(r, 3) for r in ratios],
        }


def become_subreaper() -> bool:
    """Make orphaned descendants this process's children (Linux); False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    with contextlib.suppress(OSError, AttributeError):
        return bool(ctypes.CDLL(None).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    return False


def tree_cpu(args: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None
             ) -> tuple[float, ChildResult]:
    """CPU seconds of ``args`` and every descendant it (or this process) waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = run_child(args, cwd=cwd, env=env)
    while True:  # descendants reparented here (subreaper): wait for them too
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, result


def paired(
    commands: dict[str, Callable[[], list[str]]],
    rounds: int,
    *,
    before_each: Callable[[], None] = lambda: None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    report: Callable[[Run], None] = lambda run: None,
) -> Pairing:
    """Run ``commands["a"]`` and ``["b"]`` ``rounds`` times each, A B, B A, A B, ...

    Each command is made just before it runs (a new site folder each time);
    ``before_each`` runs before every build (the cache removed)."""
    pairing = Pairing()
    for index in range(rounds):
        for side in ("a", "b") if index % 2 == 0 else ("b", "a"):
            before_each()
            cpu, result = tree_cpu(commands[side](), cwd=cwd, env=env)
            if not result.ok:
                raise RuntimeError(f"build {side} failed: {result.error_tail()}")
            run = Run(side, cpu, result.seconds, result.max_rss_bytes / 2**20)
            pairing.runs.append(run)
            report(run)
    return pairing


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m beliefbase.bench.pair",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("python_a", help="the interpreter of checkout A (the ratio's numerator)")
    p.add_argument("python_b", help="the interpreter of checkout B")
    p.add_argument("--vault", type=Path, required=True, help="the generated vault's folder")
    p.add_argument("--config", default="mkdocs.explorer.yml", help="inside the vault")
    p.add_argument("--rounds", type=int, default=3)
    options = p.parse_args(argv)
    vault = options.vault.absolute()
    config = vault / options.config
    sites = Path(tempfile.mkdtemp(prefix="bench-pair-"))
    become_subreaper()

    def command(python: str) -> Callable[[], list[str]]:
        def make() -> list[str]:
            site = tempfile.mkdtemp(prefix="site-", dir=sites)
            return [python, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", site]
        return make

    def report(run: Run) -> None:
        print(f"{run.side}: cpu {run.cpu:.2f} s, wall {run.wall:.2f} s, "
              f"peak {run.rss_mb:.0f} MB", file=sys.stderr, flush=True)

    try:
        pairing = paired(
            {"a": command(options.python_a), "b": command(options.python_b)},
            options.rounds,
            before_each=lambda: shutil.rmtree(vault / ".beliefbase", ignore_errors=True),
            cwd=vault, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, report=report)
        print(json.dumps(pairing.summary()), flush=True)  # before the long delete below
    finally:
        # the sites are kept until the last build: deleting thousands of files slows
        # the next build's mkdir and open calls for a while (see run.py)
        shutil.rmtree(sites, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

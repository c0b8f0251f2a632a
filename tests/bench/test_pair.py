"""The paired A/B measurement (``beliefbase.bench.pair``): turns, whole-tree CPU."""

from __future__ import annotations

import json
import subprocess
import sys

from beliefbase.bench.pair import Pairing, Run, paired

#: About a fifth of a second of CPU in a grandchild the child does not wait for.
_ORPHAN_WORK = (
    "import os, time\n"
    "if os.fork() == 0:\n"
    "    end = time.process_time() + 0.3\n"
    "    while time.process_time() < end: pass\n"
    "    os._exit(0)\n"
)


def test_sides_take_turns_and_ratios_are_per_round() -> None:
    order: list[str] = []
    commands = {side: (lambda side=side: [sys.executable, "-c", "pass"]) for side in "ab"}
    pairing = paired(commands, 3, report=lambda run: order.append(run.side))
    assert order == ["a", "b", "b", "a", "a", "b"]
    assert len(pairing.ratios()) == 3
    summary = Pairing([Run("a", 2.0, 1, 1), Run("b", 1.0, 1, 1),
                       Run("b", 2.0, 1, 1), Run("a", 3.0, 1, 1)]).summary()
    assert summary["ratios"] == [2.0, 1.5]
    assert summary["ratio_median"] == 1.75


def test_cpu_counts_a_descendant_left_behind() -> None:
    # in a child interpreter: becoming a subreaper must not change the test process
    script = (
        "import json, sys\n"
        "from beliefbase.bench.pair import become_subreaper, tree_cpu\n"
        "become_subreaper()\n"
        f"cpu, result = tree_cpu([sys.executable, '-c', {_ORPHAN_WORK!r}])\n"
        "print(json.dumps([cpu, result.ok]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout
    cpu, ok = json.loads(out.strip().splitlines()[-1])
    assert ok
    assert cpu >= 0.25  # the orphan's 0.3 s, which the child never waited for

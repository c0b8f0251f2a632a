"""Memory grows with the vault as plain Material's does (issue 20), not faster.

A 5,000-note build must stay within 2x plain Material with a minimal nav; what
decides that is the memory each note adds, so this compares how much the peak
grows from a 600-note to a 1,200-note vault, ours (with the explorer) against
Material without navigation, each build a fresh child process.  Both sizes are
above every worker's threshold (search, panels, Markdown ahead, the parse's pool,
the cache written aside: 200-500 notes), so none starts inside the span.

The peak is the benchmark's (``run_child``'s ``max_rss_bytes``: the PSS of the
build's processes summed, sampled every 100 ms, what issue 31 item 5 is measured
on), each figure the median of three builds: a sample can miss a peak on a busy
machine (issue 32), which three builds make unlikely to decide.  The tree peak
(``tree_peak=True``: each process's own high-water mark, summed as if all were
reached at once) is an upper bound, not what the machine holds: 28 November 2026
it grew 2.3x Material's over this span while the summed PSS grew 1.64x.  Run it
with ``pytest -m slow tests/bench/test_memory.py``; the figures for 1k, 5k and
20k notes are in docs/reference/benchmarks.md.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from beliefbase.bench.vault import explorer_config, generate_vault, nonav_config

pytestmark = pytest.mark.slow

#: ours per note / Material's per note; the goal is a total within 2x, and the
#: imports and the search worker are a constant part of ours (measured 1.64, 1.22 since
#: the panels read a packed view, 28 November, and 1.45-1.6 measured from a small
#: process (``_MEASURE``) the same day: from this one, run after the other bench tests,
#: Material's 600 notes read pytest's 84 MB, not its own 66, and the test failed;
#: from 1,000 to 5,000 notes 1.77, from 5,000 to 20,000 1.82)
SLOPE_LIMIT = 2.0
#: builds per figure, the median kept
BUILDS = 3


#: one measured build, from a small process: a child's ``ru_maxrss`` starts at the
#: high-water mark of the process it was forked from, so from this (large) test process
#: a small build's is not its own (``bench.child._own_maxrss`` then drops it, and only
#: the sampled sum counts: the two sizes would not be measured alike)
_MEASURE = """
import json, sys
from beliefbase.bench.child import run_child
result = run_child(sys.argv[1:], timeout=600)
print(json.dumps([result.ok, result.max_rss_bytes, result.error_tail()]))
"""


def _peak_mb(config: Path, site: Path) -> float:
    """The median peak of ``BUILDS`` cold builds (the vault's cache removed first)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    peaks = []
    for _ in range(BUILDS):
        shutil.rmtree(config.parent / ".beliefbase", ignore_errors=True)
        shutil.rmtree(site, ignore_errors=True)
        measured = subprocess.run(
            [sys.executable, "-c", _MEASURE, sys.executable, "-m", "mkdocs", "build", "-q",
             "-f", str(config), "-d", str(site)],
            env=env, capture_output=True, text=True, check=True)
        ok, peak, error = json.loads(measured.stdout.strip().splitlines()[-1])
        assert ok, error
        peaks.append(peak / 2**20)
    return statistics.median(peaks)


def test_memory_per_note_within_twice_materials(tmp_path: Path) -> None:
    peaks: dict[str, list[float]] = {"ours": [], "material": []}
    for n in (600, 1200):
        vault = generate_vault(tmp_path / f"v{n}", n)
        peaks["ours"].append(_peak_mb(explorer_config(vault), tmp_path / f"ours{n}"))
        peaks["material"].append(_peak_mb(nonav_config(vault), tmp_path / f"material{n}"))
    ours = peaks["ours"][1] - peaks["ours"][0]
    material = peaks["material"][1] - peaks["material"][0]
    print("peaks (MB):", peaks)
    assert ours <= SLOPE_LIMIT * max(material, 1.0), peaks

"""``bench.stages``: each stage of a build with the largest sum of its processes' memory,
from the marks the build wrote and the samples read meanwhile."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from beliefbase.bench.stages import MARKED, SITECUSTOMIZE, Sample, stages, table

MB = 1 << 20


def test_each_stage_has_its_largest_sample() -> None:
    marks = [(0.0, "start"), (1.0, "compile"), (2.0, "nav end"), (4.0, "post_page end")]
    samples = [Sample(0.5, {1: (30 * MB, 30 * MB)}),
               Sample(1.5, {1: (80 * MB, 80 * MB)}),
               Sample(2.5, {1: (60 * MB, 40 * MB), 2: (50 * MB, 30 * MB)}),
               Sample(3.5, {1: (70 * MB, 50 * MB), 2: (20 * MB, 5 * MB)}),
               Sample(5.0, {1: (100 * MB, 99 * MB), 3: (28 * MB, 27 * MB)})]
    found = stages(marks, samples)
    assert [(s.name, s.peak.total // MB if s.peak else None) for s in found] == [
        ("start", 30), ("compile", 80), ("nav end", 110), ("post_page end", 128)]
    text = table(found, root=1)
    assert "page loop" in text and "R:60/40 2:50/30" in text
    assert "template loop" in text and "R:100/99 3:28/27" in text


def test_a_stage_without_a_sample_is_left_out() -> None:
    found = stages([(0.0, "start"), (0.01, "nav"), (0.02, "nav end")],
                   [Sample(0.5, {7: (10 * MB, 9 * MB)}, runnable=1)])
    assert [s.peak is None for s in found] == [True, True, False]
    assert table(found, root=7).splitlines()[1:] == [
        "   0.02  page loop                    0.48  1.00    10  R:10/9"]


def test_each_stage_says_how_long_it_took_and_the_cores_it_wanted() -> None:
    """Runnable threads, at most the machine's cores, averaged over the stage's
    samples: a stage that wants one core of two leaves the other idle."""
    marks = [(0.0, "start"), (1.0, "nav end"), (3.0, "post_page end")]
    samples = [Sample(0.5, {1: (MB, MB)}, runnable=1),
               Sample(1.5, {1: (MB, MB), 2: (MB, MB)}, runnable=2),
               Sample(2.5, {1: (MB, MB), 2: (MB, MB)}, runnable=5),  # waiting: still 2 cores
               Sample(3.5, {1: (MB, MB)}, runnable=0)]
    found = stages(marks, samples, cores=2)
    assert [(s.seconds, s.wanted) for s in found] == [(1.0, 1.0), (2.0, 2.0), (0.5, 0.0)]


@pytest.mark.skipif(sys.platform != "linux", reason="marks need a build's /proc")
def test_the_sitecustomize_marks_the_steps_it_names(tmp_path: Path) -> None:
    """What the child runs is Python, and wraps only steps that exist."""
    text = SITECUSTOMIZE % {"env": "X", "marked": MARKED}
    compile(text, "sitecustomize.py", "exec")
    import importlib

    for module, owner, name in MARKED:
        assert callable(getattr(getattr(importlib.import_module(module), owner), name))


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_running_process_counts_its_running_thread() -> None:
    import os

    from beliefbase.bench.stages import _runnable

    assert _runnable(str(os.getpid())) >= 1  # this thread, reading
    assert _runnable("999999999") == 0  # gone: nothing

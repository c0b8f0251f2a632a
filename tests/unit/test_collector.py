"""``IdleCollector``: the garbage collector is off during serve rebuilds and
runs again once the server has been idle."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from beliefbase.process import collector as idle_gc
from beliefbase.process.collector import IdleCollector

from tests.waiting import wait_until


@pytest.fixture(autouse=True)
def _collector_on_afterwards() -> Iterator[None]:
    yield
    gc.enable()


class _Timers:
    """``threading.Timer`` for ``idle_gc``, fired by the test (no timing): the timers
    started, in order."""

    def __init__(self) -> None:
        self.started: list[_Timer] = []

    def __call__(self, interval: float, function: Any) -> _Timer:
        timer = _Timer(function)
        self.started.append(timer)
        return timer


class _Timer:
    def __init__(self, function: Any) -> None:
        self.function, self.cancelled, self.daemon = function, False, False

    def start(self) -> None:
        pass

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        """The idle moment came: what ``threading.Timer`` does then."""
        if not self.cancelled:
            self.function()


@pytest.fixture
def timers(monkeypatch: pytest.MonkeyPatch) -> _Timers:
    made = _Timers()
    monkeypatch.setattr(idle_gc.threading, "Timer", made)
    return made


def test_off_during_a_rebuild_on_again_when_idle(timers: _Timers) -> None:
    collector = IdleCollector(idle=0.05)
    collector.rebuild_starts()
    assert not gc.isenabled()
    collector.rebuild_done()
    assert not gc.isenabled()  # not at once: the browser reloads first
    [timer] = timers.started
    timer.fire()
    assert gc.isenabled()


def test_a_new_rebuild_before_the_idle_moment_keeps_it_off(timers: _Timers) -> None:
    collector = IdleCollector(idle=0.2)
    collector.rebuild_starts()
    collector.rebuild_done()
    collector.rebuild_starts()  # saved again within the idle time
    timers.started[0].fire()  # its moment comes: it was cancelled
    assert not gc.isenabled()
    collector.rebuild_done()
    timers.started[-1].fire()
    assert gc.isenabled()


def test_the_real_timer_turns_it_on() -> None:
    """One test with ``threading.Timer`` itself (waits for it, whatever the load)."""
    collector = IdleCollector(idle=0.01)
    collector.rebuild_starts()
    collector.rebuild_done()
    assert wait_until(gc.isenabled, seconds=120)


def test_continuous_saving_never_defers_for_long() -> None:
    collector = IdleCollector(idle=10.0)
    states = []
    for _ in range(idle_gc.MAX_DEFERRED + 1):
        collector.rebuild_starts()
        states.append(gc.isenabled())
        collector.rebuild_done()
    assert states == [False] * idle_gc.MAX_DEFERRED + [True]
    collector.stop()


def test_stop_leaves_it_on_and_no_timer() -> None:
    collector = IdleCollector(idle=0.05)
    collector.rebuild_starts()
    collector.rebuild_done()
    collector.stop()
    assert gc.isenabled()
    collector.rebuild_starts()
    collector.stop()
    assert gc.isenabled()


def test_objects_alive_at_exit_are_frozen_once_the_plugin_started() -> None:
    """The interpreter's exit skips scanning the build's objects (0.9 s at 1,000 notes)."""
    script = (
        "import atexit, gc\n"
        # registered first, so it runs last: after the plugin's handler
        "atexit.register(lambda: print('frozen', gc.get_freeze_count(), flush=True))\n"
        "from beliefbase.plugin import BeliefbasePlugin\n"
        "plugin = BeliefbasePlugin()\n"
        "plugin.on_startup(command='build', dirty=False)\n"
        "first = atexit._ncallbacks()\n"
        "BeliefbasePlugin().on_startup(command='serve', dirty=True)\n"
        "print('registered again', atexit._ncallbacks() - first, flush=True)\n"
        "keep = [[i] for i in range(50_000)]\n"
        "print('before exit', gc.get_freeze_count(), flush=True)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "registered again 0"
    assert out[1] == "before exit 0"  # nothing happens while the process goes on
    assert int(out[2].split()[1]) > 50_000

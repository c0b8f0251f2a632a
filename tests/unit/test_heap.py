"""``heap``: what a forked worker inherits is frozen for it (issue 20)."""

from __future__ import annotations

import gc
import os

from beliefbase.builder.parallel import shared_map
from beliefbase.process.heap import frozen_for_fork, trim


def _frozen(_item: int) -> tuple[int, int]:
    return os.getpid(), gc.get_freeze_count()


def test_objects_are_frozen_for_the_fork_and_unfrozen_after() -> None:
    kept = [object() for _ in range(100)]
    with frozen_for_fork():
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_freeze_count() == 0


def test_shared_map_workers_inherit_a_frozen_heap_and_this_process_does_not_keep_it() -> None:
    assert gc.get_freeze_count() == 0
    seen = shared_map(_frozen, list(range(64)), 2)
    here = os.getpid()
    assert all(count > 0 for pid, count in seen if pid != here)  # the worker's collections
    assert all(count == 0 for pid, count in seen if pid == here)  # leave the shared pages alone
    assert gc.get_freeze_count() == 0


def test_trim_is_safe_to_call_anywhere() -> None:
    trim()
    trim()

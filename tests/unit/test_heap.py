"""``heap``: what a forked worker shares stays frozen until the workers end (issue 20)."""

from __future__ import annotations

import gc

from beliefbase.builder.parallel import shared_map
from beliefbase.heap import shared_with_forks, trim


def _frozen(_item: int) -> int:
    return gc.get_freeze_count()


def test_objects_stay_frozen_while_workers_share_them() -> None:
    kept = [object() for _ in range(100)]
    gc.collect()
    with shared_with_forks():
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_freeze_count() == 0


def test_shared_map_keeps_this_process_frozen_until_its_workers_end() -> None:
    assert gc.get_freeze_count() == 0
    seen = shared_map(_frozen, list(range(64)), 2)  # this process's share is made frozen
    assert all(count > 0 for count in seen)
    assert gc.get_freeze_count() == 0


def test_trim_is_safe_to_call_anywhere() -> None:
    trim()
    trim()

"""shared_map: this process and worker processes share chunks; results keep their order."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from beliefbase.builder import parallel
from beliefbase.builder.parallel import UnclaimedIndexes, shared_map

_PARENT = os.getpid()


#: the barrier of the test running: every process waits there on its first chunk, so
#: each does one whatever the machine's load (forked workers inherit it)
_MEET: list[Any] = [None]
_MET: set[int] = set()  # the processes that passed it (each process has its own copy)


def _square_meeting(n: int) -> tuple[int, int]:
    if os.getpid() not in _MET:
        _MET.add(os.getpid())
        _MEET[0].wait(timeout=300)  # (bounded only so that a broken worker fails the test)
    return n * n, os.getpid()


@pytest.fixture
def meeting(request: pytest.FixtureRequest) -> Any:
    """The barrier for ``processes`` processes (the test's parameter)."""
    import multiprocessing

    _MET.clear()
    _MEET[0] = multiprocessing.get_context("fork").Barrier(request.node.callspec.params[
        "processes"])
    yield _square_meeting
    _MEET[0] = None


def _die_in_worker(n: int) -> int:
    if os.getpid() != _PARENT:
        os._exit(3)  # a worker dies without a word
    time.sleep(0.005)
    return n


@pytest.mark.parametrize("processes", [2, 3])
def test_results_in_order_from_every_process(processes: int, meeting: Any) -> None:
    results = shared_map(meeting, list(range(160)), processes)
    assert [square for square, _ in results] == [n * n for n in range(160)]
    pids = {pid for _, pid in results}
    assert os.getpid() in pids and len(pids) == processes


def test_a_dead_worker_is_an_eof_not_a_hang() -> None:
    with pytest.raises(EOFError):
        shared_map(_die_in_worker, list(range(160)), 2)


def test_unclaimed_indexes_are_handed_out_once() -> None:
    import multiprocessing

    unclaimed = UnclaimedIndexes(multiprocessing.get_context("fork"), 6)
    assert unclaimed.back() == 5
    assert unclaimed.take(2)  # the front takes 2 and gives up 0 and 1
    assert unclaimed.front() == 3
    assert unclaimed.back() == 4
    assert not unclaimed.take(4)  # the back has it
    assert unclaimed.front() is None and unclaimed.back() is None

@pytest.mark.parametrize("processes", [2, 3])
def test_spilled_results_are_read_back_a_chunk_at_a_time(processes: int,
                                                         meeting: Any) -> None:
    from beliefbase.builder.parallel import spilled_map

    spilled = spilled_map(meeting, list(range(160)), processes)
    try:
        chunks = -(-160 // spilled.size)
        results = [r for i in range(chunks) for r in spilled.chunk(i)]
        assert [square for square, _ in results] == [n * n for n in range(160)]
        assert len({pid for _, pid in results}) == processes
        assert spilled.chunk(chunks - 1) == results[(chunks - 1) * spilled.size:]  # again
    finally:
        spilled.close()


def test_a_worker_ends_after_its_items_and_another_takes_its_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``worker_items``: each worker makes one chunk of at most that many items and
    ends (its copies of this heap's pages go with it), and this process forks the
    next between two of its own items.  Here this process's first items each wait
    for one more worker to have ended, so six workers come one after the other
    whatever the machine's load."""
    import multiprocessing

    from beliefbase.builder.parallel import spilled_map

    from tests.waiting import wait_until

    ended = multiprocessing.get_context("fork").Value("i", 0)
    real = parallel._spill_work

    def spill_work(*args: Any) -> None:
        try:
            real(*args)  # sent where its chunk lies
        finally:
            with ended.get_lock():
                ended.value += 1

    monkeypatch.setattr(parallel, "_spill_work", spill_work)
    waited = [0]

    def square(n: int) -> tuple[int, int]:
        if os.getpid() == _PARENT and waited[0] < 6:
            waited[0] += 1
            assert wait_until(lambda: ended.value >= waited[0], 300)
        return n * n, os.getpid()

    spilled = spilled_map(square, list(range(64)), 2, worker_items=4)
    try:
        assert spilled.size == 4
        results = [r for i in range(16) for r in spilled.chunk(i)]
    finally:
        spilled.close()
    assert [square for square, _ in results] == [n * n for n in range(64)]
    made: dict[int, int] = {}
    for _, pid in results:
        made[pid] = made.get(pid, 0) + 1
    workers = {pid: count for pid, count in made.items() if pid != _PARENT}
    assert len(workers) >= 6 and all(count <= 4 for count in workers.values())


def test_a_dead_spilling_worker_is_an_eof_not_a_hang() -> None:
    from beliefbase.builder.parallel import spilled_map

    with pytest.raises(EOFError):
        spilled_map(_die_in_worker, list(range(160)), 2)


def test_work_apart_brings_back_its_result_and_leaves_this_heap_alone() -> None:
    """``apart``: the work runs in a forked child (what it changes stays there) and
    only its result comes back; a child that fails gives None (do it here)."""
    touched: list[int] = []

    def work() -> dict[str, tuple[int, ...]]:
        touched.append(os.getpid())
        return {"a": (1, 2), "b": ()}

    assert parallel.apart(work) == {"a": (1, 2), "b": ()}
    assert touched == []  # appended in the child only

    def fails() -> None:
        raise ValueError("no")

    assert parallel.apart(fails) is None

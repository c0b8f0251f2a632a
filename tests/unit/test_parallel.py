"""shared_map: this process and worker processes share chunks; results keep their order."""

from __future__ import annotations

import os
import time

import pytest
from beliefbase.builder.parallel import shared_map

_PARENT = os.getpid()


def _square_slowly_here(n: int) -> tuple[int, bool]:
    here = os.getpid() == _PARENT
    if here and n % 100 == 0:
        time.sleep(0.01)  # once a chunk: the workers surely get some
    return n * n, here


def _die_in_worker(n: int) -> int:
    if os.getpid() != _PARENT:
        os._exit(3)  # a worker dies without a word
    if n % 100 == 0:
        time.sleep(0.01)
    return n


@pytest.mark.parametrize("processes", [2, 3])
def test_results_in_order_from_every_process(processes: int) -> None:
    results = shared_map(_square_slowly_here, list(range(1600)), processes)
    assert [square for square, _ in results] == [n * n for n in range(1600)]
    assert {here for _, here in results} == {True, False}


def test_a_dead_worker_is_an_eof_not_a_hang() -> None:
    with pytest.raises(EOFError):
        shared_map(_die_in_worker, list(range(1600)), 2)

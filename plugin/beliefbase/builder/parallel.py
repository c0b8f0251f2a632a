"""Work shared between this process and a few worker processes, chunk by chunk.

``ProcessPoolExecutor`` moves work and results through threads of this
process; while this process computes too, each of their steps waits for the
GIL (a 5 ms switch interval), and the workers starve.  Here no thread is
involved: the workers inherit the items (fork; spawn pickles them once), claim
chunks from the front of the shared ``UnclaimedIndexes`` (the site's
``render_ahead`` takes pages the same way) while this process claims them
from the back, and each sends all its results in one message at the end,
pickled chunk by chunk as it goes (so that the pickling is shared out too, and
only the transfer and unpickling wait at the end).  When the other CPUs are
busy, this process simply computes more of the chunks.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, TypeVar

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")

#: Chunks per process: small enough to even out, large enough to cost little to claim.
_CHUNKS_PER_PROCESS = 8


def map_if_it_pays(
    func: Callable[[_Item], _Result], items: Sequence[_Item], threshold: int,
    workers: int = 0, *, fork_only: bool = False,
) -> list[_Result] | None:
    """``shared_map`` over one process per CPU (at most 4), or None where that would
    not pay (fewer than ``threshold`` items, one CPU, no ``fork`` if ``fork_only``:
    ``func`` then cannot be pickled) or a worker failed: the caller does the work
    in this process, as it would without workers.

    ``workers``: 0 = one per CPU (at most 4), 1 = none (always None).
    """
    count = workers or min(os.cpu_count() or 1, 4)
    if (count <= 1 or len(items) < threshold
            or (fork_only and "fork" not in mp.get_all_start_methods())):
        return None
    try:
        return shared_map(func, items, count)
    except (OSError, EOFError, pickle.PicklingError):
        return None


def shared_map(
    func: Callable[[_Item], _Result], items: Sequence[_Item], processes: int
) -> list[_Result]:
    """``[func(item) for item in items]``, computed here and in ``processes - 1`` workers.

    ``func`` must be a module-level function (spawn imports it).  Raises
    ``EOFError`` if a worker dies, or ``OSError`` if none can be started.
    """
    size = max(16, -(-len(items) // (_CHUNKS_PER_PROCESS * processes)))
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    fork = "fork" in mp.get_all_start_methods()
    context = mp.get_context("fork") if fork else mp.get_context("spawn")
    unclaimed = UnclaimedIndexes(context, len(chunks))
    workers: list[tuple[Any, Connection]] = []
    try:
        for _ in range(processes - 1):
            reader, writer = context.Pipe(duplex=False)
            worker = context.Process(target=_work, args=(func, chunks, unclaimed, writer),
                                     daemon=True)
            worker.start()
            writer.close()  # the worker's copy stays open: EOF here means it died
            workers.append((worker, reader))
        done: dict[int, list[_Result]] = {}
        while (i := unclaimed.back()) is not None:
            done[i] = [func(item) for item in chunks[i]]
        for worker, reader in workers:
            for i, pickled in reader.recv().items():
                done[i] = pickle.loads(pickled)  # noqa: S301 - from our own worker
            worker.join()
        return [result for i in range(len(chunks)) for result in done[i]]
    finally:
        for worker, reader in workers:
            reader.close()
            if worker.is_alive():
                worker.terminate()
                worker.join()


def _work(
    func: Callable[[_Item], _Result],
    chunks: list[Sequence[_Item]],
    unclaimed: UnclaimedIndexes,
    writer: Connection,
) -> None:
    done: dict[int, bytes] = {}
    while (i := unclaimed.front()) is not None:
        done[i] = pickle.dumps([func(item) for item in chunks[i]], pickle.HIGHEST_PROTOCOL)
    writer.send(done)
    writer.close()


class UnclaimedIndexes:
    """The indexes of ``0 .. size - 1`` no process has claimed yet: some processes claim
    them from the front, others from the back, until the two meet (shared with the
    processes it is given to)."""

    def __init__(self, context: Any, size: int) -> None:
        self._bounds = context.Array("i", [0, size - 1])  # next from the front, the back

    def front(self) -> int | None:
        """The next index from the front, or None once the two ends have met."""
        with self._bounds.get_lock():
            front, back = self._bounds[0], self._bounds[1]
            if front > back:
                return None
            self._bounds[0] = front + 1
            return int(front)

    def back(self) -> int | None:
        """The next index from the back, or None once the two ends have met."""
        with self._bounds.get_lock():
            front, back = self._bounds[0], self._bounds[1]
            if front > back:
                return None
            self._bounds[1] = back - 1
            return int(back)

    def take(self, i: int) -> bool:
        """Take ``i`` for the front (giving up any index before it), unless the back has."""
        with self._bounds.get_lock():
            if i > self._bounds[1]:
                return False
            self._bounds[0] = max(self._bounds[0], i + 1)
            return True

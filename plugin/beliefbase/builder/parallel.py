"""Work shared between this process and a few worker processes, chunk by chunk.

``ProcessPoolExecutor`` moves work and results through threads of this
process; while this process computes too, each of their steps waits for the
GIL (a 5 ms switch interval), and the workers starve.  Here no thread is
involved: the workers inherit the items (fork; spawn pickles them once), claim
chunks from the front of a shared pair of bounds while this process claims them
from the back, and each sends all its results in one message at the end,
pickled chunk by chunk as it goes (so that the pickling is shared out too, and
only the transfer and unpickling wait at the end).  When the other CPUs are
busy, this process simply computes more of the chunks.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, TypeVar

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")

#: Chunks per process: small enough to even out, large enough to cost little to claim.
_CHUNKS_PER_PROCESS = 8


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
    bounds = context.Array("i", [0, len(chunks) - 1])  # next chunk from the front, the back
    workers: list[tuple[Any, Connection]] = []
    try:
        for _ in range(processes - 1):
            reader, writer = context.Pipe(duplex=False)
            worker = context.Process(target=_work, args=(func, chunks, bounds, writer),
                                     daemon=True)
            worker.start()
            writer.close()  # the worker's copy stays open: EOF here means it died
            workers.append((worker, reader))
        done: dict[int, list[_Result]] = {}
        while (i := _claim(bounds, from_back=True)) is not None:
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
    bounds: Any,
    writer: Connection,
) -> None:
    done: dict[int, bytes] = {}
    while (i := _claim(bounds, from_back=False)) is not None:
        done[i] = pickle.dumps([func(item) for item in chunks[i]], pickle.HIGHEST_PROTOCOL)
    writer.send(done)
    writer.close()


def _claim(bounds: Any, from_back: bool) -> int | None:
    """The index of the next unclaimed chunk at one end, or None when none is left."""
    with bounds.get_lock():
        front, back = bounds[0], bounds[1]
        if front > back:
            return None
        if from_back:
            bounds[1] = back - 1
            return int(back)
        bounds[0] = front + 1
        return int(front)

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

``spilled_map`` is the same for results read one chunk at a time much later
(the panels under every page, taken as the theme renders it): each process
appends its chunks, pickled, to an unnamed temporary file of its own and sends
only where each lies, so no process holds all the results at once (a
5,000-note build held its 70 MB of panels three times over at the hand-over:
the worker's, the pickled message, this process's copy).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import tempfile
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import IO, Any, Generic, TypeVar

from ..process.heap import frozen_for_fork

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
    count = workers_that_pay(len(items), threshold, workers, fork_only=fork_only)
    if count is None:
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
    _size, chunks = _chunked(items, processes)
    fork = "fork" in mp.get_all_start_methods()
    context = mp.get_context("fork") if fork else mp.get_context("spawn")
    unclaimed = UnclaimedIndexes(context, len(chunks))
    workers: list[tuple[Any, Connection]] = []
    try:
        # forked, the workers share this heap (``process/heap.py``)
        with frozen_for_fork() if fork else contextlib.nullcontext():
            for _ in range(processes - 1):
                workers.append(_start(context, _work, (func, chunks, unclaimed)))
        done: dict[int, list[_Result]] = {}
        while (i := unclaimed.back()) is not None:
            done[i] = [func(item) for item in chunks[i]]
        for worker, reader in workers:
            for i, pickled in reader.recv().items():
                done[i] = pickle.loads(pickled)  # noqa: S301 - from our own worker
            worker.join()
        return [result for i in range(len(chunks)) for result in done[i]]
    finally:
        _stop(workers)


def workers_that_pay(items: int, threshold: int, workers: int, *, fork_only: bool
                      ) -> int | None:
    """How many processes a map of ``items`` should use, or None where workers would
    not pay (fewer than ``threshold`` items, one CPU, no ``fork`` when it is needed).
    ``workers``: 0 = one per CPU (at most 4), 1 = none."""
    count = workers or min(os.cpu_count() or 1, 4)
    if count <= 1 or items < threshold or (
            fork_only and "fork" not in mp.get_all_start_methods()):
        return None
    return count


def _chunked(items: Sequence[_Item], processes: int, most: int = 0
             ) -> tuple[int, list[Sequence[_Item]]]:
    """The chunk size for ``processes`` (at most ``most``, if given) and the chunks of
    ``items``."""
    size = max(16, -(-len(items) // (_CHUNKS_PER_PROCESS * processes)))
    if most:
        size = max(1, min(size, most))
    return size, [items[i:i + size] for i in range(0, len(items), size)]


def _start(context: Any, target: Callable[..., None], args: tuple[Any, ...]
           ) -> tuple[Any, Connection]:
    """A worker running ``target(*args, writer)``, and the reading end of its pipe."""
    reader, writer = context.Pipe(duplex=False)
    worker = context.Process(target=target, args=(*args, writer), daemon=True)
    worker.start()
    writer.close()  # the worker's copy stays open: EOF here means it died
    return worker, reader


def _stop(workers: list[tuple[Any, Connection]]) -> None:
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


def spilled_map_if_it_pays(
    func: Callable[[_Item], _Result], items: Sequence[_Item], threshold: int,
    workers: int = 0, worker_items: int = 0,
) -> Spilled[_Result] | None:
    """``spilled_map`` over one process per CPU (at most 4) with ``fork``, or None
    where that would not pay or a worker failed (as ``map_if_it_pays``)."""
    count = workers_that_pay(len(items), threshold, workers, fork_only=True)
    if count is None:
        return None
    try:
        return spilled_map(func, items, count, worker_items)
    except (OSError, EOFError, pickle.PicklingError):
        return None


class Spilled(Generic[_Result]):
    """The results of ``spilled_map``: item ``j`` is in chunk ``j // size``, which
    lies pickled in one of the processes' temporary files until it is read back."""

    def __init__(self, size: int, files: list[IO[bytes]],
                 where: dict[int, tuple[int, int, int]]) -> None:
        self.size = size
        self._files = files
        self._where = where  # chunk -> (file, offset, length)

    def chunk(self, i: int) -> list[_Result]:
        file, offset, length = self._where[i]
        data = read_at(self._files[file].fileno(), offset, length)
        result: list[_Result] = pickle.loads(data)  # noqa: S301 - our own processes'
        return result

    def close(self) -> None:
        for file in self._files:
            file.close()


def spilled_map(
    func: Callable[[_Item], _Result], items: Sequence[_Item], processes: int,
    worker_items: int = 0,
) -> Spilled[_Result]:
    """``[func(item) for item in items]`` as ``shared_map`` computes it (``fork`` only),
    each chunk written to a temporary file as it is made instead of kept.

    ``worker_items``: a worker makes one chunk of at most this many items, then
    ends, and this process forks another in its place as soon as it sees that
    (between two of its own items; 0: each worker makes chunks until none is left).
    A forked worker keeps the original of every page of the heap either process
    wrote to since the fork, and those pages grow with its life; a worker that
    ends gives them back."""
    size, chunks = _chunked(items, processes, worker_items)
    worker_chunks = 1 if worker_items else 0
    context = mp.get_context("fork")
    ends = UnclaimedIndexes(context, len(chunks))
    # closed by the caller through Spilled.close, or below when the map fails
    files: list[IO[bytes]] = [tempfile.TemporaryFile() for _ in range(processes)]  # noqa: SIM115
    #: each worker's process and pipe, by its file's number (None: between two)
    slots: list[tuple[Any, Connection] | None] = [None] * processes
    #: where each file's next chunk goes
    file_ends = [0] * processes
    where: dict[int, tuple[int, int, int]] = {}

    def fork(number: int) -> None:
        with frozen_for_fork():  # the workers share this heap (``process/heap.py``)
            slots[number] = _start(context, _spill_work,
                                   (func, chunks, ends, files[number], number,
                                    file_ends[number], worker_chunks))

    def received(number: int, *, wait: bool) -> bool:
        """The worker of ``number``'s chunks, if it ended (``wait``: once it has)."""
        slot = slots[number]
        if slot is None or not (wait or slot[1].poll()):
            return False
        worker, reader = slot
        done: dict[int, tuple[int, int, int]] = reader.recv()
        worker.join()
        reader.close()
        slots[number] = None
        where.update(done)
        file_ends[number] = max((at + length for _n, at, length in done.values()),
                                default=file_ends[number])
        return True

    def go_on() -> None:
        """Between two of this process's items: a worker that ended is replaced."""
        for number in range(1, processes):
            if received(number, wait=False) and ends.left():
                fork(number)

    try:
        for number in range(1, processes):
            fork(number)
        where.update(_spill(func, chunks, ends.back, files[0], 0,
                            between=go_on if worker_chunks else None))
        for number in range(1, processes):
            received(number, wait=True)
        return Spilled(size, files, where)
    except BaseException:
        for file in files:
            file.close()
        raise
    finally:
        _stop([slot for slot in slots if slot is not None])


def _spill(func: Callable[[_Item], _Result], chunks: list[Sequence[_Item]],
           take: Callable[[], int | None], file: IO[bytes], number: int,
           end: int = 0, limit: int = 0, between: Callable[[], None] | None = None,
           ) -> dict[int, tuple[int, int, int]]:
    """Make the chunks ``take`` gives (at most ``limit``, 0: all), appending each to
    ``file`` from ``end``, ``between()`` after each item; where each lies."""
    where: dict[int, tuple[int, int, int]] = {}
    while (not limit or len(where) < limit) and (i := take()) is not None:
        if between is None:
            made = [func(item) for item in chunks[i]]
        else:
            made = []
            for item in chunks[i]:
                made.append(func(item))
                between()
        data = pickle.dumps(made, pickle.HIGHEST_PROTOCOL)
        write_at(file.fileno(), data, end)
        where[i] = (number, end, len(data))
        end += len(data)
    return where


def _spill_work(func: Callable[[_Item], _Result], chunks: list[Sequence[_Item]],
                ends: UnclaimedIndexes, file: IO[bytes], number: int, end: int, limit: int,
                writer: Connection) -> None:
    writer.send(_spill(func, chunks, ends.front, file, number, end, limit))
    writer.close()


def write_at(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        view, offset = view[written:], offset + written


def read_at(fd: int, offset: int, length: int) -> bytes:
    parts = []
    while length > 0:
        part = os.pread(fd, length, offset)
        if not part:
            raise EOFError("a chunk of results is missing from its file")
        parts.append(part)
        offset, length = offset + len(part), length - len(part)
    return b"".join(parts)


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

    def left(self) -> bool:
        """Is any index unclaimed?"""
        with self._bounds.get_lock():
            return bool(self._bounds[0] <= self._bounds[1])

    def take(self, i: int) -> bool:
        """Take ``i`` for the front (giving up any index before it), unless the back has."""
        with self._bounds.get_lock():
            if i > self._bounds[1]:
                return False
            self._bounds[0] = max(self._bounds[0], i + 1)
            return True


def apart(work: Callable[[], _Result]) -> _Result | None:
    """``work()`` in a forked child, waited for, its result pickled back through an
    unnamed temporary file; None without ``fork`` or when the child failed (the
    caller then does the work itself).

    For work whose result is small and whose making is not: what it allocates and
    frees meanwhile never enters this process's heap, where the free memory it
    left behind was copied for every worker forked later (the unlinked mentions
    before the panels' burst: ``SiteBuild.make_panels_ahead``)."""
    if "fork" not in mp.get_all_start_methods():
        return None
    try:
        with tempfile.TemporaryFile(prefix="beliefbase-apart-") as file:
            with frozen_for_fork():
                pid = os.fork()
            if pid == 0:  # the child: never returns
                code = 1
                try:
                    write_at(file.fileno(), pickle.dumps(work(), pickle.HIGHEST_PROTOCOL), 0)
                    code = 0
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                return None
            data = read_at(file.fileno(), 0, os.fstat(file.fileno()).st_size)
            result: _Result = pickle.loads(data)  # noqa: S301 - our own child's
            return result
    except (OSError, EOFError, pickle.UnpicklingError):
        return None

"""The parse cache: content-addressed, versioned, safe to delete.

Key: (path, SHA-256 of the file's bytes, parse digest).  The parse digest
covers ``COMPILER_VERSION`` and every option a codec reads, so a cached
``ParsedDoc`` is exactly what parsing the bytes again would give — including
its diagnostics, which are replayed on every build (a second strict build of a
broken note fails just like the first).

In memory the cache also remembers each file's (mtime, size) so that an
unchanged file under ``mkdocs serve`` is not even read.  On disk it is one
pickle in ``cache_dir``, written atomically; a cache from another version, or
one that fails to load, is ignored (and rebuilt), never trusted.

Writing it pickles every parse, which takes long in a large vault.  A
``mkdocs build`` asks for that in the background (``save(background=True)``):
a forked child writes the snapshot it was born with while the build goes on
with the graph, the beliefs and the pages on the other core; ``wait()``, at
the end of the build, makes sure it is on disk.  A child that fails leaves
the cache marked unsaved, so the next save writes it again.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import time
from dataclasses import dataclass
from pathlib import Path

from ..atomic import replacing
from ..codecs.model import ParsedDoc
from ..ids import SrcPath
from .options import COMPILER_VERSION

CACHE_FILE = "parse-cache.pickle"
_FORMAT = f"beliefbase-parse-cache/{COMPILER_VERSION}"
_RACY_NS = 2_000_000_000

#: Fewer entries than this are written in this process: a fork costs more.
BACKGROUND_THRESHOLD = 500


#: what ``pickle.dump`` raises on an object it cannot write
_UNPICKLABLE = (RecursionError, pickle.PicklingError, TypeError, AttributeError)


def _picklable(entries: dict[SrcPath, _Entry]) -> dict[SrcPath, _Entry]:
    """The entries that pickle on their own."""
    kept: dict[SrcPath, _Entry] = {}
    for path, entry in entries.items():
        try:
            pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        except _UNPICKLABLE:
            continue
        kept[path] = entry
    return kept


@dataclass(slots=True)
class _Entry:
    digest: str  # content hash of the file
    stat: tuple[int, int] | None  # (mtime_ns, size) when it was hashed
    parsed: ParsedDoc


class ParseCache:
    """path -> last ParsedDoc, valid while the bytes (or the stat) match."""

    def __init__(self, parse_digest: str, cache_dir: Path | None = None) -> None:
        self.parse_digest = parse_digest
        self.cache_dir = cache_dir
        self._entries: dict[SrcPath, _Entry] = {}
        self._dirty = False
        self._saving: mp.process.BaseProcess | None = None  # the child writing it
        self.hits = 0
        self.misses = 0
        if cache_dir is not None:
            self._load()

    def by_stat(self, path: SrcPath, stat: tuple[int, int] | None) -> ParsedDoc | None:
        """The cached parse if the file's mtime and size are unchanged.

        A file modified within the last two seconds is "racily clean" (as git
        calls it): a same-size edit in the same clock tick would keep its
        mtime, so it is hashed instead.
        """
        entry = self._entries.get(path)
        if entry is None or stat is None or entry.stat != stat:
            return None
        if time.time_ns() - stat[0] < _RACY_NS:
            return None
        self.hits += 1
        return entry.parsed

    def by_digest(self, path: SrcPath, digest: str, stat: tuple[int, int] | None) -> (
        ParsedDoc | None
    ):
        """The cached parse if the content hash matches (refreshes the stat)."""
        entry = self._entries.get(path)
        if entry is not None and entry.digest == digest:
            if entry.stat != stat:
                entry.stat = stat
                self._dirty = True
            self.hits += 1
            return entry.parsed
        return None

    def store(self, parsed: ParsedDoc, stat: tuple[int, int] | None) -> None:
        self.misses += 1
        self._entries[parsed.path] = _Entry(parsed.digest, stat, parsed)
        self._dirty = True

    def retain(self, paths: set[SrcPath]) -> None:
        """Forget files that are gone."""
        stale = [p for p in self._entries if p not in paths]
        for path in stale:
            del self._entries[path]
        if stale:
            self._dirty = True

    def save(self, background: bool = False) -> None:
        """Write the cache atomically (temp file + rename); errors are not fatal.

        ``background``: in a forked child when the cache is large, so this
        process goes on meanwhile (``wait`` for it before relying on the file).
        """
        self.wait()  # one writer at a time (an older snapshot must not land last),
        # and a child that failed has left the cache dirty: this save writes it again
        if self.cache_dir is None or not self._dirty:
            return
        if (background and len(self._entries) >= BACKGROUND_THRESHOLD
                and "fork" in mp.get_all_start_methods()):
            try:
                child = mp.get_context("fork").Process(target=self._write_or_fail)
                child.start()
            except OSError:
                pass  # no process to spare: write it here
            else:
                self._saving = child
                self._dirty = False  # set again by ``wait`` if the child failed
                return
        if self._write():
            self._dirty = False

    def wait(self) -> None:
        """Until the cache a background ``save`` writes is on disk (or failed)."""
        child, self._saving = self._saving, None
        if child is not None:
            child.join()
            if child.exitcode != 0:
                self._dirty = True

    def _write(self) -> bool:
        assert self.cache_dir is not None
        try:
            with replacing(self.cache_dir / CACHE_FILE, "wb") as fh:
                try:
                    pickle.dump((_FORMAT, self.parse_digest, self._entries), fh,
                                protocol=pickle.HIGHEST_PROTOCOL)
                except _UNPICKLABLE:
                    # a note pickle cannot take (frontmatter nested hundreds of levels:
                    # RecursionError) is simply not cached; the others are
                    fh.seek(0)
                    fh.truncate()
                    pickle.dump((_FORMAT, self.parse_digest, _picklable(self._entries)), fh,
                                protocol=pickle.HIGHEST_PROTOCOL)
        except (OSError, *_UNPICKLABLE):
            return False
        return True

    def _write_or_fail(self) -> None:
        """The background child: its exit code tells ``wait`` whether it wrote."""
        if not self._write():
            raise SystemExit(1)

    def _load(self) -> None:
        assert self.cache_dir is not None
        file = self.cache_dir / CACHE_FILE
        try:
            with file.open("rb") as fh:
                fmt, digest, entries = pickle.load(fh)  # noqa: S301 - our own cache file
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError,
                AttributeError, ImportError, IndexError):
            return
        if fmt == _FORMAT and digest == self.parse_digest and isinstance(entries, dict):
            self._entries = entries

"""The notes' decoded texts, from the parse to the render: each read and decoded once,
kept on disk in between (``TextSpill``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Hashable
from typing import IO

from ..ids import SrcPath
from .parallel import read_at

#: what a text is written as: every ``str``, lone surrogates included, round-trips
_ENCODING, _ERRORS = "utf-8", "surrogatepass"

#: texts read back lately, kept decoded (a page reads its own text, its embeds', its
#: backlinks' sources several times in a row)
_RECENT = 8


class TextSpill:
    """Texts by key in an unnamed temporary file, decoded again at each ``get``.

    Held in memory, a build's texts (25 MB at 5,000 notes) are a third copy in every
    forked worker that reads them (CPython writes a reference count into the first
    page of each ``str``); in a file the workers share, they cost the build nothing
    but a ``pread`` and a decode per read (a few microseconds).  A forked process
    writes what it adds to a file of its own: the offsets of the file it inherited
    are this process's.  Where no file can be made or written (no room), the text
    stays in memory.
    """

    __slots__ = ("_file", "_end", "_pid", "_where", "_memory", "_recent")

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None  # this process's, made at the first put
        self._end = 0
        self._pid = os.getpid()
        #: key -> (the file it is in, offset, length)
        self._where: dict[Hashable, tuple[IO[bytes], int, int]] = {}
        self._memory: dict[Hashable, str] = {}  # what could not be written
        self._recent: dict[Hashable, str] = {}  # the last ones read, oldest first

    def __len__(self) -> int:
        return len(self._where) + len(self._memory)

    def put(self, key: Hashable, text: str) -> None:
        file = self._writable()
        data = memoryview(text.encode(_ENCODING, _ERRORS))
        if file is None:
            self._memory[key] = text
            return
        offset, length = self._end, len(data)
        try:
            while data:
                written = os.pwrite(file.fileno(), data, self._end)
                data, self._end = data[written:], self._end + written
        except (OSError, ValueError):
            self._memory[key] = text
            return
        self._where[key] = (file, offset, length)
        self._memory.pop(key, None)
        self._recent.pop(key, None)

    def get(self, key: Hashable) -> str | None:
        text = self._recent.get(key)
        if text is not None:
            return text
        text = self._memory.get(key)
        if text is not None:
            return text
        where = self._where.get(key)
        if where is None:
            return None
        text = self._read(*where)
        if text is not None:
            if len(self._recent) >= _RECENT:
                del self._recent[next(iter(self._recent))]
            self._recent[key] = text
        return text

    def snapshot(self) -> TextSpill:
        """The texts put so far, in a spill of their own that reads this one's files
        and touches nothing of it.

        A process forked from this one copies every page of the heap holding an
        object it reads (CPython writes the reference count), and this spill's table
        was filled over the whole page loop, its entries on thousands of pages; the
        panels' burst reads a few sources' texts for every page (``panels_ahead``),
        through a table made just before the fork, its entries made together.  The
        copy keeps its own recent texts and writes nothing to this one's files."""
        copy = TextSpill()
        copy._where = {key: (file, offset, length)
                       for key, (file, offset, length) in self._where.items()}
        copy._memory = dict(self._memory)
        return copy

    def forget(self, key: Hashable) -> None:
        self._where.pop(key, None)
        self._memory.pop(key, None)
        self._recent.pop(key, None)

    def close(self) -> None:
        """Forget every text; the file goes (this process's descriptor of it)."""
        self._where.clear()
        self._memory.clear()
        self._recent.clear()
        if self._file is not None:
            self._file.close()
            self._file = None
        self._end = 0

    def _writable(self) -> IO[bytes] | None:
        if self._pid != os.getpid():  # forked: the inherited file is the parent's to write
            self._pid, self._file, self._end = os.getpid(), None, 0
        if self._file is None:
            try:
                self._file = tempfile.TemporaryFile(prefix="beliefbase-texts-")  # noqa: SIM115
            except OSError:
                return None
        return self._file

    @staticmethod
    def _read(file: IO[bytes], offset: int, length: int) -> str | None:
        try:
            return read_at(file.fileno(), offset, length).decode(_ENCODING, _ERRORS)
        except (OSError, ValueError, EOFError):  # closed, or cut short
            return None


class DecodedTexts:
    """Each note's text as ``parse_markdown`` decoded it, kept for the page render
    (``SiteBuild.read_text``) instead of reading and decoding the file again.

    Part of what a compile returns (``Linked.texts``), keyed by path and digest: the
    render reads exactly the text the compile parsed.  Kept only when the compile
    was asked to keep them (``Compiler.keep_texts``: a build; the CLI and the tests
    keep nothing), on disk (``TextSpill``), until the build's pages are rendered
    (``close``).  A note parsed in a worker process (``builder.parallel``)
    comes back with the text the worker decoded (``parse.parse_many``).  One the
    parse cache knew by its content (read to hash it, a new modification time) is
    decoded by ``Compiler._parse``; one it knew by modification time and size was
    not read: the render reads it, once.

    The one mutable part of a compile: declared in ``__caches__`` (``frozen``), as
    each text is a pure function of the note's bytes at that digest.
    """

    __slots__ = ("_texts",)
    __caches__ = ("_texts",)

    def __init__(self) -> None:
        self._texts: TextSpill | None = None

    def open(self) -> None:
        """Keep what the parses of this process decode from now on."""
        self.close()
        self._texts = TextSpill()

    def close(self) -> None:
        """Keep nothing more; forget what was kept."""
        if self._texts is not None:
            self._texts.close()
        self._texts = None

    @property
    def keeping(self) -> bool:
        """Is a build keeping texts (``open``)?"""
        return self._texts is not None

    def keep(self, path: SrcPath, sha: str, text: str) -> None:
        if self._texts is not None:
            self._texts.put((path, sha), text)

    def snapshot(self) -> TextSpill | None:
        """The texts kept, for forked processes to read (``TextSpill.snapshot``)."""
        return self._texts.snapshot() if self._texts is not None else None

    def peek(self, path: SrcPath, sha: str) -> str | None:
        """The text kept for this version of ``path``, else None (read as often as
        asked, until ``close``)."""
        return self._texts.get((path, sha)) if self._texts is not None else None

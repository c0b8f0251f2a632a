"""MkDocs' writes of the rendered pages, made by a forked child while this process
renders the next ones.

MkDocs writes each page as soon as its template is rendered (``_build_page`` calls
``mkdocs.utils.write_file``: the page's folder made, its file created and written).
That is kernel time on the template loop's one process, 0.2 to 0.6 ms a page by
the disk's load (1,000 notes: 0.2 s of a 1.1 s loop), while the other core, which
parses the pages for Material's search (``search_offload``), has time to spare.
``PageWriter`` swaps ``mkdocs.utils.write_file`` for the template loop (from our
``on_env`` to our first ``on_post_build`` hook, which runs before any other
plugin's): each page's path and bytes go down a pipe to a bare interpreter started
before the loop (``page_writer_child.py``), which makes the folder and writes the
file as MkDocs would and answers one byte per page (``.`` written, ``!`` not).

What a reader of the site sees is the same: every file is written, in the same
order, before ``on_post_build``.  Nothing is lost: until the child answers for a
page, this process keeps its bytes (a few pages: the pipe blocks it when the child
falls behind), and writes again itself a page the child could not write, and every
page not answered for when the child dies or cannot be reached.  A page this
process cannot write either is an error in the log, and the build goes on, as the
render guard lets it when MkDocs' own write fails.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mkdocs.utils
from mkdocs.plugins import get_plugin_logger

from .page_writer_child import HEADER

log = get_plugin_logger(__name__)

#: Fewer pages than this are written here: the child costs more than it saves.
WRITER_THRESHOLD = 200

#: the child, run by its path
CHILD = Path(__file__).with_name("page_writer_child.py")

_FAILED = ord("!")

_Write = Callable[[bytes, str], None]


class PageWriter:
    """The child writing pages, and the pages handed to it not yet answered for."""

    def __init__(self) -> None:
        self.pending: deque[tuple[str, bytes]] = deque()
        self.failed: list[tuple[str, bytes]] = []
        self.handed = 0  # pages the child wrote
        self._real: _Write | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._jobs: Any = None  # the child's standard input (buffered)
        self._answers = -1  # its standard output (non-blocking)

    @classmethod
    def start(cls, pages: int) -> PageWriter | None:
        """A child writing the pages from now on; None where it would not pay."""
        if pages < WRITER_THRESHOLD or (os.cpu_count() or 1) < 2:
            return None
        writer = cls()
        try:
            writer._proc = proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(CHILD)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1 << 16)
        except OSError as e:
            log.debug("no child to write pages: %s", e)
            return None
        assert proc.stdin is not None and proc.stdout is not None
        writer._jobs = proc.stdin
        writer._answers = proc.stdout.fileno()
        os.set_blocking(writer._answers, False)
        writer._real = mkdocs.utils.write_file
        mkdocs.utils.write_file = writer.write
        return writer

    def write(self, content: bytes, output_path: str) -> None:
        """``mkdocs.utils.write_file``: the page handed to the child."""
        if self._jobs is None:
            self._write_here(content, output_path)
            return
        path = os.fsencode(output_path)
        self.pending.append((output_path, content))
        try:
            self._jobs.write(HEADER.pack(len(path), len(content)))
            self._jobs.write(path)
            self._jobs.write(content)
        except (OSError, ValueError):
            self._lost()
            return
        self._read_answers(block=False)

    def _read_answers(self, block: bool) -> None:
        """Take the child's answers so far (all of them, until it ends, with ``block``)."""
        if self._answers < 0:
            return
        if block:
            os.set_blocking(self._answers, True)
        while True:
            try:
                answers = os.read(self._answers, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                answers = b""
            if not answers:  # the child ended: what it did not answer for is written here
                self._answers = -1
                return
            for answer in answers:
                page = self.pending.popleft()
                if answer == _FAILED:
                    self.failed.append(page)
                else:
                    self.handed += 1

    def _lost(self) -> None:
        """The child cannot be reached: every page it has not answered for, here."""
        self._close_jobs()
        self._read_answers(block=True)
        self._reap()

    def finish(self) -> None:
        """Every page on disk (the child's, or this process's), ``write_file`` put back."""
        self._close_jobs()
        self._read_answers(block=True)
        self._reap()
        if self._real is not None and mkdocs.utils.write_file == self.write:
            mkdocs.utils.write_file = self._real  # type: ignore[assignment]
        unanswered = list(self.pending)
        self.pending.clear()
        for path, content in (*self.failed, *unanswered):
            self._write_here(content, path)
        self.failed = []

    def _write_here(self, content: bytes, output_path: str) -> None:
        assert self._real is not None
        try:
            self._real(content, output_path)
        except OSError as error:
            log.error("could not write %s: %s", output_path, error)

    def _close_jobs(self) -> None:
        jobs, self._jobs = self._jobs, None
        if jobs is not None:
            with contextlib.suppress(OSError, ValueError):
                jobs.close()

    def _reap(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
            self._answers = -1


def uninstall() -> None:
    """``mkdocs.utils.write_file`` put back, if a writer still holds it (its
    ``finish`` does that; a build that ended otherwise)."""
    writer = getattr(mkdocs.utils.write_file, "__self__", None)
    if isinstance(writer, PageWriter):
        writer.finish()

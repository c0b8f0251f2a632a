"""MkDocs' writes of the rendered pages, made by a second process while this one
renders the next pages.

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

The build never waits for the child: the pipe is written without blocking, and
when more than ``UNSENT_MAX`` bytes wait to go in, a page is written here instead
(a busy machine can leave the child unscheduled for milliseconds).  Every file is
written before ``on_post_build``, and nothing is lost: until the child answers for
a page this process keeps its bytes (what the pipe and ``UNSENT_MAX`` hold: a few
dozen pages at most), and it writes itself a page the child could not write and
every page not answered for when the child died.  A page this process cannot
write either is an error in the log, and the build goes on, as the render guard
lets it when MkDocs' own write fails.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

import mkdocs.utils
from mkdocs.plugins import get_plugin_logger

from .page_writer_child import HEADER

log = get_plugin_logger(__name__)

#: Fewer pages than this are written here: the child costs more than it saves.
WRITER_THRESHOLD = 200
#: Bytes handed over but not yet in the pipe above which a page is written here
#: instead: the build never waits for the child (a busy machine may leave it
#: unscheduled for milliseconds; waiting made a build 30% slower there).
UNSENT_MAX = 1 << 18
#: pages handed over before the child's answers are read (and their bytes let go)
ANSWERS_EVERY = 16
#: the pipe's size asked for (Linux, ``F_SETPIPE_SZ``; its default is 64 KB, two pages)
PIPE_SIZE = 1 << 20

#: the child, run by its path
CHILD = Path(__file__).with_name("page_writer_child.py")

_FAILED = ord("!")
_F_SETPIPE_SZ = 1031

_Write = Callable[[bytes, str], None]


class PageWriter:
    """The child writing pages, and the pages handed to it not yet answered for."""

    def __init__(self) -> None:
        self.pending: deque[tuple[str, bytes]] = deque()  # handed over, not answered for
        self.failed: list[tuple[str, bytes]] = []
        self.handed = 0  # pages the child wrote
        self.here = 0  # pages written here while the child was behind
        self._real: _Write | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._jobs = -1  # the child's standard input (non-blocking)
        self._unsent = bytearray()  # what the pipe did not take yet
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
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as e:
            log.debug("no child to write pages: %s", e)
            return None
        assert proc.stdin is not None and proc.stdout is not None
        writer._jobs, writer._answers = proc.stdin.fileno(), proc.stdout.fileno()
        with contextlib.suppress(OSError, AttributeError):  # a pipe of its default size
            import fcntl

            fcntl.fcntl(writer._jobs, _F_SETPIPE_SZ, PIPE_SIZE)
        os.set_blocking(writer._jobs, False)
        os.set_blocking(writer._answers, False)
        writer._real = mkdocs.utils.write_file
        mkdocs.utils.write_file = writer.write
        return writer

    def write(self, content: bytes, output_path: str) -> None:
        """``mkdocs.utils.write_file``: the page handed to the child, or written here
        when the child is behind."""
        self._send()
        if self._jobs < 0 or len(self._unsent) > UNSENT_MAX:
            self.here += 1
            self._write_here(content, output_path)
        else:
            path = os.fsencode(output_path)
            self.pending.append((output_path, content))
            self._unsent += HEADER.pack(len(path), len(content))
            self._unsent += path
            self._unsent += content
            self._send()
        if len(self.pending) >= ANSWERS_EVERY:  # (a system call each: not at every page)
            self._read_answers(block=False)

    def _send(self) -> None:
        """Into the pipe what it takes now (all of it, when the pipe blocks)."""
        while self._unsent and self._jobs >= 0:
            try:
                sent = os.write(self._jobs, self._unsent)
            except BlockingIOError:
                return
            except OSError:  # the child is gone: what it did not answer for is written here
                self._close_jobs()
                return
            del self._unsent[:sent]

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

    def finish(self) -> None:
        """Every page on disk (the child's, or this process's), ``write_file`` put back."""
        if self._jobs >= 0:
            os.set_blocking(self._jobs, True)
            self._send()
        self._close_jobs()
        self._read_answers(block=True)
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
            self._answers = -1
        if self._real is not None and mkdocs.utils.write_file == self.write:
            mkdocs.utils.write_file = self._real  # type: ignore[assignment]
        unanswered = list(self.pending)
        self.pending.clear()
        self._unsent.clear()
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
        """End of the child's input (it then ends); nothing more is handed over."""
        if self._jobs >= 0:
            self._jobs = -1
            if self._proc is not None and self._proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self._proc.stdin.close()


def uninstall() -> None:
    """``mkdocs.utils.write_file`` put back, if a writer still holds it (its
    ``finish`` does that; a build that ended otherwise)."""
    writer = getattr(mkdocs.utils.write_file, "__self__", None)
    if isinstance(writer, PageWriter):
        writer.finish()

"""Pages' Markdown converted on the second core while MkDocs converts the rest.

MkDocs converts every page's Markdown in one loop on one core: half of a
large build.  A worker converts pages from the back of MkDocs' loop while
MkDocs goes on from the front; they meet in the middle, and the worker ends
before the theme renders the first page.  In ``mkdocs build`` the second core
first does the work made from the compile alone (``first``: graph.json, the
reader's data, the graph page's search index; the unlinked mentions and the
panels' view), each step in a child forked from
this process after the last ``on_nav`` hook, one at a time; the worker is forked
once they ended, when MkDocs begins its next page.  Forked first, the worker held
the original of every page of the heap both this process and a step's child
wrote to, a third copy (5,000 ``gen_vault.py`` notes: 80 MB of the page loop's
486 MB peak); now no more than two processes share it at any time.

Memory decides what the worker does.  CPython writes a reference count into every
object it touches, so each page of the heap either process touches while both live
is counted twice.  Converting touches little besides the Markdown instance and the
links' targets.  Making the panels under the pages as well (backlinks, unlinked
mentions: every note's text), or keeping the worker alive through the template loop,
raised the build's peak memory (measured in docs/develop/speed.md).

For each of its pages the worker does what the loop would do up to the
conversion (``on_pre_page``, read the source, ``on_page_markdown``) and
converts it with this build's Markdown instance, keeping what
``Page.render`` reads back from it: the HTML, the table of contents' tokens,
the title from the first heading, the anchors present, the links to anchors
of other pages, and what was logged meanwhile.  MkDocs' loop then runs as
ever, every hook in this process; only when it converts a page the worker
already did, the shared Markdown instance (see ``markdown_reuse``) hands back
the worker's result instead, after checking that the Markdown given is the
Markdown the worker converted (a digest), and logs what the worker's
conversion logged at that point of the loop, so the log reads as in a serial
build.

The worker appends each page's result to an unnamed temporary file as soon
as it has it and, at the end, sends only where each one lies; this process
reads a page's result back when MkDocs reaches that page.  Neither process
holds all of them at once (sending them in one message held them three
times over at the moment of the hand-over, the build's peak: the worker's
dictionary, its pickled message, and this process's copy).

Tests build sites both ways and compare every byte and every log line.
Taking part needs: a site whose plugins are all known to leave converted
pages alone (ours and a search plugin; see ``plugin.pages_read_once``), the
reused Markdown instance, ``fork``, two cores and enough pages to pay for the
fork.  A worker that dies loses nothing: its share is done here.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import multiprocessing as mp
import os
import pickle
import signal
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from ..builder.parallel import UnclaimedIndexes
from ..process.heap import freeze_in_worker, frozen_for_fork

if TYPE_CHECKING:
    from markdown import Markdown
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files

    from .markdown_reuse import MarkdownReuse

log = logging.getLogger(__name__)

#: Below this many pages the fork and the hand-over cost more than they save.
AHEAD_THRESHOLD = 200


@dataclass(frozen=True)
class Converted:
    """What ``Page.render`` reads back from one conversion."""

    digest: bytes  # of the Markdown converted
    html: str
    toc_tokens: list[Any]
    title: str | None
    anchor_ids: set[str]
    links_to_anchors: dict[str, dict[str, str]]  # linked page's src_uri -> anchor -> link
    logged: list[tuple[str, int, str]]  # (logger, level, message)


def _digest(markdown: str) -> bytes:
    return hashlib.blake2b(markdown.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class RenderAhead:
    """The worker of one build and this process's side of the meeting in the middle."""

    def __init__(self, config: MkDocsConfig, files: Files, order: list[File],
                 reuse: MarkdownReuse, first: Sequence[Callable[[], None]] = ()) -> None:
        self.config = config
        #: work done in children before the worker is forked (see ``start``)
        self._first = first
        #: was it? (known once every step ended: ``conversions_done``)
        self.first_done = False
        self.files = files
        self.order = order
        self.index = {f.src_uri: i for i, f in enumerate(order)}
        context = mp.get_context("fork")
        # this process claims from the front, the worker from the back
        self._unclaimed = UnclaimedIndexes(context, len(order))
        self._current: str | None = None  # the page being converted, if the worker's
        #: where each of the worker's conversions lies in ``_spill`` (offset, length)
        self._received: dict[str, tuple[int, int]] | None = None
        self.in_worker = False
        self._logged: list[tuple[str, int, str]] | None = None  # the worker's, converting
        self._kept: Converted | None = None  # the worker's last conversion
        self.taken = 0  # pages whose conversion came from the worker
        # the worker's results, both processes' descriptor (closed in conversions_done or
        # close); first: if it cannot be made, nothing else has changed
        self._spill = tempfile.TemporaryFile(prefix="beliefbase-pages-")  # noqa: SIM115
        self.reuse: MarkdownReuse | None = reuse
        reuse.ahead = self  # before the fork: the worker's instance reports to it too
        reuse.prepare()  # and is this process's, made once for both
        self._context = context
        self._reader: Any = None  # the worker's pipe, once it is forked
        self._worker: Any = None
        #: the steps of ``first`` not yet started, the one running (its child's pid)
        self._steps = list(first)
        self._step: int | None = None
        self._steps_failed = False
        try:
            self._next_step()  # the first step's child, or the worker if there is none
        except BaseException:
            reuse.ahead = None
            self._spill.close()
            raise

    # -- this process: the first steps, then the worker -----------------------------------

    def _next_step(self) -> None:
        """Fork the child of the next step of ``first``, or the worker once none is left
        (each waited for before the next starts: ``_steps_go_on``)."""
        if self._steps and not self._steps_failed:
            step = self._steps.pop(0)
            with frozen_for_fork():  # what the child shares with this process (heap.py)
                pid = os.fork()
            if pid == 0:  # the child: never returns
                _run_and_exit(step)
            self._step = pid
            return
        self._steps.clear()
        self.first_done = bool(self._first) and not self._steps_failed
        with frozen_for_fork():
            self._reader, writer = self._context.Pipe(duplex=False)
            self._worker = self._context.Process(target=self._work, args=(writer,),
                                                 daemon=True)
            self._worker.start()
        writer.close()  # the worker's copy stays open: EOF here means it died

    def _steps_go_on(self, *, block: bool) -> None:
        """If the step running ended (``block``: once it has), start what comes next:
        every step, then the worker.  A step that failed leaves the rest to
        ``on_post_build`` (``first_done`` false)."""
        while self._step is not None:
            pid, status = os.waitpid(self._step, 0 if block else os.WNOHANG)
            if pid == 0:
                return  # still running
            self._step = None
            if os.waitstatus_to_exitcode(status) != 0:
                self._steps_failed = True
            try:
                self._next_step()
            except OSError as e:  # no fork: this process converts every page
                log.debug("no worker to convert pages ahead: %s", e)
                self._steps_failed = True
                return

    @classmethod
    def start(cls, config: MkDocsConfig, files: Files, order: list[File],
              reuse: MarkdownReuse, first: Sequence[Callable[[], None]] = ()
              ) -> RenderAhead | None:
        """A worker converting pages for ``reuse``'s instance, or None where it would not pay.

        ``first``: work for the second core before the worker starts (files written
        from the compile alone), in steps, each in a child of this process of its
        own, one after the other; this process then converts more of the pages.
        ``first_done`` says whether every step was done, once ``conversions_done``
        returned: if not (one raised, or could not be forked), all of it is this
        process's.
        """
        if (len(order) < AHEAD_THRESHOLD or (os.cpu_count() or 1) < 2
                or "fork" not in mp.get_all_start_methods()):
            return None
        try:
            return cls(config, files, order, reuse, first)
        except OSError as e:
            log.debug("no worker to convert pages ahead: %s", e)
            return None

    # -- this process: conversions ---------------------------------------------------------

    def begin(self, src_uri: str) -> None:
        """MkDocs is about to convert this page: take it, unless the worker has."""
        if self.in_worker:
            return
        if self._step is not None:
            self._steps_go_on(block=False)
        i = self.index.get(src_uri)
        self._current = src_uri if i is not None and not self._unclaimed.take(i) else None

    def converted(self, md: Markdown, markdown: str) -> str | None:
        """The worker's HTML of the page being converted (its state set on ``md``), or None.

        In the worker: None, and what is logged until ``record`` goes with the page.
        """
        if self.in_worker:
            self._logged = []
            return None
        if self._current is None:
            return None
        src_uri, self._current = self._current, None
        where = self._worker_results().get(src_uri)
        pickled = self._read_back(*where) if where is not None else None
        if pickled is None:
            return None
        result: Converted = pickle.loads(pickled)  # noqa: S301 - from our own worker
        if result.digest != _digest(markdown):
            return None  # not the Markdown the worker saw: convert it here
        self._apply(md, result)
        self.taken += 1
        return result.html

    def _apply(self, md: Markdown, result: Converted) -> None:
        md.toc_tokens = result.toc_tokens
        md.treeprocessors["mkdocs_extract_title"].title = result.title
        md.treeprocessors["mkdocs_extract_anchors"].present_anchor_ids = result.anchor_ids
        md.preprocessors["mkdocs_raw_html"].present_anchor_ids = set()
        links: dict[File, dict[str, str]] = {}
        for src_uri, anchors in result.links_to_anchors.items():
            file = self.files.get_file_from_path(src_uri)
            if file is not None:
                links[file] = anchors
        md.treeprocessors["relpath"].links_to_anchors = links
        for name, level, message in result.logged:
            logging.getLogger(name).log(level, message)

    def _read_back(self, offset: int, length: int) -> bytes | None:
        """One of the worker's results, from the file it appended them to."""
        try:
            data = os.pread(self._spill.fileno(), length, offset)
        except (OSError, ValueError):
            return None
        return data if len(data) == length else None

    def conversions_done(self) -> None:
        """MkDocs' loop converted every page: the steps of ``first`` still running
        finish, then receive what is left, let the worker end (started only now, it
        finds no page left: a small site's loop may end before the steps)."""
        self._detach()
        self._steps_go_on(block=True)
        if self._worker is not None:
            self._worker_results()
            self._worker.join()
        self._received = {}  # each page took its own
        self._spill.close()

    def _worker_results(self) -> dict[str, tuple[int, int]]:
        """The worker's conversions (none if it died), received once."""
        if self._received is None:
            try:
                self._received = self._reader.recv()
            except (EOFError, OSError):
                log.debug("the worker converting pages died; its pages are converted here")
                self._received = {}
        return self._received

    def close(self) -> None:
        """End the worker and a step's child (they have ended, unless the build failed first)."""
        self._detach()
        self._spill.close()
        if self._step is not None:
            with contextlib.suppress(OSError):
                os.kill(self._step, signal.SIGKILL)
                os.waitpid(self._step, 0)
            self._step = None
        self._steps.clear()
        if self._worker is not None:
            self._reader.close()
            if self._worker.is_alive():
                self._worker.terminate()
            self._worker.join()

    def _detach(self) -> None:
        """The Markdown instance converts without the worker from now on."""
        if self.reuse is not None:
            self.reuse.ahead = None
            self.reuse = None

    # -- the worker ------------------------------------------------------------------------

    def _work(self, writer: Any) -> None:
        freeze_in_worker()
        self.in_worker = True

        def keep(logger: logging.Logger, record: logging.LogRecord) -> None:
            if self._logged is not None:  # during a conversion: the main process logs it
                self._logged.append((record.name, record.levelno, record.getMessage()))

        logging.Logger.callHandlers = keep  # type: ignore[method-assign,assignment]

        spilled: dict[str, tuple[int, int]] = {}  # src_uri -> (offset, length) in _spill
        offset = 0
        fd = self._spill.fileno()
        while (i := self._unclaimed.back()) is not None:
            file = self.order[i]
            self._kept = None
            try:
                _read_and_render(file, self.config, self.files)
            except Exception:  # noqa: BLE001, S112 - the main process converts it and reports
                continue
            if self._kept is not None:
                data = pickle.dumps(self._kept, pickle.HIGHEST_PROTOCOL)
                try:
                    written = os.pwrite(fd, data, offset)
                except OSError:
                    break  # no room for more: the main process converts the rest
                if written != len(data):
                    break
                spilled[file.src_uri] = (offset, len(data))
                offset += len(data)
        writer.send(spilled)
        writer.close()

    def record(self, md: Markdown, markdown: str, html: str) -> None:
        """In the worker: keep what the conversion just done gave."""
        if self.in_worker and self._logged is not None:
            self._kept = _converted(md, markdown, html, self._logged)
            self._logged = None


def _run_and_exit(work: Callable[[], None]) -> NoReturn:
    """In a forked child: ``work()``, then exit, 0 if it succeeded.  What it allocates
    (the compile's files: ``graph.json``, the reader's and the explorer's data)
    leaves with the child, and so do the pages of the parent's heap it writes to
    (reference counts of every object it reads: its copies), which is why each step
    gets a child of its own.  Forked from the build itself, while no other process
    shares its heap: a page both the build and the child write to is copied twice, a
    third time where a worker forked earlier still held the original (5,000
    ``gen_vault.py`` notes: 80 MB more at the page loop's peak)."""
    code = 1
    try:
        work()
        code = 0
    except Exception:  # noqa: BLE001 - the main process does it and reports
        log.debug("the worker's first work failed; it is done here", exc_info=True)
    finally:
        os._exit(code)


def _converted(md: Markdown, markdown: str, html: str,
               logged: list[tuple[str, int, str]]) -> Converted:
    title = md.treeprocessors["mkdocs_extract_title"]
    anchors = md.treeprocessors["mkdocs_extract_anchors"]
    raw = md.preprocessors["mkdocs_raw_html"]
    relpath = md.treeprocessors["relpath"]
    return Converted(
        digest=_digest(markdown),
        html=html,
        toc_tokens=list(getattr(md, "toc_tokens", [])),
        title=title.title,
        anchor_ids=anchors.present_anchor_ids | raw.present_anchor_ids,
        links_to_anchors={f.src_uri: dict(a)
                          for f, a in relpath.links_to_anchors.items()},
        logged=logged,
    )


def _read_and_render(file: File, config: MkDocsConfig, files: Files) -> None:
    """What MkDocs' ``_populate_page`` does up to and including the conversion."""
    from mkdocs.structure.pages import Page

    page = file.page if file.page is not None else Page(None, file, config)
    config._current_page = page
    try:
        page = config.plugins.on_pre_page(page, config=config, files=files)
        page.read_source(config)
        assert page.markdown is not None  # as MkDocs asserts
        page.markdown = config.plugins.on_page_markdown(
            page.markdown, page=page, config=config, files=files)
        page.render(config, files)
    finally:
        config._current_page = None
        # what the conversion gave is on its way to the main process: let the page go
        page.markdown = page.content = None
        page.toc = []  # type: ignore[assignment]

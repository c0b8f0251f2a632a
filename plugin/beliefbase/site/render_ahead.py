"""Pages converted and their panels made on the second core, ahead of MkDocs.

MkDocs converts every page's Markdown in one loop on one core: half of a
large build.  After the last ``on_nav`` hook we fork one worker.  First it
does work that depends only on the compiled vault and the pages' URLs: the
panels under every page (backlinks, local graph, unlinked mentions, beliefs:
``SiteBuild.panels_after``) and the alias redirect pages.  Then it converts
pages from the back of MkDocs' loop while MkDocs goes on from the front;
they meet in the middle, and the worker ends before the theme renders the
first page (alive any longer, every page of memory either process writes
would be counted twice).

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
build.  ``on_page_context`` takes the worker's panels.

Tests build sites both ways and compare every byte and every log line.
Taking part needs: a site whose plugins are all known to leave converted
pages alone (ours and a search plugin; see ``plugin.pages_read_once``), the
reused Markdown instance, ``fork``, two cores and enough pages to pay for the
fork.  A worker that dies loses nothing: its share is done here.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import multiprocessing as mp
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


class _Meeting:
    """Indexes taken one by one from the front by this process, from the back by the worker."""

    def __init__(self, context: Any, size: int) -> None:
        self._bounds = context.Array("i", [0, size - 1])  # next from the front, the back

    def mine(self, i: int) -> bool:
        """Take ``i`` for this process unless the worker has (those before it are given up)."""
        with self._bounds.get_lock():
            if i > self._bounds[1]:
                return False
            self._bounds[0] = max(self._bounds[0], i + 1)
            return True

    def next_back(self) -> int | None:
        """The worker's next index, or None once the two have met."""
        with self._bounds.get_lock():
            front, back = self._bounds[0], self._bounds[1]
            if back < front:
                return None
            self._bounds[1] = back - 1
            return int(back)


#: the panels of a page (``None``: none), as ``on_page_context`` adds them
PanelsOf = Callable[["File"], "str | None"]

# the worker's messages, in the order it sends them
_PANELS, _FINISHED, _CONVERTED = range(3)


class RenderAhead:
    """The worker of one build and this process's side of the meeting."""

    def __init__(self, config: MkDocsConfig, files: Files, order: list[File],
                 reuse: MarkdownReuse, panels_of: PanelsOf | None,
                 finish: Callable[[], None] | None) -> None:
        self.config = config
        self.files = files
        self.order = order
        self.panels_of = panels_of
        self.finish = finish
        self.index = {f.src_uri: i for i, f in enumerate(order)}
        context = mp.get_context("fork")
        self._conversions = _Meeting(context, len(order))
        self._current: str | None = None  # the page being converted, if the worker's
        self._received: list[Any] = []  # the worker's messages so far
        self._failed = False
        self.in_worker = False
        self._logged: list[tuple[str, int, str]] | None = None  # the worker's, converting
        self._kept: Converted | None = None  # the worker's last conversion
        self.taken = 0  # pages whose conversion came from the worker
        self.panels_taken = 0  # pages whose panels came from the worker
        self.did_finish = False  # the worker ran ``finish`` (known once asked)
        self.reuse: MarkdownReuse | None = reuse
        reuse.ahead = self  # before the fork: the worker's instance reports to it too
        gc.freeze()  # the worker's collections then leave the shared objects' pages alone
        try:
            self._reader, writer = context.Pipe(duplex=False)
            self._worker = context.Process(target=self._work, args=(writer,), daemon=True)
            self._worker.start()
            writer.close()  # the worker's copy stays open: EOF here means it died
        except BaseException:
            reuse.ahead = None
            raise
        finally:
            gc.unfreeze()

    @classmethod
    def start(cls, config: MkDocsConfig, files: Files, order: list[File],
              reuse: MarkdownReuse, panels_of: PanelsOf | None = None,
              finish: Callable[[], None] | None = None) -> RenderAhead | None:
        """A worker for this build, or None where one would not pay.

        ``panels_of`` and ``finish`` (work of ``on_post_build`` that no page
        changes) are called in the worker before it converts pages.
        """
        if (len(order) < AHEAD_THRESHOLD or (os.cpu_count() or 1) < 2
                or "fork" not in mp.get_all_start_methods()):
            return None
        try:
            return cls(config, files, order, reuse, panels_of, finish)
        except OSError as e:
            log.debug("no worker to convert pages ahead: %s", e)
            return None

    # -- this process: conversions ---------------------------------------------------------

    def begin(self, src_uri: str) -> None:
        """MkDocs is about to convert this page: take it, unless the worker has."""
        if self.in_worker:
            return
        i = self.index.get(src_uri)
        self._current = src_uri if i is not None and not self._conversions.mine(i) else None

    def converted(self, md: Markdown, markdown: str) -> str | None:
        """The worker's HTML of the page being converted (its state set on ``md``), or None."""
        if self.in_worker:
            self._logged = []  # what is logged from here to ``record`` goes with the page
            return None
        if self._current is None:
            return None
        src_uri, self._current = self._current, None
        pickled = self._message(_CONVERTED).get(src_uri)
        if pickled is None:
            return None
        result: Converted = pickle.loads(pickled)  # noqa: S301 - from our own worker
        if result.digest != _digest(markdown):
            return None  # not the Markdown the worker saw: convert it here
        self._apply(md, result)
        self.taken += 1
        return result.html

    def _apply(self, md: Markdown, result: Converted) -> None:
        md.toc_tokens = result.toc_tokens  # type: ignore[attr-defined]
        md.treeprocessors["mkdocs_extract_title"].title = result.title  # type: ignore[attr-defined]
        md.treeprocessors["mkdocs_extract_anchors"].present_anchor_ids = result.anchor_ids  # type: ignore[attr-defined]
        md.preprocessors["mkdocs_raw_html"].present_anchor_ids = set()  # type: ignore[attr-defined]
        links: dict[File, dict[str, str]] = {}
        for src_uri, anchors in result.links_to_anchors.items():
            file = self.files.get_file_from_path(src_uri)
            if file is not None:
                links[file] = anchors
        md.treeprocessors["relpath"].links_to_anchors = links  # type: ignore[attr-defined]
        for name, level, message in result.logged:
            logging.getLogger(name).log(level, message)

    def conversions_done(self) -> None:
        """MkDocs' loop converted every page: receive what is left, let the worker end."""
        if self.reuse is not None:
            self.reuse.ahead = None
            self.reuse = None
        self._message(_CONVERTED)
        self._received[_CONVERTED] = None  # each page took its own
        self._worker.join()

    # -- this process: panels and ``finish`` --------------------------------------------

    def panels(self, src_uri: str) -> str | None:
        """The worker's panels for this page, or None: make them here."""
        if self.panels_of is None:
            return None
        html = self._message(_PANELS).get(src_uri)
        if html is not None:
            self.panels_taken += 1
        return html

    def finished(self) -> bool:
        """Did ``finish`` run to its end in the worker?"""
        self.did_finish = self.finish is not None and self._message(_FINISHED) is True
        return self.did_finish

    # -- this process: the worker's messages -----------------------------------------------

    def _message(self, n: int) -> Any:
        """The worker's ``n``-th message (None: it died first), received once."""
        while len(self._received) <= n:
            message = None
            if not self._failed:
                try:
                    message = pickle.loads(self._reader.recv_bytes())  # noqa: S301 - our worker
                except (EOFError, OSError):
                    log.debug("the worker of this build died; its share is done here")
                    self._failed = True
            self._received.append(message)
        message = self._received[n]
        if n != _FINISHED and message is None:
            return {}
        return message

    def close(self) -> None:
        """End the worker (it has ended, unless the build failed first)."""
        if self.reuse is not None:
            self.reuse.ahead = None
            self.reuse = None
        self._reader.close()
        self._received = []
        if self._worker.is_alive():
            self._worker.terminate()
        self._worker.join()

    # -- the worker ------------------------------------------------------------------------

    def _work(self, writer: Any) -> None:
        gc.freeze()
        self.in_worker = True

        def keep(logger: logging.Logger, record: logging.LogRecord) -> None:
            if self._logged is not None:  # during a conversion: the main process logs it
                self._logged.append((record.name, record.levelno, record.getMessage()))

        logging.Logger.callHandlers = keep  # type: ignore[method-assign,assignment]

        def send(message: Any) -> None:
            writer.send_bytes(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))

        panels: dict[str, str] = {}
        for file in self.order if self.panels_of is not None else ():
            try:
                html = self.panels_of(file)  # type: ignore[misc]
            except Exception:  # noqa: BLE001, S112 - the main process makes them and reports
                continue
            if html is not None:
                panels[file.src_uri] = html
        finished = False
        if self.finish is not None:
            try:
                self.finish()
                finished = True
            except Exception:  # noqa: BLE001, S110 - the main process does it and reports
                pass
        converted: dict[str, bytes] = {}
        while (i := self._conversions.next_back()) is not None:
            file = self.order[i]
            self._kept = None
            try:
                _read_and_render(file, self.config, self.files)
            except Exception:  # noqa: BLE001, S112 - the main process converts it and reports
                continue
            if self._kept is not None:
                converted[file.src_uri] = pickle.dumps(self._kept, pickle.HIGHEST_PROTOCOL)
        # all at the end: a message this process does not read yet would block the worker
        send(panels)
        send(finished)
        send(converted)
        writer.close()

    def record(self, md: Markdown, markdown: str, html: str) -> None:
        """In the worker: keep what the conversion just done gave."""
        if self.in_worker and self._logged is not None:
            self._kept = _converted(md, markdown, html, self._logged)
            self._logged = None


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
        title=title.title,  # type: ignore[attr-defined]
        anchor_ids=anchors.present_anchor_ids | raw.present_anchor_ids,  # type: ignore[attr-defined]
        links_to_anchors={f.src_uri: dict(a)
                          for f, a in relpath.links_to_anchors.items()},  # type: ignore[attr-defined]
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
        page.markdown = config.plugins.on_page_markdown(
            page.markdown, page=page, config=config, files=files)
        page.render(config, files)
    finally:
        config._current_page = None
        # what the conversion gave is on its way to the main process: let the page go
        page.markdown = page.content = None
        page.toc = []  # type: ignore[assignment]

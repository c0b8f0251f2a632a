"""Material's search index, parsed on the second core.

For every page MkDocs-Material's search plugin parses the rendered HTML again with a
pure-Python ``HTMLParser`` to cut it into sections: as much as a quarter of a large
build (docs/develop/speed.md), all of it on the one core that also renders the
pages.  While a build renders many pages we hand each page's HTML to a worker process
running Material's own ``Parser`` instead, and after the last page (first thing in
``on_post_build``, before the index is written) add the returned sections in page
order with Material's own ``create_entry_for_section``: the index is the one
Material would write, byte for byte (tests build sites both ways and compare).
Each batch's sections become index entries as soon as every batch before it has
(on the rendering thread, when it hands over the next page): the parsed sections
(lists of text pieces, attribute dicts) take several times the memory of the
entries made from them, and a 5,000-page build would keep them all until the end.

The worker is a fresh interpreter (``python -c``) that imports only what Material's
parser needs (``search_parse.py``, run by its path: importing it from the package
would import every speed-up first): a forked one would keep the old copy of every
page of this process's heap that this process writes to afterwards (tens of MB),
and ``multiprocessing``'s spawn adds a resource-tracker process.  Two threads here
move the batches: one writes them to the worker's stdin, one reads its results;
neither waits on the other, so neither pipe can fill up for good, and the rendering
thread only hands over a list.

Material's ``on_page_context`` then removes ``data-search-*`` attributes from the
page with a regular expression tried at every character; the offload's handler
finds them by a literal instead (``quicker_substitution``): the same text.

Only Material's search plugin, recognised by its class, is offloaded; small
builds (a ``--dirty`` rebuild of a few pages) and one-core machines keep the
plugin as it is.  A page whose result never comes (the worker failed to start
or died) is parsed in this process at the end.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..search_index import is_material_index
from . import search_parse
from .search_flat import flatten
from .search_parse import Section as _Section
from .search_parse import parse_pages

#: Below this many pages to render, starting a worker costs more than it saves.
OFFLOAD_THRESHOLD = 200

#: Pages per batch: each batch wakes the two threads, which then take the GIL
#: from the rendering thread for a moment.
BATCH = 16

#: At the end, when more than this many batches still wait for the worker, this
#: process parses them from the back while the worker goes on from the front.
SHARE_MIN = 1

#: the worker: ``search_parse.py`` run by its path (argv[1]), not imported as part of
#: the package (whose ``__init__`` imports every speed-up)
_WORKER = ("import importlib.util as u, sys; "
           "s = u.spec_from_file_location('beliefbase_search_parse', sys.argv[1]); "
           "m = u.module_from_spec(s); s.loader.exec_module(m); m.serve(sys.argv[2])")

#: the same parse in this process (pages whose answer never came)
_parse_pages = parse_pages


class SearchOffload:
    """Parses pages for Material's search index in a worker process."""

    def __init__(self, index: Any, flat: bool = False) -> None:
        self.index = index
        #: pages flattened first (``search_flat``): less to send and to parse
        self.flat = flat
        self.jobs: list[list[Any]] = []  # the pages of each batch sent ([] once added)
        self.added = 0  # batches before this one are in the index
        self.pages: list[Any] = []  # of the batch being filled
        self.batch: list[str] = []  # their HTML
        #: batch -> its HTML until its result comes (parsed here if it never does)
        self.html: dict[int, list[str]] = {}
        self.results: dict[int, list[list[_Section]]] = {}
        self.outbox: queue.SimpleQueue[tuple[int, list[str]] | None] = queue.SimpleQueue()
        self.proc: subprocess.Popen[bytes] | None = None
        self.failed = False  # the worker could not be started
        self.threads: list[threading.Thread] = []
        #: the last batch the writer took, and the first of those this process took
        #: back at the end (``share_the_rest``): never the same batch
        self._lock = threading.Lock()
        self._taken = -1
        self._kept_from: int | None = None
        #: Material's page_context handler and where it was in MkDocs' event list
        self._handler: tuple[list[Any], int, Any, Any] | None = None
        index.add_entry_from_context = self.add_entry_from_context

    @classmethod
    def install(cls, plugins: Mapping[str, Any], pages: int,
                flat: bool = False) -> SearchOffload | None:
        """Offload the search plugin's parsing when this build renders ``pages`` pages."""
        if pages < OFFLOAD_THRESHOLD or (os.cpu_count() or 1) < 2:
            return None
        index = material_index(plugins)
        if index is None:
            return None
        offload = cls(index, flat)
        offload.quicker_substitution(plugins)
        return offload

    def quicker_substitution(self, plugins: Mapping[str, Any]) -> None:
        """Material's ``on_page_context`` with its substitution found by a literal.

        After indexing the page it removes every ``data-search-*="..."`` attribute
        with a regular expression over the whole page that starts with an optional
        space: no literal prefix to search for, so the expression is tried at every
        character (0.08 s of the rendering process at 1,000 notes, where nearly
        every page has our ``data-search-exclude`` and nothing it removes).  Here
        ``without_search_attributes`` gives the same text: the same content, the
        same index."""
        events = getattr(plugins, "events", {}).get("page_context")
        plugin = next((p for p in plugins.values()
                       if getattr(p, "search_index", None) is self.index), None)
        if events is None or plugin is None:
            return
        material = plugin.on_page_context
        if material not in events:
            return
        at = events.index(material)

        def on_page_context(context: Any, *, page: Any, config: Any, nav: Any) -> Any:
            if page.content is None:
                return material(context, page=page, config=config, nav=nav)
            if plugin.config.enabled:
                plugin.search_index.add_entry_from_context(page)
                page.content = without_search_attributes(page.content)
            return None

        events[at] = on_page_context
        origins = getattr(plugins, "_event_origins", None)
        if isinstance(origins, dict) and material in origins:
            origins[on_page_context] = origins[material]  # MkDocs' log names the plugin
        self._handler = (events, at, material, on_page_context)

    def add_entry_from_context(self, page: Any) -> None:
        """Material's method, with the parse sent to the worker."""
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        self.pages.append(page)
        # as it is now: later hooks change page.content
        self.batch.append(flatten(page.content) if self.flat else page.content)
        if len(self.batch) == BATCH:
            self._send()
            self._add_ready()

    def _add_ready(self) -> None:
        """Add the batches whose sections came back, in order, and let go of them."""
        while (sections := self.results.pop(self.added, None)) is not None:
            self._add(self.jobs[self.added], sections)
            self.jobs[self.added] = []
            self.added += 1

    def _add(self, pages: list[Any], sections: list[list[_Section]]) -> None:
        from material.plugins.search.plugin import Element, Section

        for page, kept in zip(pages, sections, strict=True):
            for tag, attrs, depth, ident, title, text in kept:
                section = Section(Element(tag, attrs), depth)  # Material's again
                section.id, section.title, section.text = ident, title, text
                self.index.create_entry_for_section(section, page.toc, page.url, page)

    def _send(self) -> None:
        key = len(self.jobs)
        self.html[key] = self.batch
        if self.proc is not None or (not self.failed and self._start()):
            self.outbox.put((key, self.batch))
        self.jobs.append(self.pages)
        self.batch, self.pages = [], []

    def _start(self) -> bool:
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root,
                                                         env.get("PYTHONPATH"))))
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", _WORKER,
                                          search_parse.__file__, search_parse.told()], env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)
        except OSError:
            self.failed = True
            return False
        self.threads = [threading.Thread(target=self._write, daemon=True),
                        threading.Thread(target=self._read, daemon=True)]
        for thread in self.threads:
            thread.start()
        return True

    def _write(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            while (item := self.outbox.get()) is not None:
                with self._lock:
                    if self._kept_from is not None and item[0] >= self._kept_from:
                        continue  # parsed in this process (share_the_rest)
                    self._taken = item[0]
                pickle.dump(item, self.proc.stdin, pickle.HIGHEST_PROTOCOL)
                self.proc.stdin.flush()
        except (OSError, ValueError):
            pass  # the worker is gone: what it did not answer is parsed at the end
        finally:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        try:
            while True:
                key, sections = pickle.load(self.proc.stdout)  # noqa: S301 - our worker
                sent = self.html.get(key)
                if sent is None or len(sections) != len(sent):
                    break  # no answer to what was sent
                self.results[key] = sections
                self.html.pop(key, None)
        except Exception:  # noqa: BLE001, S110 - the end, or a garbled answer: the rest is parsed here
            pass
        finally:
            # Nobody reads the worker's answers any more: ended, it cannot wait for
            # ever to write one while this build waits for it (a garbled stream, seen
            # under a sampling profiler, hung the build in ``_stop``).  What it did
            # not answer is parsed in this process at the end, as when it dies.
            with contextlib.suppress(OSError):
                self.proc.kill()

    def finish(self) -> None:
        """Add every page's sections to the index, in page order; stop the worker."""
        if self.batch:
            self._send()
        try:
            self.share_the_rest()
            self._stop()
            for key in range(self.added, len(self.jobs)):
                sections = self.results.pop(key, None)
                if sections is None:
                    sections = _parse_pages(self.html.pop(key))
                self._add(self.jobs[key], sections)
        finally:
            self.close()

    def share_the_rest(self) -> None:
        """The batches the worker has not taken yet, parsed here from the last back
        while it goes on from the front, until the two meet.

        The pages render faster than the worker parses them (a page's template,
        about 0.6 ms at 1,000 notes, against its parse, about 1 ms): the build
        would wait for the worker with this core idle.  Each batch is sent or
        kept, never both: the writer takes them in order, and takes none at or
        after ``_kept_from``; both are decided under one lock."""
        if self.proc is None or len(self.jobs) - self._taken - 1 <= SHARE_MIN:
            return
        key = len(self.jobs)
        while True:
            with self._lock:
                if key - 1 <= self._taken:
                    return
                key -= 1
                self._kept_from = key
            sent = self.html.pop(key, None)
            if sent is not None:  # (None: its worker's answer came after all)
                self.results[key] = _parse_pages(sent)

    def _stop(self) -> None:
        """Let the worker answer everything sent, then end it."""
        self.outbox.put(None)
        for thread in self.threads:
            thread.join()
        if self.proc is not None:
            self.proc.wait()

    def close(self) -> None:
        """Stop the worker (a build that failed half-way never reached ``finish``)."""
        self.outbox.put(None)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.jobs, self.pages, self.batch = [], [], []
        self.html.clear()
        self.results.clear()
        self.index.__dict__.pop("add_entry_from_context", None)  # Material's method again
        if self._handler is not None:  # and its page_context handler
            events, at, material, ours = self._handler
            if at < len(events) and events[at] is ours:
                events[at] = material
            self._handler = None


#: Material's search attribute (its plugin's ``\s?data-search-\w+="[^"]+"``) without
#: the optional space before it: a literal first, which the ``re`` module searches for
_SEARCH_ATTRIBUTE = re.compile(r'data-search-\w+="[^"]+"')


def without_search_attributes(html: str) -> str:
    """``html`` as Material's substitution leaves it: every ``data-search-*="..."``
    removed with the white space character just before it, if any (the previous
    removal ends in a quote, so it never took that character)."""
    pieces: list[str] = []
    at = 0
    for found in _SEARCH_ATTRIBUTE.finditer(html):
        start = found.start()
        if start > at and html[start - 1].isspace():
            start -= 1
        pieces.append(html[at:start])
        at = found.end()
    if not pieces:
        return html
    pieces.append(html[at:])
    return "".join(pieces)


def material_index(plugins: Mapping[str, Any]) -> Any:
    """The search index of Material's search plugin, if the site uses it unchanged."""
    for plugin in plugins.values():
        index = getattr(plugin, "search_index", None)
        if is_material_index(index) and getattr(plugin.config, "enabled", True):
            return index
    return None

"""Material's search index, parsed on the second core.

For every page MkDocs-Material's search plugin parses the rendered HTML again
with a pure-Python ``HTMLParser`` to cut it into sections: ~1.5 ms a page,
as much as a quarter of a large build, all of it on the one core that also
renders the pages.  While a build renders many pages we hand each page's HTML
to a worker process running Material's own ``Parser`` instead, and after the
last page (first thing in ``on_post_build``, before the index is written) add
the returned sections in page order with Material's own
``create_entry_for_section``: the index is the one Material would write,
byte for byte (tests build sites both ways and compare).

Only Material's search plugin, recognised by its class, is offloaded; small
builds (a ``--dirty`` rebuild of a few pages) and one-core machines keep the
plugin as it is.  Any failure of the worker falls back to parsing in this
process.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

#: Below this many pages to render, starting a worker costs more than it saves.
OFFLOAD_THRESHOLD = 200


#: Pages per job: each job costs the main process a wake-up of the pool's threads,
#: which then compete with it for the GIL; one per page cost more than the parse.
BATCH = 16

#: (tag, attributes, depth, id, title parts, text parts) of one kept section
_Section = tuple[str, dict[str, Any], int, Any, list[str], list[str]]


def _parse_pages(pages: list[str]) -> list[list[_Section]]:
    """In the worker: Material's parse of each page, as plain tuples (cheap to send)."""
    return [[(s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text)
             for s in _parse(html) if not s.is_excluded()] for html in pages]


def _parse(html: str) -> list[Any]:
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(html)
    parser.close()
    return list(parser.data)


def _section(data: _Section) -> Any:
    """Material's ``Section`` again, from what the worker sent."""
    from material.plugins.search.plugin import Element, Section

    tag, attrs, depth, ident, title, text = data
    section = Section(Element(tag, attrs), depth)
    section.id, section.title, section.text = ident, title, text
    return section


class SearchOffload:
    """Parses pages for Material's search index in a worker process."""

    def __init__(self, index: Any) -> None:
        self.index = index
        #: per job of up to BATCH pages: its future (None: parse here) and its pages
        self.jobs: list[tuple[Future[list[list[_Section]]] | None, list[Any]]] = []
        self.pages: list[Any] = []  # of the job being filled
        self.batch: list[str] = []  # their HTML
        #: the HTML of the pages of jobs not done yet, to parse here if a job fails
        self.html: dict[int, list[str]] = {}
        self.pool = ProcessPoolExecutor(1, mp_context=mp.get_context(_start_method()))
        index.add_entry_from_context = self.add_entry_from_context

    @classmethod
    def install(cls, plugins: Mapping[str, Any], pages: int) -> SearchOffload | None:
        """Offload the search plugin's parsing when this build renders ``pages`` pages."""
        if pages < OFFLOAD_THRESHOLD or (os.cpu_count() or 1) < 2:
            return None
        index = _material_index(plugins)
        return cls(index) if index is not None else None

    def add_entry_from_context(self, page: Any) -> None:
        """Material's method, with the parse sent to the worker."""
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        self.pages.append(page)
        self.batch.append(page.content)  # as it is now: later hooks change page.content
        if len(self.batch) == BATCH:
            self._submit()

    def _submit(self) -> None:
        key, batch, pages = len(self.jobs), self.batch, self.pages
        self.batch, self.pages = [], []
        self.html[key] = batch
        job: Future[list[list[_Section]]] | None
        try:
            job = self.pool.submit(_parse_pages, batch)
        except RuntimeError:  # the pool broke: parse here, at the end
            job = None
        else:
            job.add_done_callback(lambda f: f.exception() or self.html.pop(key, None))
        self.jobs.append((job, pages))

    def finish(self) -> None:
        """Add every page's sections to the index, in page order; stop the worker."""
        if self.batch:
            self._submit()
        try:
            for key, (job, pages) in enumerate(self.jobs):
                for page, sections in zip(pages, _result(job, self.html.pop(key, [])),
                                          strict=True):
                    for data in sections:
                        self.index.create_entry_for_section(_section(data), page.toc,
                                                            page.url, page)
        finally:
            self.close()

    def close(self) -> None:
        """Stop the worker (a build that failed half-way never reached ``finish``)."""
        self.pool.shutdown(cancel_futures=True)
        self.pages, self.jobs, self.batch = [], [], []
        self.html.clear()
        self.index.__dict__.pop("add_entry_from_context", None)  # Material's method again


def _result(job: Future[list[list[_Section]]] | None, html: list[str]) -> list[list[_Section]]:
    if job is not None:
        try:
            return job.result()
        except Exception:  # noqa: BLE001 - a broken worker must not lose the pages
            pass
    return _parse_pages(html)


def _material_index(plugins: Mapping[str, Any]) -> Any:
    """The search index of Material's search plugin, if the site uses it unchanged."""
    try:
        from material.plugins.search.plugin import SearchIndex, SearchPlugin
    except ImportError:
        return None
    for plugin in plugins.values():
        if type(plugin) is SearchPlugin and getattr(plugin.config, "enabled", True):
            index = getattr(plugin, "search_index", None)
            if type(index) is SearchIndex:
                return index
    return None


def _start_method() -> str:
    return "fork" if "fork" in mp.get_all_start_methods() else "spawn"

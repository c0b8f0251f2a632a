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


def _sections(html: str) -> list[Any]:
    """In the worker: Material's parse of one page (its ``Section`` objects)."""
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(html)
    parser.close()
    return list(parser.data)


class SearchOffload:
    """Parses pages for Material's search index in a worker process."""

    def __init__(self, index: Any) -> None:
        self.index = index
        self.pending: list[tuple[Future[list[Any]] | None, Any]] = []
        #: the HTML of pages whose parse has not succeeded yet, to parse here if it fails
        self.html: dict[int, str] = {}
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
        key = len(self.pending)
        self.html[key] = page.content  # later hooks change page.content
        future: Future[list[Any]] | None
        try:
            future = self.pool.submit(_sections, page.content)
        except RuntimeError:  # the pool broke: parse here, at the end
            future = None
        else:
            future.add_done_callback(lambda f: f.exception() or self.html.pop(key, None))
        self.pending.append((future, page))

    def finish(self) -> None:
        """Add every page's sections to the index, in page order; stop the worker."""
        pending, self.pending = self.pending, []
        try:
            for key, (future, page) in enumerate(pending):
                sections = _result(future, self.html.pop(key, ""))
                for section in sections:
                    if not section.is_excluded():
                        self.index.create_entry_for_section(section, page.toc, page.url, page)
        finally:
            self.close()

    def close(self) -> None:
        """Stop the worker (a build that failed half-way never reached ``finish``)."""
        self.pool.shutdown(cancel_futures=True)
        self.html.clear()
        self.index.__dict__.pop("add_entry_from_context", None)  # Material's method again


def _result(future: Future[list[Any]] | None, html: str) -> list[Any]:
    if future is not None:
        try:
            return future.result()
        except Exception:  # noqa: BLE001 - a broken worker must not lose the page
            pass
    return _sections(html)


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

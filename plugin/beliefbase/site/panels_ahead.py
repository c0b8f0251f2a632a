"""Every page's panels made at once, on every core, before the theme renders a page.

The panels under a note (backlinks with their sentences, unlinked mentions,
the local graph) cost a noticeable share of each page's time on the one core
that also renders the theme's templates (docs/develop/speed.md).  They depend only on the
compiled vault and on each page's URL, both known once MkDocs has converted
every page.  So in a full build, from ``on_env``, this process and forked
workers make them all, in chunks from both ends (``builder.parallel``), and
the template loop then takes each page's panels from the result.

A burst, not a companion: the workers end before the first template is
rendered.  A forked process that lives on while this one renders pages keeps
the old copy of every page of the heap that this one touches (refcounts),
which raised a large build's peak memory considerably; in the burst
this process touches little but the compiled vault, as the workers do.
Material's search worker is idle then (it parses pages as they are
rendered), so the second core is free.

What the panels read is packed apart first (``panel_view.py``): the burst's
processes read that copy, not the compile they share with this process, whose
every page holding a sentence, a link or a title they copied by reading it.

The panels wait in temporary files, one per process (``spilled_map``), and a
page's are read back when the theme renders it, a chunk of pages at a time:
kept in memory, the panels of a 5,000-note build were 70 MB more at the
build's peak.

What a worker cannot make is made in this process as the page comes: the
belief panel (the belief index is an SQLite connection, which must not cross
a fork).  Small builds (a ``--dirty`` rebuild, a few hundred notes) and
machines without ``fork`` or a second core make every panel as the page
comes, as before; tests build sites both ways and compare every byte.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ..builder.documents import Document
from ..builder.parallel import Spilled, spilled_map_if_it_pays, workers_that_pay
from .panel_view import ViewPanels

#: Below this many pages the fork and the hand-over cost more than they save.
PANELS_THRESHOLD = 200

#: A worker of the burst makes the panels of at most this many pages, then ends and
#: another is forked in its place (``spilled_map``'s ``worker_items``): a worker
#: keeps a copy of every page of the heap either process wrote to while it lived,
#: and the copies grow with its life.  Each inherits the view this process loaded
#: (``ViewPanels.load``), so a new one costs a fork (about 10 ms at 5,000 notes) and
#: little more.  At 5,000 ``gen_vault.py`` notes the burst's peak 436 -> 392 MB with
#: 300 pages (each worker loading a view of its own), 385 -> 348 MB with 100 pages
#: and the view inherited (the build's peak, paired builds: ``bench.pair``).
WORKER_PAGES = 100

#: No more workers than this in one burst: a fork of a large build copies its page
#: tables, and at 20,000 notes each worker makes 400 pages.
MOST_WORKERS = 50

#: A page: its document and its URL (the panels' links are relative to it).
PageKey = tuple[Document, str]


class MadePanels:
    """The panels made ahead, keyed by (document path, url); each taken once (``pop``)."""

    def __init__(self, pages: Sequence[PageKey], made: Spilled[str]) -> None:
        self._index: dict[tuple[str, str], int] = {
            (doc.path, url): j for j, (doc, url) in enumerate(pages)}
        self._made = made
        #: the chunk read back last: the theme renders pages in the order they were made
        self._chunk: tuple[int, list[str]] | None = None

    def __len__(self) -> int:
        return len(self._index)

    def pop(self, key: tuple[str, str], default: str | None = None) -> str | None:
        j = self._index.pop(key, None)
        if j is None:
            return default
        i, at = divmod(j, self._made.size)
        if self._chunk is None or self._chunk[0] != i:
            self._chunk = (i, self._made.chunk(i))
        html = self._chunk[1][at]
        if not self._index:
            self.close()
        return html

    def close(self) -> None:
        self._index.clear()
        self._chunk = None
        self._made.close()


def pays(pages: int, workers: int = 0) -> bool:
    """Would ``panels_ahead`` make the panels of this many pages ahead?"""
    return workers_that_pay(pages, PANELS_THRESHOLD, workers, fork_only=True) is not None


def panels_ahead(make: Callable[[Document, str], str], pages: Sequence[PageKey],
                 workers: int = 0, view: ViewPanels | None = None,
                 ) -> MadePanels | dict[tuple[str, str], str]:
    """``make(doc, url)`` of every page, keyed by (document path, url); computed in
    this process and forked workers, or ``{}`` where that would not pay.

    ``workers``: 0 = one per CPU (at most 4), 1 = none (always ``{}``).  ``view``:
    the same panels made from the compile packed apart (``panel_view.py``), of
    which the burst's processes copy little; closed here.
    """
    try:
        if view is not None:
            view.load()  # here, before the fork: every worker makes its pages with it
            made = spilled_map_if_it_pays(view.make, [(doc.path, url) for doc, url in pages],
                                          PANELS_THRESHOLD, workers,
                                          max(WORKER_PAGES, -(-len(pages) // MOST_WORKERS)))
        else:
            # forked: the workers inherit ``make`` and the pages; only the HTML is pickled
            made = spilled_map_if_it_pays(functools.partial(_make_page, make), pages,
                                          PANELS_THRESHOLD, workers)
    finally:
        if view is not None:
            view.close()  # this process's copy of the view, and its file
    if made is None:
        return {}
    return MadePanels(pages, made)


def _make_page(make: Callable[[Document, str], str], page: PageKey) -> str:
    return make(*page)

"""Queries in pages (SPEC §8): ``{{query:…}}``, query fences and Query notes render
their results through ``QueryExtension``, and so do bases and Dataview queries.

Under ``mkdocs serve`` a save re-renders a page that shows a query only when one
of its results changed: each build digests the results of every such page
(``QuerySite.digest``, the HTML of each block) against the new compile, in
``Shown.notes``, and the plan renders the pages whose digest differs from the
last build's.  The Cypher database is kept between builds and updated from the
change (``query/update.py``), and so are the Bases and Dataview data, made again
only for the notes a save changed (``dashboard_data.py``), so the results cost
little to compute again.  A
page embedding a base file (``![[X.base]]``) is rendered again after any change.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from .. import diagnostics as diag
from ..builder.documents import Document
from ..ids import SrcPath
from ..query.update import KeptDatabase
from .feature import Change, FeatureContext, Shown, SiteFeature
from .markdown.query_embeds import (
    QueryExtension,
    QuerySite,
    build_site,
    names_a_base,
    needed_data,
    pages_with_queries,
)
from .query_views import Views
from .render import PageRenderer

log = logging.getLogger(__name__)


@contextmanager
def _as_page(renderer: PageRenderer, doc: Document, page_url: str) -> Iterator[None]:
    """``renderer`` renders the page of ``doc`` (a result digested before the pages
    render is made as its page makes it), then what it rendered before."""
    frames, budget = renderer.frames, renderer.budget
    renderer.begin_page(doc, page_url)
    try:
        yield
    finally:
        renderer.frames, renderer.budget = frames, budget


class QueryPages(SiteFeature):
    """The queries of one build's pages, and which notes show a result."""

    name = "queries"

    @classmethod
    def make(cls, ctx: FeatureContext) -> QueryPages:
        o = ctx.options
        docs_dir = Path(ctx.config.docs_dir)
        site = build_site(ctx.compiled, ctx.renderer, Views(docs_dir / o.views_dir, o.views),
                          ctx.report, float(o.query_timeout), o.query_max_rows)
        site.kept = ctx.kept.get(KeptDatabase) if ctx.serving else None
        if ctx.serving:
            from .dashboard_data import KeptDashboardData  # the engines: on serve only
            site.kept_data = ctx.kept.get(KeptDashboardData)
            # an edited mkdocs.yml may change what a result shows: nothing kept then
            site.kept_data.configured(repr(sorted(dict(o).items())))
        site.as_page = partial(_as_page, ctx.renderer)
        return cls(ctx, site)

    def __init__(self, ctx: FeatureContext, site: QuerySite) -> None:
        self.ctx = ctx
        self.site = site  # the database, made on the first query of the build

    def markdown_extensions(self) -> list[Any]:
        return [QueryExtension(self.site)]

    def before_pages(self) -> None:
        """The Bases and Dataview data the pages' blocks need, made once here before
        the page loop, so a forked worker converting pages ahead inherits it instead
        of making it again (a build with dashboards made it in both processes)."""
        wanted = needed_data(self.ctx.compiled, self.ctx.read_text)
        if wanted:
            self.site.dashboards.prepare(wanted)

    def release(self) -> None:
        self.site.report_digested()  # the pages not rendered again report theirs
        self.site.release()  # every page is converted: no query runs after

    def unrendered_diagnostics(self) -> list[diag.Diagnostic]:
        """The query-errors of the pages a worker converted (``QuerySite``)."""
        return self.site.unrendered_diagnostics(self.ctx.read_text)

    def shown(self, change: Change) -> Shown:
        """Each note by its text's digest and whether it shows a query (the next build
        reads again only the notes edited since), and for a page showing one the digest
        of its results (``notes``: ``text:shows[:results]``); the pages whose results
        it cannot digest (``pages``: rendered again after any change)."""
        known: dict[SrcPath, tuple[str, bool]] = {}
        if change.before is not None:
            for path, value in change.before.notes.items():
                digest, shows = value.split(":")[:2]
                known[path] = (digest, shows == "1")
        read = self.ctx.read_text
        found = pages_with_queries(change.compiled, read, known)
        notes = {path: f"{digest}:{int(shows)}" for path, (digest, shows) in known.items()}
        always: set[SrcPath] = set()
        documents = change.compiled.documents
        for path in sorted(found):
            doc = documents[path]
            # an embed of a base file: its result is not among the page's blocks
            if doc.kind != "base" and names_a_base(read(path)):
                always.add(path)
                continue
            try:
                digest = self.site.digest(doc, read)
            except Exception:  # noqa: BLE001 - the page's render reports it (render-error)
                log.debug("the results of %s were not digested", path, exc_info=True)
                always.add(path)
                continue
            notes[path] = f"{notes.get(path, '-:1')}:{digest}"
        return Shown(notes=notes, pages=frozenset(always))

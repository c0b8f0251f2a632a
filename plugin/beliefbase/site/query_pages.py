"""Queries in pages (SPEC §8): ``{{query:…}}``, query fences and Query notes render
their results through ``QueryExtension``; ``mkdocs serve --dirty`` renders the
pages that show one again after any change (any change to the graph may change a
result)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import diagnostics as diag
from ..ids import SrcPath
from .feature import Change, FeatureContext, Shown, SiteFeature
from .markdown.query_embeds import QueryExtension, QuerySite, build_site, pages_with_queries
from .query_views import Views


class QueryPages(SiteFeature):
    """The queries of one build's pages, and which notes show a result."""

    name = "queries"

    @classmethod
    def make(cls, ctx: FeatureContext) -> QueryPages:
        o = ctx.options
        docs_dir = Path(ctx.config.docs_dir)
        site = build_site(ctx.compiled, ctx.renderer, Views(docs_dir / o.views_dir, o.views),
                          ctx.report, float(o.query_timeout), o.query_max_rows)
        return cls(ctx, site)

    def __init__(self, ctx: FeatureContext, site: QuerySite) -> None:
        self.ctx = ctx
        self.site = site  # the database, made on the first query of the build

    def markdown_extensions(self) -> list[Any]:
        return [QueryExtension(self.site)]

    def release(self) -> None:
        self.site.release()  # every page is converted: no query runs after

    def unrendered_diagnostics(self) -> list[diag.Diagnostic]:
        """The query-errors of the pages a worker converted (``QuerySite``)."""
        return self.site.unrendered_diagnostics(self.ctx.read_text)

    def shown(self, change: Change) -> Shown:
        """Every note showing a query (``pages``), and each note's answer by its
        digest (``notes``: the next build reads again only the notes edited since)."""
        known: dict[SrcPath, tuple[str, bool]] = {}
        if change.before is not None:
            for path, value in change.before.notes.items():
                digest, _, shows = value.rpartition(":")
                known[path] = (digest, shows == "1")
        found = pages_with_queries(change.compiled, self.ctx.read_text, known)
        return Shown(notes={path: f"{digest}:{int(shows)}"
                            for path, (digest, shows) in known.items()},
                     pages=frozenset(found))

"""The pages that show a query's result: ``mkdocs serve --dirty`` renders them again
after any change (any change to the graph may change a result)."""

from __future__ import annotations

from ..ids import SrcPath
from .feature import Change, FeatureContext, Shown, SiteFeature
from .markdown.query_embeds import pages_with_queries


class QueryPages(SiteFeature):
    """Which notes show a query's result (the results are rendered by ``QueryExtension``)."""

    name = "queries"

    @classmethod
    def make(cls, ctx: FeatureContext) -> QueryPages:
        return cls(ctx)

    def __init__(self, ctx: FeatureContext) -> None:
        self.ctx = ctx

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

"""The wanted page: every link target no note has, with the notes that want it."""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files, InclusionLevel

from .. import diagnostics as diag
from .feature import FeatureContext, SiteFeature
from .generated_page import generated_page
from .panels import wanted_html


class WantedPage(SiteFeature):
    """The page at the plugin option ``wanted_page``, unless the site has one there."""

    name = "wanted"

    @classmethod
    def make(cls, ctx: FeatureContext) -> WantedPage:
        return cls(ctx, ctx.options.wanted_page.rstrip("/") + ".md")

    def __init__(self, ctx: FeatureContext, src: str) -> None:
        self.ctx = ctx
        self.src = src
        self.added = False

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        if files.get_file_from_path(self.src) is None:
            files.append(generated_page(config, self.src, "# Wanted notes\n",
                                        InclusionLevel.NOT_IN_NAV))
            self.added = True
        return []

    def owns(self, src: str) -> bool:
        return self.added and src == self.src

    def meta(self, src: str) -> dict[str, Any]:
        # a list of every dangling link: nothing to search for, and parsing it
        # costs the theme's search a second per rebuild in a large vault
        return {"title": "Wanted notes", "search": {"exclude": True}} if self.owns(src) else {}

    def content(self, src: str, page_url: str) -> str | None:
        if not self.owns(src):
            return None
        return wanted_html(self.ctx.compiled, page_url, self.ctx.templates)

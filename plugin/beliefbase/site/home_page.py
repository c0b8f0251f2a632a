"""The site's home page: the vault's home note at the root, or a generated list of notes."""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from .. import diagnostics as diag
from ..builder.documents import page_path
from ..ids import root_url
from .escape import UserText
from .explorer import build_tree, flat_index
from .feature import FeatureContext, SiteFeature
from .generated_page import generated_page

log = get_plugin_logger("beliefbase.plugin")

HOME_SRC = "index.md"


class HomePage(SiteFeature):
    """Makes sure the site root has a page; the generated one when the vault has none."""

    name = "home"

    @classmethod
    def make(cls, ctx: FeatureContext) -> HomePage:
        return cls(ctx)

    def __init__(self, ctx: FeatureContext) -> None:
        self.ctx = ctx
        self.generated = False

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        how = self._place(files, config)
        if how is not None:
            log.info(how)
        return []

    def _place(self, files: Files, config: MkDocsConfig) -> str | None:
        """Say how the root got its page, when the vault has no index.md.

        The compiler gave a home-named root note (``Home.md``) the root URL
        (``place_home``): its page is written there.  Else, when nothing is at
        the root, a generated page lists the vault's notes by folder.
        """
        compiled = self.ctx.compiled
        home_url = root_url(compiled.options.use_directory_urls)
        taken = any(f.dest_uri == "index.html" for f in files)
        for doc in compiled.published.values():
            if doc.url != home_url:
                continue
            file = files.get_file_from_path(page_path(doc.parsed))
            if file is not None and file.url != home_url and not taken:
                # the compiler's home note, or an ``Index.md`` MkDocs would not put there
                file.dest_uri = "index.html"
                for cached in ("url", "abs_dest_path"):
                    file.__dict__.pop(cached, None)
            if compiled.home is None:
                return None
            return f"no index.md: the home page is {doc.path}"
        if taken:
            return None
        self.generated = True
        files.append(generated_page(config, HOME_SRC))
        return "no index.md: the home page is a generated list of notes"

    def owns(self, src: str) -> bool:
        return self.generated and src == HOME_SRC

    def meta(self, src: str) -> dict[str, Any]:
        if not self.owns(src):
            return {}
        # every title once more: the notes themselves are searched already
        name = self.ctx.compiled.options.site_name or "Home"
        return {"title": UserText(name), "search": {"exclude": True}}

    def content(self, src: str, page_url: str) -> str | None:
        if not self.owns(src):
            return None
        base = get_relative_url("index.html", page_url).removesuffix("index.html")
        recent = self.ctx.feature("recent")
        listed = recent.home_html(page_url) if recent is not None else ""
        return self.ctx.templates.render("all-notes.html",
                                         tree=flat_index(build_tree(self.ctx.compiled)),
                                         base=base) + listed

"""Beliefs in the built site (SPEC 6.5): verify, index, generate pages, panels, outputs.

One ``BeliefSite`` per build, a ``SiteFeature`` (``site/feature.py``):

1. ``sync_index()`` (``on_files``, right after the compile): the compile
   verified every sidecar against the compiled pages and raw_dir
   (``compile/beliefs.py``; its diagnostics are the compile's, so
   ``beliefbase check`` reports them too); ``cache_dir/beliefs.sqlite`` is
   synced with the result.
2. ``add_files(files, config)``: the generated pages, ``File.generated`` with
   empty Markdown: ``beliefs/`` (in the nav), ``beliefs/topic/<topic>/`` and
   ``beliefs/<belief>/`` (not in the nav), plus ``_beliefbase/beliefs.js``.
3. ``title()`` / ``content()`` while pages render: the templates in
   ``theme/beliefs/`` fill the generated pages; ``panel()`` and the footnote
   links decorate wiki pages that have a sidecar.
4. ``write_outputs()`` (``on_post_build``): ``beliefs.json``,
   ``beliefs.schema.json``, ``beliefs-search.json`` and ``lunr.js``.

Beliefs of draft pages never get here: the verifier leaves them out of the
``BeliefSet``, and ``Compiled.hidden_files()`` names the drafts' sidecars so
their diagnostics stay out of ``diagnostics.json``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel

from ... import diagnostics as diag
from ...beliefs import BeliefSet, BeliefStore
from ...beliefs.dates import build_date as build_date  # the compile's "today" (re-exported)
from ...beliefs.emit import write_beliefs_json, write_schema
from ...builder.documents import Document
from ...compile.compiled import Compiled
from ...config import BeliefbaseConfig
from ...ids import SrcPath
from ...project import cache_dir
from ..escape import UserText, ascii_html
from ..feature import Change, FeatureContext, Shown, SiteFeature
from ..generated_page import generated_page
from ..markdown.footnote_beliefs import FootnoteBeliefsExtension
from ..templates import Templates, theme_dir
from .search import SEARCH_JSON, search_json, write_lunr
from .views import BeliefPlan, BeliefViews, plan_pages, raw_site_urls

if TYPE_CHECKING:
    from ..render import PageRenderer

log = get_plugin_logger(__name__)
OUTPUT_DIR = "_beliefbase"  # session.OUTPUT_DIR (session imports this module)

SCRIPT = "beliefs.js"
_TITLE_LENGTH = 72  # page titles (<title>, search results) of belief pages


@dataclass(frozen=True)
class BeliefOptions:
    """What the belief pages need from the plugin's configuration."""

    root: str  # beliefs_page: "beliefs/"
    recent_days: int  # "changed recently" = supersessions in this many days before today
    cache_dir: Path | None  # where beliefs.sqlite and the search index cache live
    today: date  # the build date


def belief_options(config: MkDocsConfig, plugin_config: BeliefbaseConfig) -> BeliefOptions:
    """``BeliefOptions`` from mkdocs.yml (cache_dir resolved against its folder)."""
    return BeliefOptions(root=plugin_config.beliefs_page, recent_days=plugin_config.recent_days,
                         cache_dir=cache_dir(config), today=build_date())


class BeliefSite(SiteFeature):
    """The belief side of one site build."""

    name = "beliefs"
    panel_rank = 20  # made as each page comes: it reads the SQLite belief index

    @classmethod
    def make(cls, ctx: FeatureContext) -> BeliefSite:
        """Sync the belief index with the compile's verified beliefs (the verification
        and its diagnostics are the compile's)."""
        site = cls(ctx.compiled, ctx.templates, ctx.renderer,
                   belief_options(ctx.config, ctx.options))
        site.sync_index()
        return site

    def __init__(self, compiled: Compiled, templates: Templates, renderer: PageRenderer,
                 options: BeliefOptions) -> None:
        self.compiled = compiled
        self.templates = templates
        self.renderer = renderer
        self.options = options
        self.belief_set: BeliefSet | None = None
        self.plan: BeliefPlan | None = None
        self.views: BeliefViews | None = None
        self._kinds: dict[str, tuple[str, str]] = {}  # generated src -> (kind, key)

    # -- build -------------------------------------------------------------------------

    def sync_index(self) -> None:
        """Take the compile's verified beliefs and sync the SQLite index with them.

        The verification and its diagnostics are the compile's
        (``compile/beliefs.py``): ``beliefbase check`` reports them too."""
        self.belief_set = self.compiled.beliefs
        if self.belief_set is not None and self.options.cache_dir is not None:
            try:
                with BeliefStore(self.options.cache_dir / "beliefs.sqlite") as store:
                    store.sync(self.belief_set)
            except (sqlite3.Error, OSError) as exc:
                log.warning(f"the belief index in {self.options.cache_dir} could not be "
                            f"updated ({exc}); `beliefbase why` may answer from old data")

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Add the generated belief pages (none when no published page has beliefs)."""
        belief_set = self.belief_set
        if belief_set is None or not belief_set.beliefs:
            return []
        plan = plan_pages(belief_set, self.options.root, bool(config.use_directory_urls),
                          (f.src_uri for f in files))
        found: list[diag.Diagnostic] = []
        if plan.index_src is None:
            index = self.options.root + "index.md"
            found.append(diag.make(
                "page-conflict", self.compiled.options.display(index), 1, 1,
                f"this page has the URL of the belief index ({self.options.root}), so no "
                "index is generated; rename the page or set the plugin's beliefs_page"))
        else:
            self._kinds[plan.index_src] = ("index", "")
            files.append(generated_page(config, plan.index_src))
        for kind, table in (("topic", plan.topic_src), ("belief", plan.belief_src)):
            for key, src in table.items():
                self._kinds[src] = (kind, key)
                files.append(generated_page(config, src, inclusion=InclusionLevel.NOT_IN_NAV))
        files.append(File.generated(config, f"_beliefbase/{SCRIPT}",
                                    abs_src_path=str(theme_dir() / "assets" / SCRIPT)))
        static = {f.src_uri for f in files if not f.is_documentation_page()}
        opts = self.compiled.options
        raw_dir = opts.raw_dir or opts.project_dir / "raw"
        self.plan = plan
        self.views = BeliefViews(belief_set, self.compiled, plan,
                                 raw_site_urls(belief_set, raw_dir, opts.docs_dir, static),
                                 self.options.recent_days)
        return found

    # -- generated pages ---------------------------------------------------------------

    def owns(self, src: str) -> bool:
        return src in self._kinds

    def meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of a generated page: its title; belief pages stay out of the
        theme's search (their statements are in the wiki pages, and the belief index
        has its own search), which also keeps large sites' search index small."""
        title = self.title(src)
        if title is None:
            return {}
        if self._kinds[src][0] == "belief":
            return {"title": title, "search": {"exclude": True}}
        return {"title": title}

    def title(self, src: str) -> UserText | None:
        """``page.meta["title"]`` of a generated page (user text: the theme escapes it)."""
        kind, key = self._kinds.get(src, ("", ""))
        if kind == "index":
            return UserText("Beliefs")
        if kind == "topic":
            return UserText(f"Beliefs on {key}")
        if kind == "belief" and self.belief_set is not None:
            statement = self.belief_set.beliefs[key].belief.statement
            if len(statement) > _TITLE_LENGTH:
                statement = statement[: _TITLE_LENGTH - 1].rstrip() + "…"
            return UserText(statement)
        return None

    def content(self, src: str, page_url: str) -> str | None:
        """The HTML of a generated page (its Markdown is empty)."""
        kind, key = self._kinds.get(src, ("", ""))
        views = self.views
        if views is None or not kind:
            return None
        if kind == "index":
            return self.templates.render("beliefs/index.html", **views.index(page_url))
        if kind == "topic":
            return self.templates.render("beliefs/topic.html", **views.topic(key, page_url))
        return self.templates.render("beliefs/belief.html", **views.belief(key, page_url))

    # -- wiki pages --------------------------------------------------------------------

    def panel(self, doc: Document, page_url: str) -> str:
        """"Beliefs on this page" for a page with a sidecar, else ``""``."""
        data = self.views.panel(doc.path, page_url) if self.views else None
        return ascii_html(self.templates.render("beliefs/panel.html", **data)) if data else ""

    def markdown_extensions(self) -> list[Any]:
        """The footnotes' links to the beliefs citing them."""
        return [FootnoteBeliefsExtension(self.footnote_links)]

    def shown(self, change: Change) -> Shown:
        """What each wiki page shows of beliefs (``page_signatures``)."""
        return Shown(notes=self.page_signatures())

    def page_signatures(self) -> dict[SrcPath, str]:
        """What each wiki page shows of beliefs (panel and footnote links), as text.

        ``mkdocs serve --dirty`` compares them with the last build's: an edited
        sidecar or raw file, or a belief superseded from another page, changes a
        page whose Markdown did not change.
        """
        views = self.views
        if views is None or self.belief_set is None:
            return {}
        found: dict[SrcPath, str] = {}
        for page in self.belief_set.pages:
            doc = self.compiled.documents.get(SrcPath(page))
            if doc is not None and doc.url is not None:
                found[doc.path] = repr((views.panel(page, doc.url),
                                        views.footnotes(page, doc.url)))
        return found

    def footnote_links(self) -> dict[str, str]:
        """For the page being rendered: footnote id -> HTML of links to its beliefs."""
        frame = self.renderer.frame
        if self.views is None or frame is None or frame.nested:
            return {}  # an embedded note's footnotes belong to the other page
        found = self.views.footnotes(frame.doc.path, frame.host_url)
        return {footnote: self.templates.render("beliefs/footnote-links.html", beliefs=beliefs)
                for footnote, beliefs in found.items() if beliefs}

    # -- outputs -----------------------------------------------------------------------

    def write_page_outputs(self, site_dir: Path) -> None:
        self.write_outputs(site_dir / OUTPUT_DIR)

    def write_outputs(self, out_dir: Path) -> None:
        """``beliefs.json`` (always, when verified), schema, search index and lunr.js.

        Also escapes our pages' titles in the theme's search index (``out_dir`` is
        ``site/_beliefbase``; this runs after the search plugin wrote its index).
        """
        if self.belief_set is None:
            return
        write_beliefs_json(self.belief_set, out_dir)
        write_schema(out_dir)
        if self.plan is None:
            return
        text = search_json(self.belief_set, self.plan, self.options.cache_dir)
        (out_dir / SEARCH_JSON).write_text(text, encoding="utf-8")
        write_lunr(out_dir)

    def search_titles(self) -> dict[str, str]:
        """Page location -> title (user text) of the generated belief pages."""
        if self.belief_set is None or self.plan is None:
            return {}
        return {self.plan.url(src): str(self.title(src)) for src in self._kinds}

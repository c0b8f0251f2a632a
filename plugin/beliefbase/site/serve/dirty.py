"""Making ``mkdocs serve --dirty`` correct: rebuild what a change touches.

A dirty build re-renders a page only when its source is newer than its output.
After each compile, ``Invalidation`` carries out the build's ``RenderPlan``
(``plan.py``): it removes the output of every page that shows something of the
change and of deleted notes, and of generated pages no feature makes any more,
so MkDocs re-renders exactly those; a generated page (which has
no source to compare) is kept when what it shows is what the last build showed
(``keep_unchanged``).  After the build it repairs the search index, which
Material merges assuming a single changed page.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.structure.files import Files

from ...builder.documents import page_path
from ...compile.compiled import Compiled
from ...ids import SrcPath
from ...search_index import DirtyMerge, read_index
from ..feature import Shown
from ..generated_page import GeneratedPage
from ..templates import templates_stamp
from . import pages as unread
from .dependents import rewritten_notes
from .plan import RenderPlan, plan_renders

if TYPE_CHECKING:
    from ..session import SiteBuild


def _page_src(new: Compiled, path: SrcPath) -> str:
    """The page file of ``path``: a note's page, or a generated page's own source (a
    folder listing, a belief page); a note deleted since keeps its path, which no
    file has any more (its output is removed with ``new.removed``)."""
    doc = new.documents.get(path)
    return page_path(doc.parsed) if doc is not None else path


class Invalidation:
    """What this dirty build must re-render, and what it did."""

    def __init__(self) -> None:
        self._rendered: set[str] = set()
        self.live: set[str] = set()  # URLs of every page of the current build
        self._previous_index: dict[str, Any] | None = None
        self._site_dir: Path | None = None
        self._shown: dict[str, str] = {}  # generated page -> what it showed last build
        self._templates = ""  # the templates it was rendered with (templates_stamp)
        self._navigation: str | None = None  # the navigation the last build printed
        #: what each page feature showed in the last dirty build (``SiteFeature.shown``)
        self.features_shown: dict[str, Shown] = {}
        self._dests: set[str] | None = None  # every file MkDocs wrote last build

    def files(self, old: Compiled | None, site: SiteBuild, files: Files, config: Any,
              page_urls: set[str], *, serving: bool, nav_in_every_page: bool) -> None:
        """At ``on_files`` of a dirty build: plan what it renders and remove those
        outputs; under serve, mark the generated pages that show what they showed."""
        self.remember_search_index(Path(config.site_dir))
        plan = self.plan(old, site, nav_in_every_page)
        self.invalidate(old, site.compiled, files, config, plan)
        self.remove_gone_files(files, Path(config.site_dir))
        if serving:  # (a one-off `build --dirty` has no next build to compare)
            custom_dir = getattr(config.theme, "custom_dir", None)
            self.keep_unchanged(  # tag, folder pages... not changed
                files, functools.partial(unread.shown, site), templates_stamp(custom_dir))
        self.live = page_urls

    def nav(self, site: SiteBuild, files: Files, nav: Any, nav_in_every_page: bool) -> None:
        """At ``on_nav`` of a dirty build, before MkDocs asks which pages changed."""
        if nav_in_every_page:  # Material's navigation is in every page
            self.follow_navigation(files, unread.navigation_signature(site, nav))
        unread.title_unread_pages(site, files)

    def plan(self, old: Compiled | None, site: SiteBuild, nav_in_every_page: bool
             ) -> RenderPlan:
        """This build's plan (``plan.py``), from what the features show now and showed
        in the last build; remembered for the next."""
        rewritten = rewritten_notes(old, site.compiled) if old is not None else {}
        now = site.shown(old, rewritten, self.features_shown)
        plan = plan_renders(old, site.compiled, self.features_shown, now,
                            nav_in_every_page=nav_in_every_page, read=site.read_text,
                            rewritten=rewritten)
        self.features_shown = dict(plan.shown)
        return plan

    def invalidate(self, old: Compiled | None, new: Compiled, files: Files, config: Any,
                   plan: RenderPlan) -> int:
        """Delete the outputs of the plan's pages, of deleted notes' pages and of gone
        generated pages; returns how many."""
        self._rendered = set()
        pages = plan.pages
        wanted = {_page_src(new, p) for p in pages} if pages is not None else None
        count = 0
        for file in files.documentation_pages():
            if wanted is None or file.src_uri in wanted:
                count += _remove(file.abs_dest_path)
        site = Path(config.site_dir)
        if old is not None:
            for path in new.removed:
                doc = old.documents.get(path)
                if doc is not None and doc.url is not None:
                    count += _remove(str(site / _dest(doc.url)))
        for dest in plan.gone:
            count += _remove(str(site / dest))
        return count

    def remove_gone_files(self, files: Files, site_dir: Path) -> int:
        """Remove what the last build's files wrote and this build's do not: a
        deleted image or attachment (MkDocs' dirty build leaves it); returns how many."""
        dests = {f.dest_uri for f in files}
        gone = self._dests - dests if self._dests is not None else set()
        self._dests = dests
        return sum(_remove(str(site_dir / dest)) for dest in gone)

    def keep_unchanged(self, files: Files, shown: Callable[[str, str], str],
                       templates: str = "") -> None:
        """Mark the generated pages that show what they showed in the last build
        (``shown(src, url)``, a digest) with the same ``templates`` (their names and
        times): MkDocs skips them while their output is there.  Call after
        ``invalidate``."""
        now: dict[str, str] = {}
        same_templates = templates == self._templates
        self._templates = templates
        for file in files.documentation_pages():
            if isinstance(file, GeneratedPage):
                now[file.src_uri] = digest = shown(file.src_uri, file.url)
                file.unchanged = same_templates and self._shown.get(file.src_uri) == digest
        self._shown = now

    def follow_navigation(self, files: Files, signature: str) -> None:
        """The theme prints the navigation into every page: when it changed since the
        last build (a page added to it, a title), remove every page's output.
        Call before anything asks MkDocs whether a page is modified."""
        changed = self._navigation is not None and signature != self._navigation
        self._navigation = signature
        if changed:
            for file in files.documentation_pages():
                _remove(file.abs_dest_path)

    def forget_pages(self) -> None:
        """Render every generated page in the next dirty build (this one failed, or
        was not dirty: what the last build showed is not known)."""
        self._shown = {}
        self._navigation = None

    def rendered(self, url: str) -> None:
        self._rendered.add(url)

    def was_rendered(self, url: str) -> bool:
        """Did this (dirty) build render the page at ``url``?"""
        return url in self._rendered

    def remember_search_index(self, site_dir: Path | None) -> None:
        """Where the last good index is, before Material writes its own: read only
        if the merge needs it (``search_merge``); None forgets it."""
        self._site_dir = site_dir
        self._previous_index = None

    def search_merge(self, read_previous: bool = True) -> DirtyMerge:
        if read_previous and self._previous_index is None and self._site_dir is not None:
            self._previous_index = read_index(self._site_dir)
        return DirtyMerge(self._previous_index, {_location(u) for u in self._rendered},
                          {_location(u) for u in self.live})


def _location(url: str) -> str:
    """A page URL as Material's search index writes it (home is "")."""
    return "" if url in ("./", "/", ".") else url


def _dest(url: str) -> str:
    if url.endswith("/") or url in ("", "./"):
        return url.removeprefix("./") + "index.html"
    return url


def _remove(path: str) -> int:
    try:
        os.remove(path)
        return 1
    except OSError:
        return 0

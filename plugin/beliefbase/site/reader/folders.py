"""Folder pages and breadcrumbs (issue 21): where a note sits, and what a folder holds.

Breadcrumbs: every note in a folder gets a row above its title, "Home ›
folder › sub › Note" (``theme/breadcrumbs.html``): the site root, each
folder above the note linking to its page, the note itself last without a
link.  Root-level notes and the home page get no row (it would only say
"Home › Note").  One implementation for every layout: the row is part of the
page's content, so it shows with Material's navigation and with the explorer.

Folder pages (plugin option ``folder_pages``): each folder holding published
notes (directly or below) has a page at its URL (``projects/``) listing its
sub-folders first, then its notes by title, each note with its date (last
updated, else created: ``site/reader/dates.py`` through ``FolderSite.date_of``) and
the first sentence of its hover preview.  A folder with its own note
(``index.md``/``README.md``) keeps that note's page and gets the listing
under its text, as Quartz appends it to a folder note; else a page is
generated (``File.generated``, like the tag pages of ``tags.py``), kept out
of MkDocs' navigation (Material already shows the folder as a section; a nav
entry would change every page's navigation when a folder appears) and out of
the search index (its text is the notes' titles, searched already).  The
root folder has the home page (the vault's or the generated list of notes).
Drafts are in no listing: the tree is made of published notes only.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from ... import diagnostics as diag
from ...builder.documents import Document, page_path
from ...codecs.snippet import first_sentence, snippet_parts
from ...compile.compiled import Compiled
from ...ids import SrcPath, is_index_name, normalize_name, url_for_src
from ..escape import UserText
from ..explorer import Folder, build_tree
from ..feature import Change, FeatureContext, Shown, SiteFeature
from ..templates import Templates
from .generated import GeneratedPages

# The end of a text's first sentence: ., ! or ? (a closing quote or bracket may
# follow) before whitespace and anything but a lower-case letter, so an
# abbreviation inside a sentence ("e.g. this") does not end it.
#: The home crumb's label (Quartz's; the site name can be long)
HOME_LABEL = "Home"


@dataclass(frozen=True)
class FolderOptions:
    folder_pages: bool
    breadcrumbs: bool = True



class FolderSite(SiteFeature):
    """The folder tree of one build, its pages and every note's breadcrumbs."""

    name = "folders"

    @classmethod
    def make(cls, ctx: FeatureContext) -> FolderSite:
        reader, recent = ctx.feature("reader"), ctx.feature("recent")
        navigation = ctx.feature("navigation")
        return cls(ctx.compiled, ctx.templates,
                   FolderOptions(ctx.options.folder_pages, ctx.options.breadcrumbs),
                   reader.excerpt if reader is not None else None,
                   recent.listed_date if recent is not None else None,
                   navigation.tree if navigation is not None else None)

    def __init__(self, compiled: Compiled, templates: Templates, options: FolderOptions,
                 excerpt_of: Callable[[Document], str] | None = None,
                 date_of: Callable[[Document], dict[str, str] | None] | None = None,
                 explorer: Folder | None = None) -> None:
        self.explorer = explorer  # the explorer's tree: its folders link to our pages too
        self.compiled = compiled
        self.templates = templates
        self.options = options
        self.excerpt_of = excerpt_of  # the hover preview's text (reader.py), if any
        #: a note's date as the listing shows it ({"iso", "text"}), or None
        self.date_of = date_of
        self.tree = build_tree(compiled)
        self.tree.label = HOME_LABEL
        self.tree.url = "./" if compiled.options.use_directory_urls else "index.html"
        self._folders: dict[str, Folder] = {}  # by path ("a/b"), the root excluded
        self._walk(self.tree)
        self._generated: dict[str, Folder] = {}  # src ("a/b/index.md") -> its folder
        self._folder_notes: dict[SrcPath, Folder] = {}  # a folder's own note -> the folder

    def _walk(self, folder: Folder) -> None:
        for sub in folder.folders.values():
            self._folders[sub.path] = sub
            self._walk(sub)

    # -- pages -------------------------------------------------------------------------

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Generate the page of every folder without a note of its own."""
        self._add_pages(files, config)
        if self.explorer is not None:
            self.link(self.explorer)
        return []

    def _add_pages(self, files: Files, config: MkDocsConfig) -> None:
        if not self.options.folder_pages:
            return
        use_dirs = self.compiled.options.use_directory_urls
        generated = GeneratedPages(files, config)
        for path, folder in sorted(self._folders.items()):
            if folder.url is not None:
                continue
            src = SrcPath(f"{path}/index.md")
            if not generated.add(src)[1]:
                continue  # a page of the site is there (not a note: an asset page, say)
            folder.url = url_for_src(src, use_dirs)
            self._generated[src] = folder
        for doc in self.compiled.published.values():
            source = page_path(doc.parsed)
            if doc.url is not None and is_index_name(source) and posixpath.dirname(source):
                found = self._folders.get(posixpath.dirname(source))
                if found is not None:
                    self._folder_notes[doc.path] = found

    def link(self, tree: Folder) -> None:
        """Give ``tree``'s folders (the explorer's) the URLs of their generated pages."""
        for sub in tree.folders.values():
            page = self._folders.get(sub.path)
            if sub.url is None and page is not None:
                sub.url = page.url
            self.link(sub)

    @property
    def dest_uris(self) -> set[str]:
        """The output paths of the generated folder pages (a --dirty rebuild removes
        the pages of folders that are gone)."""
        return {f.url + "index.html" if f.url and f.url.endswith("/") else f.url or ""
                for f in self._generated.values()}

    def owns(self, src: str) -> bool:
        return src in self._generated

    def meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of a generated folder page: the folder's name, not searched."""
        folder = self._generated.get(src)
        if folder is None:
            return {}
        return {"title": UserText(folder.label), "search": {"exclude": True}}

    def content(self, src: str, page_url: str) -> str | None:
        """The HTML of a generated folder page (its Markdown is empty)."""
        folder = self._generated.get(src)
        if folder is None:
            return None
        return self.templates.render(
            "folder.html", title=UserText(folder.label),
            crumbs=self._crumbs(posixpath.dirname(folder.path), folder.label, page_url),
            **self._listing(folder, page_url))

    def after_text(self, doc: Document, page_url: str) -> str:
        """The listing under a folder note's text ("" for any other note)."""
        folder = self._folder_notes.get(doc.path) if self.options.folder_pages else None
        if folder is None:
            return ""
        return self.templates.render("folder-listing.html", **self._listing(folder, page_url))

    def _listing(self, folder: Folder, page_url: str) -> dict[str, Any]:
        base = get_relative_url("index.html", page_url).removesuffix("index.html")
        folders = [{"title": UserText(sub.label),
                    "href": base + sub.url if sub.url is not None else None,
                    "count": _count(sub)}
                   for sub in sorted(folder.folders.values(),
                                     key=lambda f: (normalize_name(f.label), f.path))]
        notes = [{"title": UserText(d.title), "href": base + (d.url or ""),
                  "date": self.date_of(d) if self.date_of is not None else None,
                  "description": snippet_parts(first_sentence(self.excerpt_of(d)))
                  if self.excerpt_of is not None else []}
                 for d in sorted(folder.notes, key=lambda d: (normalize_name(d.title), d.path))]
        return {"folders": folders, "notes": notes, "count": _count(folder)}

    # -- breadcrumbs -------------------------------------------------------------------

    def above(self, doc: Document, page_url: str) -> str:
        """The breadcrumb row of a note ("" at the root of the site, or when off)."""
        if not self.options.breadcrumbs:
            return ""
        source = page_path(doc.parsed)
        folder = posixpath.dirname(source)
        if is_index_name(source):  # a folder's note stands for the folder
            if not folder:
                return ""
            crumbs = self._crumbs(posixpath.dirname(folder), doc.title, page_url)
        elif not folder:
            return ""
        else:
            crumbs = self._crumbs(folder, doc.title, page_url)
        return self.templates.render("breadcrumbs.html", crumbs=crumbs)

    def _crumbs(self, folder_path: str, last: str, page_url: str) -> list[dict[str, Any]]:
        """Home, each folder down to ``folder_path``, then ``last`` (unlinked)."""
        base = get_relative_url("index.html", page_url).removesuffix("index.html")
        home = (base or "./") if self.compiled.options.use_directory_urls else base + "index.html"
        crumbs: list[dict[str, Any]] = [{"label": UserText(self.tree.label), "href": home}]
        walked = ""
        for part in folder_path.split("/") if folder_path else []:
            walked = f"{walked}/{part}" if walked else part
            node = self._folders.get(walked)
            label = node.label if node is not None else part
            url = node.url if node is not None else None
            crumbs.append({"label": UserText(label),
                           "href": base + url if url is not None else None})
        crumbs.append({"label": UserText(last), "href": None})
        return crumbs

    # -- mkdocs serve --dirty ----------------------------------------------------------

    def shown(self, change: Change) -> Shown:
        """The folder pages written, and what each note shows of other notes here."""
        return Shown(notes=self.signatures(), outputs=frozenset(self.dest_uris))

    def signatures(self) -> dict[SrcPath, str]:
        """What each note shows of other notes here (its breadcrumbs' folders; a folder
        note's listing too), so a --dirty rebuild re-renders the notes where it changed.
        Generated folder pages are always rendered again (their source is in memory)."""
        labels = {path: (f.label, f.url) for path, f in self._folders.items()}
        out: dict[SrcPath, str] = {}
        for doc in self.compiled.published.values():
            where = posixpath.dirname(page_path(doc.parsed))
            if not where:
                continue
            above = [labels.get("/".join(where.split("/")[:k + 1]))
                     for k in range(where.count("/") + 1)]
            out[doc.path] = json.dumps(above)
        if self.options.folder_pages:
            for path, folder in self._folder_notes.items():
                out[path] = out.get(path, "") + json.dumps(
                    self._listing(folder, "index.html"), default=str, sort_keys=True)
        return out


def _count(folder: Folder) -> int:
    """Notes in ``folder`` and below."""
    return len(folder.notes) + sum(_count(f) for f in folder.folders.values())

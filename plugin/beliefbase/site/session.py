"""One build of the site: from a ``Compiled`` to pages, panels and JSON files.

The plugin creates a ``SiteBuild`` per MkDocs build (after compiling in
``on_files``) and forwards page events to it.  It owns the per-build state:
the renderer with its frames, the decoded texts of notes, the generated
pages, and what ``on_post_build`` writes.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import posixpath
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import lru_cache
from pathlib import Path
from typing import Any

import markdown
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from .. import diagnostics as diag
from ..builder.compiled import Compiled
from ..builder.documents import Document, page_path
from ..codecs.frontmatter import jsonable
from ..codecs.guards import make_renderable
from ..codecs.markdown import DECODED, decode, note_text
from ..entities import compile_entities
from ..graph.build import GraphBuilder
from ..graph.emit import graph_json_chunks
from ..graph.invariants import GENERATED_PAGES, missing_pages
from ..graph.model import Graph
from ..html_json import flat_json_for_html, json_for_html
from ..ids import SrcPath, fit_name, root_url, url_for_dest, url_slug
from .beliefs.pages import BeliefOptions, BeliefSite
from .escape import UserText, ascii_html, theme_meta
from .explorer import build_tree, flat_index
from .generated_page import generated_page
from .markdown.entity_overlay import EntityOverlay
from .markdown.footnote_beliefs import FootnoteBeliefsExtension
from .markdown.markdown_ext import WikiLinkExtension
from .navigation import NavigationOptions, NavigationSite
from .output import write_chunks, write_text
from .panels import Panels, drift_banner_html, wanted_html
from .panels_ahead import MadePanels, PageKey, panels_ahead
from .reader.dates import DatesCache, note_dates
from .reader.entity_pages import EntitySite
from .reader.folders import FolderOptions, FolderSite
from .reader.reader import ReaderCache, ReaderOptions, ReaderSite
from .reader.recent import FEED_XML, RecentOptions, RecentSite
from .reader.tags import TagOptions, TagSite
from .render import PageRenderer
from .render_errors import describe
from .templates import Templates

REDIRECTS_JSON = "redirects.json"
OUTPUT_DIR = "_beliefbase"


class SiteBuild:
    """Per-build state and the page hooks' logic."""

    def __init__(
        self,
        compiled: Compiled,
        templates: Templates,
        md_extensions: list[Any],
        md_configs: dict[str, Any],
    ) -> None:
        self.compiled = compiled
        self.templates = templates
        self._texts: dict[SrcPath, str] = {}
        self._md_extensions = md_extensions  # the build's, ``extension`` among them
        self._md_configs = md_configs
        self._nested: dict[int, markdown.Markdown] = {}
        self.renderer = PageRenderer(compiled, templates, self.read_text, self._render_nested)
        #: the Markdown extension rendering every wikilink, embed and tag of this build
        self.extension = WikiLinkExtension(self.renderer)
        self.panels = Panels(compiled, templates)
        self.by_page: dict[str, Document] = {}
        for doc in compiled.documents.values():
            if doc.published:
                self.by_page[page_path(doc.parsed)] = doc
        self.wanted_src: str | None = None
        self.graph: Graph | None = compiled.graph  # the compile's, invariants checked
        self.beliefs: BeliefSite | None = None
        self.reader: ReaderSite | None = None
        self.navigation: NavigationSite | None = None
        self.tags: TagSite | None = None
        self.entities: EntitySite | None = None  # entity pages (entity_pages.py)
        self.recent: RecentSite | None = None  # dates, recent notes, feed (recent.py)
        self.folders: FolderSite | None = None  # breadcrumbs, folder pages (folders.py)
        self.home_src: str | None = None  # the generated home page, if the vault has none
        #: panels made ahead, by (document path, page URL), each taken once
        self._panels_made: MadePanels | dict[tuple[str, str], str] = {}
        self.panels_taken = 0  # pages whose panels were made ahead

    # -- sources -----------------------------------------------------------------------

    def read_text(self, path: SrcPath) -> str:
        """A source's text as the codec parsed it: for a note, ``%%comments%%`` removed
        (``note_text``), so no reader of it (page, embeds, previews, mentions) sees them."""
        text = self._texts.get(path)
        if text is None:
            doc = self.compiled.documents.get(path)
            # the text the compile decoded, if it kept it (codecs.markdown.DECODED)
            text = DECODED.take(path, doc.parsed.digest) if doc is not None else None
            if text is None:
                file = self.compiled.options.docs_dir / path
                read = note_text if doc is None or doc.kind == "markdown" else decode
                try:
                    text, _ok = read(file.read_bytes())
                except OSError:
                    text = ""
            self._texts[path] = text
        return text

    def release_page_caches(self) -> None:
        """Drop what only rendering pages needed (note texts, link tables, panel
        lookups) before the theme writes its search index, the build's peak."""
        self._texts.clear()
        if isinstance(self._panels_made, MadePanels):
            self._panels_made.close()  # its temporary files
        self._panels_made = {}
        DECODED.close()
        self.renderer.release()
        self.panels.release()

    def page_markdown(self, doc: Document) -> str:
        """The Markdown MkDocs renders for ``doc``: its body, frontmatter removed.

        Malformed frontmatter is not dropped: it is shown as a code block.
        """
        if doc.kind == "toml":
            return ""
        parsed = doc.parsed
        text = self.read_text(doc.path)
        if parsed.bad_frontmatter:
            block = text[: parsed.frontmatter_end]
            fence = "`" * max(3, _longest_run(block, "`") + 1)
            body = make_renderable(text[parsed.frontmatter_end:])
            return f"{fence}yaml\n{block.rstrip()}\n{fence}\n\n{body}"
        return make_renderable(text[parsed.body_offset:])

    def page_meta(self, doc: Document) -> dict[str, Any]:
        """``page.meta``: frontmatter, title and tags, every string as UserText."""
        meta = dict(doc.meta)  # theme_meta makes the rest plain dicts and lists
        meta["title"] = doc.title
        if doc.tags:
            meta["tags"] = list(doc.tags)
        return theme_meta(meta)

    # -- rendering ---------------------------------------------------------------------

    def _render_nested(self, text: str, depth: int) -> str:
        md = self._nested.get(depth)
        if md is None:
            md = markdown.Markdown(extensions=self._md_extensions,
                                   extension_configs=self._md_configs)
            from .markdown.markdown_ext import EmbeddedLinks

            md.treeprocessors.register(EmbeddedLinks(md, self.renderer), "bb_embedded_links", 1)
            self._nested[depth] = md
        md.reset()
        try:
            html: str = md.convert(make_renderable(text))
            return html
        except Exception as error:  # noqa: BLE001 - the embedding page still renders
            # the embedded note's own page reports it (render-error); here its source
            return self.templates.render("render-error.html", reason=describe(error),
                                         source=text)

    def panels_before(self, doc: Document) -> str:
        return drift_banner_html(self.compiled, doc, self.templates)

    def panels_after(self, doc: Document, page_url: str, backlinks: bool) -> str:
        beliefs = ascii_html(self.beliefs.panel(doc, page_url)) if self.beliefs else ""
        if self.recent is not None and self.recent.is_home(doc):
            beliefs = self.recent.home_html(page_url) + beliefs  # first, like the text's end
        made = self._panels_made.pop((doc.path, page_url), None)
        if made is None:
            return beliefs + self._panels(doc, page_url, backlinks)
        self.panels_taken += 1
        return beliefs + made

    def make_panels_ahead(self, pages: list[PageKey], backlinks: bool) -> None:
        """Make the panels of ``pages`` now, on every core (see ``panels_ahead``)."""
        if self.reader is not None:
            self.reader.mentions()  # here: the workers inherit them, the cache stays here
        self._panels_made = panels_ahead(
            functools.partial(self._panels, backlinks=backlinks), pages)

    def _panels(self, doc: Document, page_url: str, backlinks: bool) -> str:
        """The panels after a page's text but the belief panel (which reads the belief
        index: not in a forked worker)."""
        reader = self.reader.panels_html(doc, page_url) if self.reader else ""
        if not backlinks:
            return ascii_html(reader)
        return ascii_html(self.panels.backlinks(doc, page_url) + reader)

    def page_top(self, doc: Document, html: str, page_url: str) -> str:
        """``html`` with the drift banner first, the aliases and tags under the title.

        A note whose first content is not an H1 but that has one further down (a
        section) gets its title as a heading first: the theme prints the title only
        when the page has no ``<h1>`` at all.
        """
        crumbs = self.folders.breadcrumbs_html(doc, page_url) if self.folders else ""
        if not doc.parsed.leading_h1 and ("<h1" in html or crumbs):
            # with breadcrumbs, the title too: the theme would print it above them
            html = self.templates.render("title.html", title=doc.title) + html
        html = self.tags.row_html(doc, html, page_url) if self.tags else html
        html = self.reader.aliases_html(doc, html) if self.reader else html
        html = self.recent.meta_html(doc, html) if self.recent else html  # right under the H1
        if self.folders is not None:
            html += self.folders.listing_html(doc, page_url)
        return crumbs + self.panels_before(doc) + html

    # -- dates, recent notes, the feed (issue 21; see recent.py) -------------------------

    def add_recent(self, options: RecentOptions, cache: DatesCache, files: Files,
                   config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Date every published note (one ``git log``) and add the recent notes page."""
        dates, found = note_dates(self.compiled, cache)
        self.recent = RecentSite(self.compiled, self.templates, self.read_text, dates, options)
        return found + self.recent.add_files(files, config)

    # -- the reader's features (SPEC 9; see reader.py) -----------------------------------

    def add_reader(self, options: ReaderOptions, cache: ReaderCache, files: Files,
                   config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Add the graph page, the viewer's assets and lunr.js to ``files``."""
        self.reader = ReaderSite(self.compiled, self.templates, self.read_text, options, cache)
        return self.reader.add_files(files, config)

    # -- beliefs (SPEC 6.5; see beliefs.py) ----------------------------------------------

    def add_beliefs(self, options: BeliefOptions, footnotes: FootnoteBeliefsExtension,
                    files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Sync the belief index with the compile's verified beliefs; add the belief pages
        to ``files`` (the verification and its diagnostics are the compile's)."""
        self.beliefs = BeliefSite(self.compiled, self.templates, self.renderer, options)
        footnotes.links = self.beliefs.footnote_links
        self.beliefs.sync_index()
        return self.beliefs.add_pages(files, config)

    def generated_meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of a generated page (title, search exclusion); empty if not ours."""
        if src == self.wanted_src:
            # a list of every dangling link: nothing to search for, and parsing it
            # costs the theme's search a second per rebuild in a large vault
            return {"title": "Wanted notes", "search": {"exclude": True}}
        if self.navigation is not None and self.navigation.is_all_notes(src):
            # every title once more: the notes themselves are searched already
            return {"title": "All notes", "search": {"exclude": True}}
        if src == self.home_src:  # likewise
            name = self.compiled.options.site_name or "Home"
            return {"title": UserText(name), "search": {"exclude": True}}
        if self.tags is not None and self.tags.is_tag_page(src):
            return self.tags.meta(src)
        if self.entities is not None and self.entities.is_entity_page(src):
            return self.entities.meta(src)
        if self.recent is not None and self.recent.is_recent_page(src):
            return self.recent.meta()
        if self.folders is not None and self.folders.is_folder_page(src):
            return self.folders.meta(src)
        return self.beliefs.meta(src) if self.beliefs else {}

    def add_folders(self, options: FolderOptions, files: Files, config: MkDocsConfig) -> None:
        """Breadcrumbs on every note in a folder; the folder pages (see folders.py)."""
        excerpt_of = self.reader.excerpt if self.reader is not None else None
        date_of = self.recent.listed_date if self.recent is not None else None
        self.folders = FolderSite(self.compiled, self.templates, options, excerpt_of, date_of)
        self.folders.add_files(files, config)
        if self.navigation is not None:  # the explorer's folders link to their pages too
            self.folders.link(self.navigation.tree)

    def add_navigation(self, options: NavigationOptions, files: Files, config: Any) -> None:
        """The explorer (plugin option ``explorer``): tree, breadcrumbs, "All notes"."""
        if options.explorer:
            self.navigation = NavigationSite(self.compiled, self.templates, options)
            self.navigation.add_files(files, config)

    # -- tags and the home page (SPEC 9; see tags.py) -------------------------------------

    def add_tags(self, options: TagOptions, files: Files, config: MkDocsConfig) -> list[str]:
        """The tag index and tag pages; returns the URLs a page of the site already had."""
        self.tags = TagSite(self.compiled, self.templates, options)
        self.renderer.tag_page = self.tags.src_of
        return self.tags.add_files(files, config)

    def add_entities(self, overlay: EntityOverlay, files: Files, config: MkDocsConfig
                     ) -> list[diag.Diagnostic]:
        """The entity pages and the overlay's view of this build (SPEC §7)."""
        index, found = compile_entities(self.compiled)  # found: [] (in the compile's)
        self.entities = EntitySite(self.compiled, self.templates, index)
        self.entities.add_files(files, config)
        overlay.index = index if index else None
        overlay.templates = self.templates
        overlay.made = {}
        overlay.url_of = self.entities.url_of
        overlay.page_url = lambda: frame.host_url if (frame := self.renderer.frame) else None
        overlay.page_path = lambda: (self.renderer.frames[0].doc.path
                                     if len(self.renderer.frames) == 1 else None)
        return found

    def add_home(self, files: Files, config: MkDocsConfig) -> str | None:
        """Make sure the site root has a page; says how, when the vault has no index.md.

        The compiler gave a home-named root note (``Home.md``) the root URL
        (``place_home``): its page is written there.  Else, when nothing is at
        the root, a generated page lists the vault's notes by folder.
        """
        home_url = root_url(self.compiled.options.use_directory_urls)
        taken = any(f.dest_uri == "index.html" for f in files)
        for doc in self.compiled.published.values():
            if doc.url != home_url:
                continue
            file = files.get_file_from_path(page_path(doc.parsed))
            if file is not None and file.url != home_url and not taken:
                # the compiler's home note, or an ``Index.md`` MkDocs would not put there
                file.dest_uri = "index.html"
                for cached in ("url", "abs_dest_path"):
                    file.__dict__.pop(cached, None)
            if self.compiled.home is None:
                return None
            return f"no index.md: the home page is {doc.path}"
        if taken:
            return None
        self.home_src = "index.md"
        files.append(generated_page(config, self.home_src))
        return "no index.md: the home page is a generated list of notes"

    def nav_context(self, doc: Document | None) -> dict[str, Any]:
        return self.navigation.page_context(doc) if self.navigation else {}

    def page_title(self, src: str) -> Any:
        """The title of the page ``src`` (None: MkDocs' own, from its Markdown)."""
        doc = self.by_page.get(src)
        return doc.title if doc is not None else self.generated_meta(src).get("title")

    def generated_content(self, src: str, page_url: str) -> str | None:
        """The HTML the page ``src`` gets after its Markdown's (None: not a page of ours)."""
        if src == self.wanted_src:
            return wanted_html(self.compiled, page_url, self.templates)
        if self.navigation is not None and self.navigation.is_all_notes(src):
            return self.navigation.all_notes_html(page_url)
        if src == self.home_src:
            base = get_relative_url("index.html", page_url).removesuffix("index.html")
            recent = self.recent.home_html(page_url) if self.recent else ""
            return self.templates.render("all-notes.html",
                                         tree=flat_index(build_tree(self.compiled)),
                                         base=base) + recent
        if self.tags is not None and self.tags.is_tag_page(src):
            return self.tags.content(src, page_url)
        if self.entities is not None and self.entities.is_entity_page(src):
            return self.entities.content(src, page_url)
        if self.folders is not None and self.folders.is_folder_page(src):
            return self.folders.content(src, page_url)
        if self.reader is not None and self.reader.is_graph_page(src):
            return self.reader.graph_page_html(page_url)
        if self.recent is not None and self.recent.is_recent_page(src):
            return self.recent.page_html(page_url)
        return self.beliefs.content(src, page_url) if self.beliefs else None

    def node_content(self, doc: Document) -> str:
        rows = []
        for key, value in doc.meta.items():
            if key in ("title",):
                continue
            rows.append({"key": key, "value": _show(value)})
        return self.templates.render("node.html", properties=rows, path=doc.path)

    # -- outputs -----------------------------------------------------------------------

    def search_strings(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """Page location (as the search index writes it) -> our (title, tags)."""
        strings = {("" if d.url == "./" else d.url): (d.title, d.tags)
                   for d in self.compiled.published.values() if d.url is not None}
        if self.beliefs is not None:
            for url, title in self.beliefs.search_titles().items():
                strings[url] = (title, ())
        return strings

    def check_generated_pages(self, page_urls: set[str]) -> list[diag.Diagnostic]:
        """Graph nodes whose page the site generates (tag pages) and did not make.

        Every other invariant is the compile's (``Compiler.compile``)."""
        if self.graph is None:
            return []
        return missing_pages(self.graph, page_urls, GENERATED_PAGES,
                             self.compiled.options.display)

    def write_compile_outputs(self, site_dir: Path, use_directory_urls: bool,
                              taken_dest: AbstractSet[str]) -> None:
        """The files made from the compile alone, not from rendered pages:
        ``graph.json``, the reader's and the explorer's data, the alias redirects,
        and the graph page's search index (last: under serve it is built in the
        background).  A full build hands them to the worker converting pages
        (``render_ahead``, step by step); otherwise ``on_post_build`` writes them."""
        for step in self.compile_output_steps(site_dir, use_directory_urls, taken_dest):
            step()

    def compile_output_steps(self, site_dir: Path, use_directory_urls: bool,
                             taken_dest: AbstractSet[str]) -> tuple[Callable[[], None], ...]:
        """``write_compile_outputs`` in two steps, run in that order.  The worker
        runs each in a forked child of its own: the graph page's search index
        (lunr) is then built without the memory the graph files took, and the
        copies of the compile's pages the first child's reading made (5,000 notes:
        about 40 MB less at the build's peak)."""
        return (functools.partial(self._write_compile_files, site_dir, use_directory_urls,
                                  taken_dest),
                functools.partial(self.write_search_index, site_dir))

    def _write_compile_files(self, site_dir: Path, use_directory_urls: bool,
                             taken_dest: AbstractSet[str]) -> None:
        self._write_graph_outputs(site_dir / OUTPUT_DIR)
        if self.recent is not None and self.recent.options.feed:
            write_text(site_dir / FEED_XML, self.recent.feed_xml())
        self.write_redirects(site_dir, use_directory_urls, taken_dest)

    def _write_graph_outputs(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        if self.graph is None:  # a Compiled made without its graph (tests)
            self.graph = GraphBuilder().build(self.compiled)
        graph_file = out / "graph.json"
        # under serve the next rebuild compares its pieces with these; a one-off
        # build writes each piece as it is made and keeps none
        serving = self.reader is not None and self.reader.options.background
        if not serving:
            write_chunks(graph_file, graph_json_chunks(self.graph, keep=False))
            same = False
            if self.reader is not None:  # a later rebuild of this process compares anew
                self.reader.forget_graph()
        else:
            chunks = list(graph_json_chunks(self.graph))
            same = self.reader is not None and self.reader.same_graph(chunks) \
                and graph_file.exists()
            if not same:
                write_chunks(graph_file, chunks)
        if self.reader is not None:
            self.reader.write_outputs(out, self.graph, graph_changed=not same)
        if self.navigation is not None:
            self.navigation.write_outputs(out)

    def write_outputs(self, site_dir: Path, diagnostics: list[diag.Diagnostic],
                      kept_diagnostics: dict[diag.Diagnostic, str] | None = None) -> None:
        """The belief data and ``diagnostics.json``: what rendering the pages may add to."""
        out = site_dir / OUTPUT_DIR
        out.mkdir(parents=True, exist_ok=True)
        hidden = self.compiled.hidden_files()  # drafts and their sidecars
        if self.beliefs is not None:
            self.beliefs.write_outputs(out)
        public = [d for d in diagnostics if d.file not in hidden]
        write_text(out / "diagnostics.json",
                   diagnostics_json(sorted(public, key=diag.sort_key), kept_diagnostics))

    def write_search_index(self, site_dir: Path) -> None:
        """The graph page's lunr index, last (under serve it goes on in the background)."""
        if self.reader is not None:
            self.reader.write_search_index(site_dir / OUTPUT_DIR)

    def write_redirects(self, site_dir: Path, use_directory_urls: bool,
                        taken_dest: AbstractSet[str]) -> list[str]:
        """An ``alias/`` page for every alias that names no existing page or file.

        ``taken_dest``: the output paths of every file MkDocs writes.  The
        redirects written are listed in ``_beliefbase/redirects.json``, so that a
        ``--dirty`` rebuild (the old site still there) rewrites only the ones
        that changed and removes the ones no alias asks for any more.
        """
        manifest = site_dir / OUTPUT_DIR / REDIRECTS_JSON
        before = _read_manifest(manifest)
        now: dict[str, str] = {}
        written: list[str] = []
        taken: set[str] = {d.url for d in self.compiled.documents.values() if d.url is not None}
        for doc in self.compiled.published.values():
            if doc.url is None:
                continue
            folder = posixpath.dirname(page_path(doc.parsed))
            for alias in doc.aliases:
                for dest, url in _alias_pages(alias, folder, use_directory_urls):
                    if url in taken or _collides(dest, taken_dest):
                        continue
                    target = site_dir / dest
                    if dest not in before and os.path.lexists(target):
                        continue  # a file of the site, not a redirect of ours: never replaced
                    rel = _relative_url(doc.url, url)
                    digest = hashlib.sha1(f"{doc.title}\0{rel}".encode()).hexdigest()
                    if before.get(dest) != digest:  # rendered only when it changed
                        try:
                            target.parent.mkdir(parents=True, exist_ok=True)
                            write_text(target, self.templates.render(
                                "redirect.html", title=doc.title, url=rel))
                        except (OSError, ValueError):  # a file where its folder would be
                            continue
                    taken.add(url)
                    now[dest] = digest
                    written.append(url)
        for dest in before.keys() - now.keys() - taken_dest:
            with contextlib.suppress(OSError):
                (site_dir / dest).unlink()
        if now != before:
            write_text(manifest, json_for_html({"version": 1, "redirects": now}, indent=0,
                                               sort_keys=True))
        return written


def _collides(dest: str, taken_dest: AbstractSet[str]) -> bool:
    """Would a redirect at ``dest`` replace a file of the site, or need one as its folder
    (alias ``sitemap.xml`` -> ``sitemap.xml/index.html``)?"""
    if dest in taken_dest:
        return True
    at = dest.find("/")
    while at > 0:
        if dest[:at] in taken_dest:
            return True
        at = dest.find("/", at + 1)
    return False


@lru_cache(maxsize=1 << 16)  # the same every rebuild of `mkdocs serve`
def _alias_pages(alias: str, folder: str, use_directory_urls: bool) -> tuple[tuple[str, str], ...]:
    """(output path, URL) of the redirect pages ``alias`` may get, in order of preference."""
    pages = []
    for name in dict.fromkeys((url_slug(alias), alias.strip())):
        if not name or "/" in name or "\0" in name or name.startswith("."):
            continue  # (no file name can hold a NUL)
        name = fit_name(name)  # an alias may be longer than a file name
        dest = (f"{name}/index.html" if use_directory_urls else f"{name}.html")
        dest = posixpath.join(folder, dest) if folder else dest
        pages.append((dest, str(url_for_dest(dest, use_directory_urls))))
    return tuple(pages)


@lru_cache(maxsize=1 << 16)
def _relative_url(url: str, other: str) -> str:
    return get_relative_url(url, other)


def _read_manifest(path: Path) -> dict[str, str]:
    """dest -> digest of the redirect pages the last build wrote ({} if none)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        redirects = data["redirects"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {k: v for k, v in redirects.items() if isinstance(k, str) and isinstance(v, str)
            and _inside(k)} if isinstance(redirects, dict) else {}


def _inside(dest: str) -> bool:
    """A redirect page's path the manifest may name: inside the site, an HTML file (a
    ``docs/_beliefbase/redirects.json`` of the user's is what the site holds there,
    and what it names is deleted when no alias asks for it)."""
    return (dest.endswith(".html") and posixpath.normpath(dest) == dest
            and not dest.startswith(("/", "../")) and "\0" not in dest)


def _show(value: Any) -> str:
    data = jsonable(value)
    return data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)


def _longest_run(text: str, char: str) -> int:
    best = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        best = max(best, run)
    return best


def diagnostics_json(diagnostics: list[diag.Diagnostic],
                     kept: dict[diag.Diagnostic, str] | None = None) -> str:
    """``diagnostics.json``: ``json_for_html({"version": 1, "diagnostics": [...]},
    indent=1, sort_keys=True)``, put together from each diagnostic's text.

    ``kept`` holds those texts from one ``mkdocs serve`` rebuild to the next
    (thousands of diagnostics, nearly all the same after an edit)."""
    last = kept.copy() if kept is not None else {}
    if kept is not None:
        kept.clear()
    items = []
    for d in diagnostics:
        text = last.get(d)
        if text is None:
            text = "  " + flat_json_for_html(d.as_json()).replace("\n", "\n  ")
        if kept is not None:
            kept[d] = text
        items.append(text)
    body = "[\n" + ",\n".join(items) + "\n ]" if items else "[]"
    return '{\n "diagnostics": ' + body + ',\n "version": 1\n}'


__all__ = ["OUTPUT_DIR", "Markup", "SiteBuild"]


"""One build of the site: from a ``Compiled`` to pages, panels and JSON files.

The plugin creates a ``SiteBuild`` per MkDocs build (after compiling in
``on_files``) and forwards page events to it.  It owns the per-build state:
the renderer with its frames, the notes' texts, the page features
(``feature.py``; which ones: ``features.py``), and what ``on_post_build``
writes.  Each page hook loops over the features; none is named here but where
the site's own files need one (the reader's graph files, the belief titles
in the search index).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import pickle
import posixpath
import re
import tempfile
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, cast

import markdown
from markdown.serializers import to_html_string
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from .. import diagnostics as diag
from ..builder.documents import Document, page_path
from ..builder.parallel import apart, read_at, write_at
from ..builder.resolve import ResolvedLink
from ..builder.texts import TextSpill
from ..codecs import snippet as snippets
from ..codecs.guards import make_renderable
from ..codecs.markdown import decode, note_text
from ..compile.compiled import Compiled
from ..config import BeliefbaseConfig
from ..graph.emit import graph_json_chunks
from ..graph.invariants import GENERATED_PAGES, missing_pages
from ..html_json import flat_json_for_html, json_for_html
from ..ids import SrcPath, fit_name, url_for_dest, url_slug
from ..process import heap
from . import features as registry
from . import panel_view
from . import panels_ahead as ahead
from .beliefs.pages import BeliefSite
from .canvas import canvas_embed_html
from .escape import ascii_html, theme_meta
from .feature import Change, FeatureContext, Kept, Shown, SiteFeature
from .markdown.markdown_ext import WikiLinkExtension
from .output import write_chunks, write_text
from .panel_view import ViewPanels
from .panels import drift_banner_html
from .panels_ahead import MadePanels, PageKey, panels_ahead
from .properties import PropertiesBlock
from .query_pages import QueryPages
from .reader.reader import ReaderSite
from .reader.tags import TagSite
from .render import PageRenderer
from .render_errors import describe
from .templates import Templates

log = logging.getLogger(__name__)

REDIRECTS_JSON = "redirects.json"
OUTPUT_DIR = "_beliefbase"
# The page's title heading, if its HTML starts with one: the rows go under it.
_TITLE = re.compile(r"\A\s*<h1\b[^>]*>.*?</h1>", re.DOTALL)


#: the page meta Material's navigation prints into every page (``partials/nav-item.html``)
NAV_META = ("icon", "status")


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
        #: the texts read from disk (those the compile did not keep), on disk too
        self._texts = TextSpill()
        self._md_extensions = md_extensions  # the build's, ``extension`` among them
        self._md_configs = md_configs
        self._nested: dict[int, markdown.Markdown] = {}
        self.renderer = PageRenderer(compiled, templates, self.read_text, self._render_nested,
                                     self._tag_page, embedders={"canvas": self._canvas_embed,
                                                "base": self._base_embed})
        #: the Markdown extension rendering every wikilink, embed and tag of this build
        self.extension = WikiLinkExtension(self.renderer)
        self.by_page: dict[str, Document] = {}
        for doc in compiled.documents.values():
            if doc.published:
                self.by_page[page_path(doc.parsed)] = doc
        #: the page features of this build (``features.FEATURES``), by name
        self.made: dict[str, SiteFeature] = {}
        self.features: tuple[SiteFeature, ...] = ()  # the same, in the order of FEATURES
        self._rows: list[SiteFeature] = []  # by row_rank
        self._panels_now: list[SiteFeature] = []  # by panel_rank, made as each page comes
        self._panels_ahead: list[SiteFeature] = []  # by panel_rank, made ahead if it pays
        #: panels made ahead, by (document path, page URL), each taken once
        self._panels_made: MadePanels | dict[tuple[str, str], str] = {}
        self.panels_taken = 0  # pages whose panels were made ahead
        #: the panels' view packed by steps of the page loop (``panel_view_steps``)
        self._prepared: tuple[ViewPanels, IO[bytes]] | None = None
        #: the texts the compile kept and those read since, as the panels' burst reads
        #: them (``make_panels_ahead``)
        self._texts_at: tuple[TextSpill | None, TextSpill] | None = None
        #: under serve: graph.json is what the last build wrote (so is graph-view.json)
        self._graph_same = False

    # -- sources -----------------------------------------------------------------------

    def read_text(self, path: SrcPath) -> str:
        """A source's text as the codec parsed it: for a note, ``%%comments%%`` removed
        (``note_text``), so no reader of it (page, embeds, previews, mentions) sees them."""
        doc = self.compiled.documents.get(path)
        # the text the compile decoded, if it kept it (``Compiled.texts``)
        text = self.compiled.texts.peek(path, doc.parsed.digest) if doc is not None else None
        if text is None:
            text = self._texts.get(path)
        if text is None:
            file = self.compiled.options.docs_dir / path
            read = note_text if doc is None or doc.kind == "markdown" else decode
            try:
                text, _ok = read(file.read_bytes())
            except OSError:
                text = ""
            self._texts.put(path, text)
        return text

    def release_page_caches(self) -> None:
        """Drop what only rendering pages needed (note texts, link tables, panel
        lookups) before the theme writes its search index, the build's peak."""
        self._texts.close()
        if isinstance(self._panels_made, MadePanels):
            self._panels_made.close()  # its temporary files
        self._panels_made = {}
        self._drop_prepared()
        self.compiled.texts.close()
        self.renderer.release()
        for feature in self.features:
            feature.release()
        heap.trim()  # what they held, before the theme writes its search index

    def page_markdown(self, doc: Document) -> str:
        """The Markdown MkDocs renders for ``doc``: its body, frontmatter removed.

        Malformed frontmatter is not dropped: it is shown as a code block.
        """
        if doc.kind in ("toml", "canvas", "base"):  # a board, a base: added as HTML
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

    def panels_after(self, doc: Document, page_url: str) -> str:
        """The features' panels after the page, by ``panel_rank``."""
        now = "".join(feature.panel(doc, page_url) for feature in self._panels_now)
        made = self._panels_made.pop((doc.path, page_url), None)
        if made is None:
            return now + self._panels(doc, page_url)
        self.panels_taken += 1
        return now + made

    def make_panels_ahead(self, pages: list[PageKey]) -> None:
        """Make the panels of ``pages`` now, on every core (see ``panels_ahead``), from
        the compile packed apart (``panel_view.py``) when that can be done."""
        view = self._panel_view(pages) if ahead.pays(len(pages)) else None
        if self.reader is not None and view is None:
            self.reader.mentions()  # here: the workers inherit them, the cache stays here
        self._texts_at = ((self.compiled.texts.snapshot(), self._texts.snapshot())
                          if view is not None else None)
        try:
            self._panels_made = panels_ahead(self._panels, pages, view=view)
        finally:
            self._texts_at = None
        if self._panels_made:
            # made: what making them kept here (each source's lines, its link titles)
            # goes now, not after the template loop, which it would weigh on
            # throughout (5,000 notes: about 40 MB); a page whose panels were not
            # made ahead makes them again as it comes
            for feature in self._panels_ahead:
                feature.release()
            if self.reader is not None and not self.reader.options.background:
                # no next build: the sentences rendered for the panels go too (1,000
                # ``gen_vault.py`` notes: 5 MB through the template loop)
                snippets.forget_sentences()
        # what the mentions and the panels allocated and freed meanwhile (every note's
        # hits, the panels' lookups, the pickled chunks) stays in the C library's free
        # lists otherwise, part of this process's memory to the end of the build
        # (5,000 ``gen_vault.py`` notes: 44 MB through the template loop)
        heap.trim()

    def _panel_view(self, pages: list[PageKey]) -> ViewPanels | None:
        """What the panels made ahead read, packed (``panel_view.py``) by a forked child
        (the one finding the unlinked mentions, which reads it all anyway), so that
        neither the packing nor the mentions' churn leave free memory here; None if
        that failed (the panels are then made from the compile)."""
        prepared = self._prepared_view()
        if prepared is not None:
            return prepared
        try:
            view = self._new_view()
        except OSError:
            return None

        # the mentions stay pickled here: only the child packing the view loads them
        # (5,000 ``gen_vault.py`` notes: 20 MB this process held to the build's end)
        pickled = self.reader.mentions_pickled_apart() if self.reader is not None else None
        # else found here, as without the view (under serve the reader keeps them)
        found = self.reader.mentions() if self.reader is not None and pickled is None else None

        def pack() -> tuple[int, int]:
            mentions = (pickle.loads(pickled) if pickled is not None  # noqa: S301 - our own
                        else found)
            at = None if mentions is None else panel_view.put_mentions(mentions, view.file)
            return panel_view.pack(self.compiled, at, view.file)

        # a child of its own: packing in the one finding the mentions, its peak was
        # this build's (5,000 ``gen_vault.py`` notes: 478 MB)
        index = apart(pack)
        if index is None:
            view.close()
            if pickled is not None and self.reader is not None:  # found: not again
                self.reader.found_mentions(pickle.loads(pickled))  # noqa: S301 - our own
            return None
        view.index = index
        return view

    def _new_view(self) -> ViewPanels:
        return ViewPanels(self._panels_ahead, self._view_text,
                          lambda parts: ascii_html("".join(parts)))

    def panel_view_steps(self) -> tuple[Callable[[], None], ...]:
        """The panels' view packed, the unlinked mentions found first, by two steps of
        the page loop's second core (``RenderAhead``'s first work, each a forked child
        of its own, one after the other): ``make_panels_ahead`` then finds it ready
        instead of waiting for two children of its own with that core idle (the
        mentions alone: 12 s of one core at 20,000 ``gen_vault.py`` notes).  The view
        holds every document, whatever pages ``on_env`` then makes panels for.  The
        child finding the mentions writes them into the view's file, and where each
        lies into a file of its own, for the next (found and packed in one child, its
        peak was the build's: 478 MB at 5,000 ``gen_vault.py`` notes; loaded again by
        the one packing, they were a third of its memory).  A step that fails leaves
        the view unsealed,
        and ``on_env`` packs it as without the steps.  No steps under serve (the
        reader keeps its mentions for the next rebuild) or where the panels are not
        made ahead."""
        self._drop_prepared()
        if self.reader is None or not self._panels_ahead or not ahead.pays(len(self.by_page)):
            return ()
        find = self.reader.mentions_apart()
        if find is None:
            return ()
        try:
            view = self._new_view()
            found = tempfile.TemporaryFile(prefix="beliefbase-mentions-")  # noqa: SIM115
        except OSError:
            return ()
        self._prepared = (view, found)

        def find_mentions() -> None:
            at = panel_view.put_mentions(find(), view.file)
            write_at(found.fileno(), pickle.dumps(at, pickle.HIGHEST_PROTOCOL), 0)

        def pack() -> None:
            data = read_at(found.fileno(), 0, os.fstat(found.fileno()).st_size)
            at = pickle.loads(data)  # noqa: S301 - our own child's
            view.seal(panel_view.pack(self.compiled, at, view.file))

        return (_never_failing(find_mentions), _never_failing(pack))

    def _prepared_view(self) -> ViewPanels | None:
        """The view ``panel_view_steps`` packed, if its steps finished; else None (and it
        is dropped)."""
        prepared, self._prepared = self._prepared, None
        if prepared is None:
            return None
        view, found = prepared
        found.close()
        if self.reader is None or not view.sealed():
            view.close()
            return None
        self.reader.mentions_found_apart()
        return view

    def _drop_prepared(self) -> None:
        if self._prepared is not None:
            view, found = self._prepared
            self._prepared = None
            view.close()
            found.close()

    def _view_text(self, path: SrcPath, digest: str) -> str:
        """``read_text`` of ``path`` whose text has this digest ("": not a document)."""
        if self._texts_at is not None:  # in the burst: what read_text reads, as it would
            kept, read = self._texts_at
            text = kept.get((path, digest)) if kept is not None and digest else None
            if text is None:
                text = read.get(path)
            if text is not None:
                return text
        text = self.compiled.texts.peek(path, digest) if digest else None
        return text if text is not None else self.read_text(path)

    def _panels(self, doc: Document, page_url: str) -> str:
        """The panels a forked worker may make (``SiteFeature.panel_ahead``); the others
        (the belief panel reads the belief index) come as each page comes."""
        return ascii_html("".join(feature.panel(doc, page_url)
                                  for feature in self._panels_ahead))

    def page_top(self, doc: Document, html: str, page_url: str) -> str:
        """``html`` with what the features add above the text (breadcrumbs), the drift
        banner, the rows under the title and what comes after the text.

        A note whose first content is not an H1 but that has one further down (a
        section) gets its title as a heading first: the theme prints the title only
        when the page has no ``<h1>`` at all: one in what comes after the text counts
        too (a canvas board's text node ``# Idea``, or the H1 of a note it shows).
        """
        above = "".join(feature.above(doc, page_url) for feature in self.features)
        rows = "".join(feature.title_row(doc, page_url) for feature in self._rows)
        after = "".join(feature.after_text(doc, page_url) for feature in self.features)
        if not doc.parsed.leading_h1 and ("<h1" in html or "<h1" in after or above):
            # with breadcrumbs, the title too: the theme would print it above them
            html = self.templates.render("title.html", title=doc.title) + html
        if rows:
            m = _TITLE.match(html)
            html = html[: m.end()] + rows + html[m.end():] if m else rows + html
        return above + self.panels_before(doc) + html + after

    def before_pages(self) -> None:
        """A full build's page loop starts next (``SiteFeature.before_pages``)."""
        for feature in self.features:
            feature.before_pages()

    def head(self, page_url: str) -> str:
        """What the features add to the ``<head>`` of the page at ``page_url``."""
        return "".join(feature.head(page_url) for feature in self.features)

    def page_context(self, context: dict[str, Any], doc: Document | None) -> None:
        for feature in self.features:
            feature.page_context(context, doc)

    # -- the page features (feature.py, features.py) ----------------------------------


    def add_features(self, options: BeliefbaseConfig, config: MkDocsConfig, files: Files, *,
                     serving: bool, kept: Kept,
                     report: Callable[[diag.Diagnostic], None]) -> list[diag.Diagnostic]:
        """Make every feature of ``features.FEATURES`` (in order); each adds its files.
        ``report``: where a diagnostic found while pages render goes."""
        ctx = FeatureContext(self.compiled, self.templates, self.renderer, self.read_text,
                             report, options, config, serving, kept,
                             self.made)
        found: list[diag.Diagnostic] = []
        for make in registry.FEATURES:
            feature = make(ctx)
            if feature is None:
                continue
            assert feature.name not in self.made, feature.name
            self.made[feature.name] = feature
            found += feature.add_files(files, config)
        self.features = features = tuple(self.made.values())
        self._rows = sorted(features, key=lambda f: f.row_rank)
        self._panels_now = sorted((f for f in features if not f.panel_ahead),
                                  key=lambda f: f.panel_rank)
        self._panels_ahead = sorted((f for f in features if f.panel_ahead),
                                    key=lambda f: f.panel_rank)
        return found

    def add_markdown_extensions(self, extensions: list[Any], at: int) -> list[Any]:
        """Put this build's extensions into ``extensions`` (MkDocs', or a copy of it),
        made with what they need: the wikilinks at ``at``, where the plugin's
        extensions start, and the features' after the item there (the callouts)."""
        ours = [e for feature in self.features for e in feature.markdown_extensions()]
        extensions[at:at + 1] = [self.extension, extensions[at], *ours]
        return extensions

    def _canvas_embed(self, renderer: PageRenderer, resolution: ResolvedLink,
                      doc: Document) -> str:
        """``![[Board.canvas]]``: the board (``canvas.py``), its file nodes' notes with
        their Properties blocks when the site shows them."""
        block = self.made.get("properties")
        return canvas_embed_html(renderer, resolution, doc, block.embedded_block
                                 if isinstance(block, PropertiesBlock) else None)

    def _base_embed(self, renderer: PageRenderer, resolution: ResolvedLink,
                    doc: Document) -> str:
        """``![[X.base]]`` / ``![[X.base#View]]``: that view, ``this`` = the embedding
        note (issue 27: ``dashboards.py``)."""
        queries = self.queries
        frame = renderer.frame
        if queries is None or frame is None:
            return str(to_html_string(renderer.link_element(resolution)))
        return str(queries.site.dashboards.base_embed(
            doc, resolution.link.fragment or None, frame.doc, renderer.frames[0].host_url,
            resolution.link.line))

    def _tag_page(self, tag: str) -> SrcPath | None:
        """The source path of ``tag``'s page, None if it has none."""
        tags = self.made.get("tags")
        return tags.src_of(tag) if isinstance(tags, TagSite) else None

    @property
    def queries(self) -> QueryPages | None:
        return cast("QueryPages | None", self.made.get("queries"))

    def shown(self, previous: Compiled | None, rewritten: dict[SrcPath, set[int]],
              before: dict[str, Shown]) -> dict[str, Shown]:
        """What each feature showed in this build (``--dirty``)."""
        return {name: feature.shown(Change(previous, self.compiled, rewritten,
                                           before.get(name)))
                for name, feature in self.made.items()}

    def _owner(self, src: str) -> SiteFeature | None:
        return next((f for f in self.made.values() if f.owns(src)), None)

    @property
    def reader(self) -> ReaderSite | None:
        return cast("ReaderSite | None", self.made.get("reader"))

    @property
    def beliefs(self) -> BeliefSite | None:
        return cast("BeliefSite | None", self.made.get("beliefs"))

    def generated_meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of a generated page (title, search exclusion); empty if not ours."""
        owner = self._owner(src)
        return owner.meta(src) if owner is not None else {}

    def nav_meta(self, src: str) -> dict[str, Any]:
        """What Material's navigation prints of the page ``src``'s meta besides its title
        (``NAV_META``: its icon and status), as ``page_meta`` gives it."""
        doc = self.by_page.get(src)
        if doc is None or not any(key in doc.meta for key in NAV_META):
            return {}
        return theme_meta({key: doc.meta[key] for key in NAV_META if key in doc.meta})

    def page_title(self, src: str) -> Any:
        """The title of the page ``src`` (None: MkDocs' own, from its Markdown)."""
        doc = self.by_page.get(src)
        return doc.title if doc is not None else self.generated_meta(src).get("title")

    def generated_content(self, src: str, page_url: str) -> str | None:
        """The HTML the page ``src`` gets after its Markdown's (None: not a page of ours)."""
        owner = self._owner(src)
        return owner.content(src, page_url) if owner is not None else None

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
        return missing_pages(self.compiled.graph, page_urls, GENERATED_PAGES,
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
        """``write_compile_outputs`` in steps, run in that order.  The worker runs each
        in a forked child of its own, one after the other.  A child copies every page
        of the heap it shares with this process that holds an object it reads (CPython
        writes the reference count), and the copies last as long as it does: the
        files read different parts of the compile (the graph, the notes' first
        paragraphs, the aliases), so each child copies only its part.  Written by
        one child, the graph files, the previews and the redirects copied 169 MB at
        5,000 ``vault.py`` notes with this process idle; one child each, the step's
        peak fell from 363 to 312 MB.  The graph page's search index (lunr) comes
        last, without the memory the others took."""
        out = site_dir / OUTPUT_DIR
        self._graph_same = False  # set by the first step under serve, read by the second
        return (functools.partial(self._write_graph_json, out),
                functools.partial(self._write_graph_view, out),
                functools.partial(self._write_previews, out),
                functools.partial(self._write_feature_outputs, site_dir, use_directory_urls,
                                  taken_dest),
                functools.partial(self.write_search_index, site_dir))

    def _write_graph_json(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        graph = self.compiled.graph
        graph_file = out / "graph.json"
        # under serve the next rebuild compares its pieces with these; a one-off
        # build writes each piece as it is made and keeps none
        serving = self.reader is not None and self.reader.options.background
        if not serving:
            write_chunks(graph_file, graph_json_chunks(graph, keep=False))
            if self.reader is not None:  # a later rebuild of this process compares anew
                self.reader.forget_graph()
        else:
            chunks = list(graph_json_chunks(graph))
            self._graph_same = self.reader is not None and self.reader.same_graph(chunks) \
                and graph_file.exists()
            if not self._graph_same:
                write_chunks(graph_file, chunks)

    def _write_graph_view(self, out: Path) -> None:
        if self.reader is not None:
            self.reader.write_graph_view(out, self.compiled.graph,
                                         graph_changed=not self._graph_same)

    def _write_previews(self, out: Path) -> None:
        if self.reader is not None:
            self.reader.write_previews(out)

    def _write_feature_outputs(self, site_dir: Path, use_directory_urls: bool,
                               taken_dest: AbstractSet[str]) -> None:
        for feature in self.features:
            feature.write_compile_outputs(site_dir)
        self.write_redirects(site_dir, use_directory_urls, taken_dest)

    def write_outputs(self, site_dir: Path, diagnostics: list[diag.Diagnostic],
                      kept_diagnostics: dict[diag.Diagnostic, str] | None = None) -> None:
        """The belief data and ``diagnostics.json``: what rendering the pages may add to."""
        out = site_dir / OUTPUT_DIR
        out.mkdir(parents=True, exist_ok=True)
        hidden = self.compiled.hidden_files()  # drafts and their sidecars
        for feature in self.features:
            feature.write_page_outputs(site_dir)
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


def _never_failing(step: Callable[[], None]) -> Callable[[], None]:
    """``step`` for ``RenderAhead``'s first work, whose failure would make the build
    write the compile's files again: one that raises only leaves its work undone."""

    def run() -> None:
        try:
            step()
        except Exception:  # noqa: BLE001 - undone: the build does it as without the step
            log.debug("a step of the page loop failed; it is done later", exc_info=True)

    return run

"""The reader's side of the site (SPEC §9): graph page, local graph, previews,
unlinked mentions, aliases, and the JSON files they read.

One ``ReaderSite`` per build, a ``SiteFeature`` (``site/feature.py``):

1. ``add_files(files, config)`` (``on_files``): the ``graph/`` page
   (``File.generated``, its Markdown is only frontmatter), the viewer's
   modules and CSS under ``_beliefbase/graph/``, and MkDocs' ``lunr.js`` as
   ``_beliefbase/lunr.js``.
2. While pages render: ``content()`` fills the graph page from
   ``theme/graph.html``; ``title_row()`` is the "Also called" line under a
   note's title (page content, so MkDocs-Material's search indexes the
   aliases); ``panel()`` adds the local graph (``local-graph.html``) and
   the unlinked mentions (``mentions.html``) after the other panels.
3. From the compile alone, one file per consumer (``SiteBuild.compile_output_steps``,
   in forked children of a full build, else at ``on_post_build``):
   ``write_graph_view()`` (``graph-view.json``, the viewer), ``write_search_index()``
   (``search-index.json``, the viewer's search, lunr) and ``write_previews()``
   (``previews.json``, hover previews, ``beliefbase.js``).

Per-note work that survives ``mkdocs serve`` rebuilds lives in a
``ReaderCache`` that the plugin keeps.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

from ... import diagnostics as diag
from ...builder.documents import Document
from ...builder.parallel import apart
from ...codecs.inline import WikiText
from ...codecs.snippet import excerpt_marked, first_paragraph
from ...compile.compiled import Compiled
from ...config import BeliefbaseConfig
from ...graph.model import Graph
from ...graph.view import ViewKept, graph_view_text
from ...ids import SrcPath
from ...project import cache_dir
from ..escape import UserText
from ..feature import Change, FeatureContext, Shown, SiteFeature
from ..generated_page import generated_page
from ..output import write_text
from ..panels import _titles
from ..previews import PREVIEWS_JSON, excerpt_key, previews_data, previews_text
from ..serve.dependents import changed_mentions, paragraphs_near
from ..templates import Templates, theme_dir
from . import mentions as mention
from .lunr_index import LUNR_JS, SEARCH_INDEX, index_documents, lunr_js, search_index_text

OUTPUT_DIR = "_beliefbase"  # session.OUTPUT_DIR (session imports this module)
GRAPH_VIEW_JSON = "graph-view.json"
GRAPH_ASSETS = "graph"
_GRAPH_PAGE_MARKDOWN = """\
---
title: Graph
hide: [navigation, toc]
search:
  exclude: true
---
"""


@dataclass(frozen=True)
class ReaderOptions:
    """What the reader's features need from the plugin's configuration."""

    graph_page: str  # "graph/"
    local_graph: bool
    cache_dir: Path | None  # the search index cache
    background: bool = False  # write the search index in a thread (mkdocs serve)
    raw_toggle: bool = False  # a "Source" panel with the note's text on every note


@dataclass
class ReaderCache:
    """Per-note results keyed by content hash; the plugin keeps it across rebuilds."""

    mentions: mention.MentionCache = field(default_factory=mention.MentionCache)
    paragraphs: dict[str, str] = field(default_factory=dict)
    excerpts: dict[Any, str] = field(default_factory=dict)
    #: a search index still being written (a process where fork exists, else a thread)
    pending: threading.Thread | BaseProcess | None = None
    #: the unlinked mentions the last build showed, for ``mkdocs serve --dirty``
    last_mentions: dict[SrcPath, mention.Mentions] | None = None
    #: what the last build wrote, so a rebuild can skip writing the same again
    last_graph: list[str] = field(default_factory=list)
    last_previews: dict[str, Any] | None = None
    #: graph-view.json's pieces (node texts, the edge list), for the next rebuild
    view: ViewKept = field(default_factory=ViewKept)

    def wait(self) -> None:
        """Let a background write finish (on exit)."""
        if self.pending is not None:
            self.pending.join()
            self.pending = None

    def cancel(self) -> None:
        """Stop a background write: a newer build's index replaces it (a thread,
        which cannot be stopped, is waited for)."""
        if isinstance(self.pending, BaseProcess) and self.pending.is_alive():
            self.pending.terminate()
        self.wait()


class ReaderSite(SiteFeature):
    """The reader's features for one build."""

    name = "reader"
    row_rank = 20  # "Also called" under the dates
    panel_rank = 40  # the local graph and unlinked mentions last
    panel_ahead = True

    @classmethod
    def make(cls, ctx: FeatureContext) -> ReaderSite:
        options = reader_options(ctx.config, ctx.options, ctx.serving)
        return cls(ctx.compiled, ctx.templates, ctx.read_text, options, ctx.kept.get(ReaderCache))

    def __init__(self, compiled: Compiled, templates: Templates,
                 read_text: Callable[[SrcPath], str], options: ReaderOptions,
                 cache: ReaderCache) -> None:
        self.compiled = compiled
        self.templates = templates
        self.read_text = read_text
        self.options = options
        self.cache = cache
        self.graph_src: str | None = None
        self._mentions: dict[SrcPath, mention.Mentions] | None = None
        self._wikitexts: dict[SrcPath, WikiText] = {}

    def release(self) -> None:
        """The link titles of every note a panel or a folder listing quoted (5,000
        ``gen_vault.py`` notes: 7 MB), made again if a page still needs them."""
        self._wikitexts.clear()

    # -- files -------------------------------------------------------------------------

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Add the graph page, the viewer's assets and lunr.js to ``files``."""
        found: list[diag.Diagnostic] = []
        src = self.options.graph_page.rstrip("/") + ".md"
        if files.get_file_from_path(src) is None:
            files.append(generated_page(config, src, _GRAPH_PAGE_MARKDOWN))
            self.graph_src = src
        else:
            found.append(diag.make("page-conflict", self.compiled.options.display(src), 1, 1,
                                   f"{src} is the graph page's URL ({self.options.graph_page}); "
                                   "the note keeps it and the site has no graph page: rename "
                                   "the note or set the plugin's graph_page option"))
        for asset in sorted((theme_dir() / "assets" / GRAPH_ASSETS).iterdir()):
            if asset.suffix in (".js", ".css"):
                files.append(File.generated(config, f"{OUTPUT_DIR}/{GRAPH_ASSETS}/{asset.name}",
                                            abs_src_path=str(asset)))
        if files.get_file_from_path(f"{OUTPUT_DIR}/{LUNR_JS}") is None:
            files.append(File.generated(config, f"{OUTPUT_DIR}/{LUNR_JS}",
                                        abs_src_path=str(lunr_js())))
        return found

    # -- pages -------------------------------------------------------------------------

    def _urls(self, page_url: str) -> dict[str, str]:
        def rel(path: str) -> str:
            return get_relative_url(path, page_url)

        root = get_relative_url(".", page_url)
        return {
            "site_root": "./" if root in ("", ".") else root.rstrip("/") + "/",
            "graph_json_url": rel(f"{OUTPUT_DIR}/{GRAPH_VIEW_JSON}"),
            "search_index_url": rel(f"{OUTPUT_DIR}/{SEARCH_INDEX}"),
            "lunr_url": rel(f"{OUTPUT_DIR}/{LUNR_JS}"),
            "graph_assets_url": rel(f"{OUTPUT_DIR}/{GRAPH_ASSETS}") + "/",
            "graph_page_url": rel(self.options.graph_page),
        }

    def owns(self, src: str) -> bool:
        return src == self.graph_src

    def content(self, src: str, page_url: str) -> str | None:
        if not self.owns(src):
            return None
        return self.templates.render("graph.html", **self._urls(page_url))

    def title_row(self, doc: Document, page_url: str) -> str:
        """The "Also called" line under the note's title."""
        if not doc.aliases:
            return ""
        return self.templates.render("aliases.html", aliases=[UserText(a) for a in doc.aliases])

    def shown(self, change: Change) -> Shown:
        """The pages whose "Unlinked mentions" panel changed since the last build."""
        return Shown(pages=frozenset(self.mention_changes(change.rewritten)))

    def panel(self, doc: Document, page_url: str) -> str:
        """The local graph and the unlinked mentions of ``doc``'s page."""
        html = ""
        if self.options.local_graph and doc.url is not None:
            html += self.templates.render("local-graph.html", node_id=doc.bid,
                                          title=doc.title, **self._urls(page_url))
        if doc.url is not None:
            html += self._mentions_html(doc, page_url)
        if self.options.raw_toggle and doc.kind == "markdown":
            html += self.templates.render("raw-source.html", text=self.read_text(doc.path),
                                          path=doc.path)
        return html

    def viewing(self, view: Any, read_text: Callable[[SrcPath], str]) -> ReaderSite:
        made = ReaderSite(view, self.templates, read_text, self.options, self.cache)
        made._mentions = view.mentions
        made.graph_src = self.graph_src
        return made

    def _mentions_html(self, doc: Document, page_url: str) -> str:
        found = self.mentions().get(doc.path, mention.NONE)
        shown = []
        names = mention.shown_names(doc) if found.shown else ()
        for m in found.shown:  # a sentence costs: only those shown
            source = self.compiled.documents[m.source]
            body = self._body(source)
            assert source.url is not None  # published sources only (``find_mentions``)
            shown.append({
                "title": source.title,
                "href": get_relative_url(source.url, page_url),
                "bid": source.bid,
                "snippets": [mention.snippet(body, offset, doc, self._wikitext(source), names)
                             for offset in m.offsets],
            })
        return self.templates.render("mentions.html", sources=shown, total=found.total,
                                     title=doc.title)

    # -- data --------------------------------------------------------------------------

    def mentions(self) -> dict[SrcPath, mention.Mentions]:
        """Unlinked mentions of every page (computed on first use, once per build)."""
        if self._mentions is None:
            serving = self.options.background
            self.cache.mentions.keep_words = serving  # only serve rebuilds
            self._mentions = mention.find_mentions(self.compiled, self._body,
                                                   self.cache.mentions, keep=serving)
            if not serving:  # no next build: what was kept for one goes now
                self.cache.mentions.release()
        return self._mentions

    def mentions_apart(self) -> Callable[[], dict[SrcPath, mention.Mentions]] | None:
        """A build with none after it: what finds every page's unlinked mentions in a
        forked child, keeping nothing for a next build (``mentions_pickled_apart``,
        ``SiteBuild.panel_view_steps``); ``mentions_found_apart`` once it did.  Found
        here, every note's hits (5,000 ``gen_vault.py`` notes: about 60 MB, freed at
        once) left free memory the burst's processes then allocated into, each copying
        it (50 MB more at the build's peak).  None under serve (the reader keeps them
        for the next rebuild) or once found here."""
        if self._mentions is not None or self.options.background:
            return None
        compiled, body, cache = self.compiled, self._body, self.cache.mentions
        cache.keep_words = False
        return lambda: mention.find_mentions(compiled, body, cache, keep=False)

    def mentions_found_apart(self) -> None:
        """A child found them (``mentions_apart``): the cache as ``mentions`` leaves it
        (the child's copy was released)."""
        self.cache.mentions.release()

    def mentions_pickled_apart(self) -> bytes | None:
        """The mentions found in a forked child (``builder.parallel.apart``) and left
        pickled, for the process that loads them (``SiteBuild._panel_view``'s child):
        unpickled here, they stayed to the build's end (20 MB).  None under serve or
        when the child failed: ``mentions`` finds them here then."""
        find = self.mentions_apart()
        if find is None:
            return None
        found = apart(lambda: pickle.dumps(find(), pickle.HIGHEST_PROTOCOL))
        if found is not None:
            self.mentions_found_apart()
        return found

    def found_mentions(self, found: dict[SrcPath, mention.Mentions]) -> None:
        """The mentions ``mentions_pickled_apart`` found, taken after all."""
        self._mentions = found

    def mention_changes(
        self, rewritten: Mapping[SrcPath, AbstractSet[int]] | None = None
    ) -> set[SrcPath]:
        """Pages whose "Unlinked mentions" panel differs from the last build's.

        ``rewritten``: notes that did not change but whose sentences show
        something new on these lines (a linked note's title); the panels quoting
        those sentences change too."""
        before, after = self.cache.last_mentions, self.mentions()
        self.cache.last_mentions = after
        if before is None:
            return set()
        changed = changed_mentions(before, after, self.compiled.changed | self.compiled.removed,
                                   self.cache.mentions.touched_since(before))
        return changed | self._quoting(rewritten or {})

    def _quoting(self, rewritten: Mapping[SrcPath, AbstractSet[int]]) -> set[SrcPath]:
        """Notes whose panel quotes a sentence of ``rewritten`` that shows something new."""
        found: set[SrcPath] = set()
        for path, lines in rewritten.items():
            targets = self.cache.mentions.found_by(path)
            doc = self.compiled.documents.get(path)
            if not targets or doc is None:
                continue
            text = self.read_text(path)
            near = paragraphs_near(text, lines)
            start = doc.parsed.body_offset
            found.update(target for target, offsets in targets.items()
                         if any(text.count("\n", 0, start + o) + 1 in near for o in offsets))
        return found

    def _body(self, doc: Document) -> str:
        return self.read_text(doc.path)[doc.parsed.body_offset:]

    def _wikitext(self, doc: Document) -> WikiText:
        wikitext = self._wikitexts.get(doc.path)
        if wikitext is None:
            wikitext = self._wikitexts[doc.path] = _titles(self.compiled, doc)
        return wikitext

    def excerpt(self, doc: Document) -> str:
        """What a hover preview shows of ``doc`` ("" for a node page), as marked text
        (``codecs/snippet.py``: runs of code and math are marked); kept
        with ``previews.json``'s excerpts, across ``mkdocs serve`` rebuilds."""
        key = excerpt_key(self.compiled, doc)
        text = self.cache.excerpts.get(key)
        if text is None:
            paragraph = self._paragraph(doc) if doc.kind == "markdown" else ""
            text = excerpt_marked(paragraph, self._wikitext(doc)) if paragraph else ""
            self.cache.excerpts[key] = text
        return text

    def keep_paragraphs(self) -> None:
        """The first paragraph of every note ``previews.json`` shows, made while the build
        still holds the notes' texts (else writing it reads every note again)."""
        for doc in self.compiled.published.values():
            if doc.url is not None and doc.kind == "markdown":
                self._paragraph(doc)

    def _paragraph(self, doc: Document) -> str:
        digest = doc.parsed.digest
        paragraph = self.cache.paragraphs.get(digest)
        if paragraph is None:
            paragraph = self.cache.paragraphs[digest] = first_paragraph(self._body(doc))
        return paragraph

    def write_search_index(self, out_dir: Path) -> None:
        """The lunr index; under ``mkdocs serve`` built in the background.

        Building it takes seconds at thousands of notes and only the graph
        page's search box reads it (on first use), so a rebuild does not wait:
        the page reloads at once and the index file follows.  It is started
        last, when the rebuild has nothing left to do, and the next rebuild
        stops it at once (``ReaderCache.cancel``): the two would share the
        machine, and that rebuild writes a newer index anyway.
        """
        target = out_dir / SEARCH_INDEX
        cache_dir = self.options.cache_dir
        self.cache.cancel()
        if not self.options.background:
            _write_search_index(target, self.compiled, cache_dir)
            return
        worker: threading.Thread | BaseProcess
        if "fork" in multiprocessing.get_all_start_methods():
            # a process (its documents too are gathered there, not before the reload)
            worker = multiprocessing.get_context("fork").Process(
                target=_write_search_index_aside, args=(target, self.compiled, cache_dir),
                name="beliefbase-search-index", daemon=True)
        else:
            worker = threading.Thread(target=_write_search_index,
                                      args=(target, self.compiled, cache_dir),
                                      name="beliefbase-search-index", daemon=True)
        worker.start()
        self.cache.pending = worker

    def same_graph(self, graph_chunks: list[str]) -> bool:
        """Is ``graph.json`` what the last build wrote?  (Then so is everything
        derived from the graph: a ``mkdocs serve`` rebuild need not write it.)
        The pieces of unchanged notes are the same strings as last time, so this
        compares identities, not the whole text."""
        same = graph_chunks == self.cache.last_graph
        self.cache.last_graph = graph_chunks
        return same

    def forget_graph(self) -> None:
        """``graph.json`` was written without keeping its pieces: the next build's
        ``same_graph`` has nothing to compare with (MkDocs keeps this plugin, and
        so this cache, for every build of the process)."""
        self.cache.last_graph = []

    def write_graph_view(self, out_dir: Path, graph: Graph, graph_changed: bool = True) -> None:
        """``graph-view.json``, unless a rebuild would write the same bytes again (the
        graph is what it was: ``same_graph``)."""
        view = out_dir / GRAPH_VIEW_JSON
        if graph_changed or not view.exists():
            write_text(view, graph_view_text(graph, self.cache.view))

    def write_previews(self, out_dir: Path) -> None:
        """``previews.json``, unless a rebuild would write the same bytes again;
        ``search-index.json`` is ``write_search_index``'s."""
        previews = previews_data(self.compiled, self._paragraph, self._wikitext,
                                 self.cache.excerpts)
        target = out_dir / PREVIEWS_JSON
        if previews != self.cache.last_previews or not target.exists():
            write_text(target, previews_text(previews))
        self.cache.last_previews = previews
        live = {d.parsed.digest for d in self.compiled.published.values()}
        self.cache.paragraphs = {k: v for k, v in self.cache.paragraphs.items() if k in live}


def _write_search_index(target: Path, compiled: Compiled, cache_dir: Path | None) -> None:
    write_text(target, search_index_text(index_documents(compiled), cache_dir))


def _write_search_index_aside(target: Path, compiled: Compiled, cache_dir: Path | None) -> None:
    """``_write_search_index`` in a process of its own, yielding to the rebuilds."""
    with contextlib.suppress(OSError):
        os.nice(10)
    _write_search_index(target, compiled, cache_dir)


def reader_options(
    config: MkDocsConfig, plugin_config: BeliefbaseConfig, serving: bool = False
) -> ReaderOptions:
    """``ReaderOptions`` from mkdocs.yml (cache_dir resolved against its folder)."""
    return ReaderOptions(graph_page=plugin_config.graph_page,
                         local_graph=plugin_config.local_graph,
                         cache_dir=cache_dir(config), background=serving,
                         raw_toggle=plugin_config.raw_toggle)

"""The MkDocs adapter: each ``on_*`` hook hands over to the compiler or the site.

Event order in one build (MkDocs "gathers all data, then writes"):

* ``on_config``   – options -> ``CompileOptions``; our Markdown extension, CSS, JS.
* ``on_files``    – compile every source (cached), verify beliefs (SQLite index),
                    log diagnostics, drop drafts and non-page sources, add
                    generated pages (belief pages too) and assets.
* ``on_nav``      – fork the worker converting pages from the back of the loop
                    (``render_ahead``; in ``mkdocs build`` it first writes
                    graph.json, the reader's data and the alias redirects).
* ``on_page_read_source`` / ``on_page_markdown`` – our decoded body and meta.
* ``on_page_content`` / ``on_page_context`` – banners, node pages, panels
                    (after the search plugin indexed the page: panels are not
                    searchable text).
* ``on_env``      – escape user strings the theme prints raw; make every page's
                    panels at once on all cores (``panels_ahead``).
* ``on_post_page`` – release the written page's HTML (when no plugin reads it later).
* ``on_post_build`` – the offloaded search sections first; then beliefs,
                    diagnostics.json, what the worker did not write, summary.

``on_startup`` makes MkDocs keep this instance for the whole ``mkdocs serve``,
so the ``Compiler`` and its caches survive rebuilds.
"""

from __future__ import annotations

import functools
import gc
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from . import diagnostics as diag
from .builder import CompileOptions, Compiler, make_sources
from .builder.documents import Document
from .config import BeliefbaseConfig
from .idle_gc import IdleCollector, freeze_at_exit
from .ids import SrcPath
from .obsidian import ObsidianSettings
from .project import compile_options, prepare, published_files
from .site.beliefs import belief_options
from .site.block_memo import BlockMemo, material_templates, remember_lookups
from .site.callouts import CalloutExtension
from .site.dates import DatesCache
from .site.dependents import changed_keys, rewritten_notes
from .site.dirty import Invalidation
from .site.escape import finalize
from .site.folders import FolderOptions
from .site.footnote_beliefs import FootnoteBeliefsExtension
from .site.markdown_ext import WikiLinkExtension
from .site.markdown_reuse import MarkdownReuse, reusable
from .site.nav_memo import NavMemo
from .site.navigation import NavigationOptions, install_theme_overrides
from .site.reader import ReaderCache, reader_options
from .site.recent import RecentOptions, dates_plugin_enabled
from .site.render_ahead import RenderAhead
from .site.render_guard import RenderGuard, advice, describe, missing_theme_files
from .site.search_index import EntryTexts, escape_before_writing, fix_search_index
from .site.search_offload import SearchOffload
from .site.session import OUTPUT_DIR, SiteBuild
from .site.tags import TagOptions, material_tags_enabled, remove_outputs
from .site.templates import MemoryBytecodeCache, Templates, theme_dir
from .terminal import printable
from .watcher import use_native_watcher

log = get_plugin_logger(__name__)

_ASSETS = ("beliefbase.css", "beliefs.css", "reader.css", "beliefbase.js")


class BeliefbasePlugin(BasePlugin[BeliefbaseConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.compiler: Compiler | None = None
        self.site: SiteBuild | None = None
        self.extension: WikiLinkExtension | None = None
        self.footnote_links = FootnoteBeliefsExtension()
        self.reader_cache = ReaderCache()  # per-note work kept across serve rebuilds
        self.dates_cache = DatesCache()  # the vault's git history, likewise
        self._home_recent: tuple[Any, ...] | None = None  # the home page's list, for --dirty
        self.idle_gc = IdleCollector()  # serve --dirty: collect garbage between saves
        self._built = False  # a build of this process finished (later ones are rebuilds)
        self._diagnostic_texts: dict[diag.Diagnostic, str] = {}  # diagnostics.json, per line
        self.theme_bytecode = MemoryBytecodeCache()  # compiled theme templates, likewise
        self.serving = False
        self.dirty = False
        self._search_escaped = False  # the theme's search index escaped in memory
        self._search_offload: SearchOffload | None = None
        self._markdown_reuse: MarkdownReuse | None = None
        self._ahead: RenderAhead | None = None  # pages converted by a second process
        self._compile_outputs_written = False  # by that process, this build
        self._search_texts = EntryTexts()  # the theme's search entries as JSON, for serve
        self.invalidation = Invalidation()
        self._belief_pages: dict[SrcPath, str] | None = None  # belief panels, for --dirty
        self._dest_uris: set[str] = set()
        self._tag_dests: set[str] = set()  # the tag pages written, for --dirty
        self._folder_dests: set[str] = set()  # the folder pages written, for --dirty
        #: what each note shows of its folders (breadcrumbs, listing), for --dirty
        self._folder_shown: dict[SrcPath, str] | None = None
        self._diagnostics: list[diag.Diagnostic] = []
        self._templates: tuple[Path | None, Templates] | None = None
        self._strict = False
        self.obsidian = ObsidianSettings()  # the vault's .obsidian settings, read at on_config
        #: no plugin of the site reads a page's Markdown once converted, or its HTML
        #: once written: both are released then (MkDocs keeps them to the end)
        self._release_pages = False
        self._rss_plugin = False  # mkdocs-rss-plugin is enabled (see on_page_markdown)
        #: a page whose conversion raises shows its source instead (``render-error``)
        self._render_guard = RenderGuard(self._render_failed, self._standalone_page)

    # -- lifecycle ---------------------------------------------------------------------

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        self.dirty = dirty
        self._built = False
        # A build allocates millions of small objects that live to the end; Python's
        # default collection thresholds would scan them again and again (~20% of a
        # serve rebuild).  Collections still run, just less often.
        gc.set_threshold(max(gc.get_threshold()[0], 50_000), 50, 100)
        freeze_at_exit()  # the process's end need not scan the site's objects again

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # a serve rebuild starts: the last one's search index, still being built
        # in the background, would only slow it down and be replaced
        self.reader_cache.cancel()
        if self.serving and self.dirty and self._built:
            self.idle_gc.rebuild_starts()
        # Markdown defaults first: MkDocs builds its Markdown from this list after
        # on_config, and compile_options reads it (our own extensions come after)
        self.obsidian = prepare(config, self.config)
        options = compile_options(config, self.config)
        if self.compiler is None or self.compiler.options != options:
            cache_dir = Path(config.config_file_path or ".").parent / self.config.cache_dir
            self.compiler = Compiler(options, cache_dir.resolve())
            # `mkdocs build`: a child writes the parse cache while the build goes on
            # (waited for in on_post_build); serve writes it on exit instead
            self.compiler.background_save = not self.serving
            self.theme_bytecode.directory = cache_dir.resolve() / "templates"
        self.extension = WikiLinkExtension(renderer=None)  # type: ignore[arg-type]
        self.footnote_links = FootnoteBeliefsExtension()
        config.markdown_extensions += [self.extension, CalloutExtension(),  # type: ignore[list-item]
                                       self.footnote_links]
        for name in _ASSETS:
            target = config.extra_css if name.endswith(".css") else config.extra_javascript
            url = f"{OUTPUT_DIR}/{name}"
            if url not in [str(x) for x in target]:
                target.append(url)  # type: ignore[arg-type]
        if self.config.explorer:
            install_theme_overrides(config)
            config.extra_javascript.append(f"{OUTPUT_DIR}/explorer.js")  # type: ignore[arg-type]
        self._strict = bool(config.strict) if self.config.strict is None else self.config.strict
        self._release_pages = pages_read_once(config.plugins)
        self._rss_plugin = any(type(p).__module__.startswith("mkdocs_rss_plugin")
                               for p in config.plugins.values())
        self._render_guard.install()
        _font_notice(config)
        if self.config.palette_toggle:
            default_palette(config)
        return config

    # -- compile -----------------------------------------------------------------------

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.compiler is not None and self.extension is not None
        docs_dir = Path(config.docs_dir)
        # what is published is what is compiled: excluded files leave Files (MkDocs
        # would serve them) and the compiler never reads them
        kept, dropped = published_files(files, self.config, self.obsidian,
                                        serving=self.serving)
        for file in dropped:
            files.remove(file)
        previous = self.compiler.previous
        compiled = self.compiler.compile(make_sources(docs_dir, kept))
        if not self.serving and compiled.link_resolver is not None:
            compiled.link_resolver.suggester.release()  # no edit will need it again
        # under serve, the first build leaves the cache for the next cold start; later
        # rebuilds keep it in memory (written again on exit) instead of 10 MB per save
        self.compiler.autosave = not self.serving
        override = _override_dir(config)
        if self._templates is None or self._templates[0] != override:
            # one environment for the whole serve: Jinja compiles each template once
            # and reloads it when its file changes
            self._templates = (override, Templates(override))
        self.site = SiteBuild(compiled, self._templates[1], self.extension,
                              list(config.markdown_extensions), dict(config.mdx_configs))
        self._markdown_reuse = None
        if self.config.reuse_markdown and reusable(config.markdown_extensions):
            self._markdown_reuse = MarkdownReuse(config.markdown_extensions,
                                                 dict(config.mdx_configs or {}))
            self._markdown_reuse.install()
        self._diagnostics = [*self.obsidian.diagnostics, *compiled.diagnostics]
        files = self._arrange_files(files, config)
        self._diagnostics += self.site.add_beliefs(belief_options(config, self.config),
                                                   self.footnote_links, files, config)
        self._diagnostics += self.site.add_reader(reader_options(config, self.config, self.serving),
                                                  self.reader_cache, files, config)
        self.site.add_navigation(NavigationOptions(self.config.explorer,
                                                   self.config.all_notes_page), files, config)
        if self.config.explorer:
            files.append(File.generated(config, f"{OUTPUT_DIR}/explorer.js",
                                        abs_src_path=str(theme_dir() / "assets" / "explorer.js")))
        self._add_tags_and_home(files, config)
        self._diagnostics += self.site.add_recent(self._recent_options(config),
                                                  self.dates_cache, files, config)
        self._add_folders(files, config)
        # `mkdocs serve` also shows draft_docs pages, and published_files compiled them
        pages = files.documentation_pages(
            inclusion=InclusionLevel.is_in_serve if self.serving else InclusionLevel.is_included)
        page_urls = {f.url for f in pages}
        if self._search_offload is not None:
            self._search_offload.close()
        if self.config.search_offload and not self.dirty:
            self._search_offload = SearchOffload.install(config.plugins, len(pages))
        # alias redirects never replace these, nor what MkDocs and the theme write last
        self._dest_uris = {f.dest_uri for f in files} | set(config.theme.static_templates)
        self._dest_uris |= {"sitemap.xml", "sitemap.xml.gz"}
        self._diagnostics += self.site.check_generated_pages(page_urls)
        if self.dirty:  # MkDocs re-renders only changed files: make it re-render dependents too
            self.invalidation.remember_search_index(Path(config.site_dir))
            rewritten = rewritten_notes(previous, compiled) if previous is not None else {}
            also = self.site.reader.mention_changes(rewritten) if self.site.reader else set()
            beliefs = self.site.beliefs.page_signatures() if self.site.beliefs else {}
            also |= changed_keys(self._belief_pages, beliefs)
            also |= self._home_if_recent_changed()
            self._belief_pages = beliefs
            folders = self.site.folders.signatures() if self.site.folders else {}
            also |= changed_keys(self._folder_shown, folders)  # breadcrumbs, listings
            self._folder_shown = folders
            self.invalidation.invalidate(previous, compiled, files, config,
                                         nav_in_every_page=not self.config.explorer, also=also,
                                         read=self.site.read_text, rewritten=rewritten)
            self.invalidation.live = page_urls
        self._log(self._diagnostics)
        return files

    def _arrange_files(self, files: Files, config: MkDocsConfig) -> Files:
        """Drop what must not be published; add generated pages and our assets."""
        assert self.site is not None
        compiled = self.site.compiled
        drop = {s.path for s in compiled.escaped} | compiled.drafts
        drop |= {s.path for s in compiled.sidecars}
        drop |= {n.path for n in compiled.networks.values() if n.path}
        views = self.config.views_dir.strip("/") + "/"
        for file in list(files):
            if file.src_uri in drop or file.src_uri.startswith(views):
                files.remove(file)
        for doc in compiled.documents.values():
            if doc.kind == "toml" and doc.published:
                self._add_node_page(files, config, doc)
        wanted = self.config.wanted_page.rstrip("/") + ".md"
        if files.get_file_from_path(wanted) is None:
            files.append(File.generated(config, wanted, content="# Wanted notes\n",
                                        inclusion=InclusionLevel.NOT_IN_NAV))
            self.site.wanted_src = wanted
        for name in _ASSETS:
            files.append(File.generated(config, f"{OUTPUT_DIR}/{name}",
                                        abs_src_path=str(theme_dir() / "assets" / name)))
        return files

    def _add_tags_and_home(self, files: Files, config: MkDocsConfig) -> None:
        assert self.site is not None
        options = TagOptions(self.config.tags_page, material_tags_enabled(config.plugins))
        for url in self.site.add_tags(options, files, config):
            log.info(f"the site has its own page at {url}: no tag page is generated there")
        dests = self.site.tags.dest_uris if self.site.tags is not None else set()
        if self.dirty:  # the pages of tags no note carries any more
            remove_outputs(Path(config.site_dir), self._tag_dests - dests)
        self._tag_dests = dests
        home = self.site.add_home(files, config)
        if home is not None:
            log.info(home)

    def _recent_options(self, config: MkDocsConfig) -> RecentOptions:
        return RecentOptions(self.config.dates, self.config.reading_time, self.config.recent_page,
                             self.config.recent_notes, self.config.feed, config.site_url or "",
                             config.site_name, dates_plugin_enabled(config.plugins))

    def _home_if_recent_changed(self) -> set[SrcPath]:
        """The home note, when the recent notes it lists changed (--dirty)."""
        recent = self.site.recent if self.site is not None else None
        if recent is None:
            return set()
        before, self._home_recent = self._home_recent, recent.home_signature()
        if before is None or before == self._home_recent:
            return set()
        return {d.path for d in recent.compiled.published.values() if recent.is_home(d)}

    def _add_folders(self, files: Files, config: MkDocsConfig) -> None:
        assert self.site is not None
        options = FolderOptions(self.config.folder_pages, self.config.breadcrumbs)
        self.site.add_folders(options, files, config)
        dests = self.site.folders.dest_uris if self.site.folders is not None else set()
        if self.dirty:  # the pages of folders that hold no note any more
            remove_outputs(Path(config.site_dir), self._folder_dests - dests)
        self._folder_dests = dests

    def _add_node_page(self, files: Files, config: MkDocsConfig, doc: Document) -> None:
        static = files.get_file_from_path(doc.path)
        if static is not None:
            files.remove(static)
        page_src = doc.path[: -len(".toml")] + ".md"
        if files.get_file_from_path(page_src) is not None:
            self._diagnostics.append(diag.make(
                "page-conflict", self.site.compiled.options.display(doc.path), 1, 1,  # type: ignore[union-attr]
                f"{page_src} already exists, so this node gets no page of its own; "
                "rename one of them"))
            return
        files.append(File.generated(config, page_src, content=""))

    @event_priority(-100)  # last: MkDocs' page loop starts right after
    def on_nav(self, nav: Any, *, config: MkDocsConfig, files: Files) -> Any:
        self._stop_ahead()
        reuse = self._markdown_reuse
        self._compile_outputs_written = False
        if (self.config.markdown_offload and reuse is not None and self._release_pages
                and not self.dirty):
            # `mkdocs build`: the worker also writes the files made from the compile
            # alone.  Not under serve: the reader keeps what it wrote for the next
            # rebuild to compare with, and a worker's copy of that is lost.
            first = None if self.serving else functools.partial(
                self._write_compile_outputs, config=config)
            self._ahead = RenderAhead.start(config, files, files.documentation_pages(), reuse,
                                            first)
        return nav

    def _write_compile_outputs(self, *, config: MkDocsConfig) -> None:
        assert self.site is not None
        self.site.write_compile_outputs(Path(config.site_dir), config.use_directory_urls,
                                        self._dest_uris)

    def _stop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead.close()
            self._ahead = None

    # -- pages -------------------------------------------------------------------------

    def _doc(self, page: Page) -> Document | None:
        return self.site.by_page.get(page.file.src_uri) if self.site else None

    def on_page_read_source(self, *, page: Page, config: MkDocsConfig) -> str | None:
        doc = self._doc(page)
        if doc is None or self.site is None:
            return None
        return "\n" + self.site.page_markdown(doc)  # the newline keeps MkDocs off our `---`

    @event_priority(100)  # first: later plugins see our body and meta
    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        markdown = self._page_markdown(markdown, page)
        if self._rss_plugin and page.file.abs_src_path is None:
            # mkdocs-rss-plugin reads every page's source file and fails on a page
            # made without one (ours: tags, graph, recent notes...); it leaves out
            # pages marked draft, and these are no notes to put in a feed anyway
            page.meta["draft"] = True
        return markdown

    def _page_markdown(self, markdown: str, page: Page) -> str:
        if self._ahead is not None:
            self._ahead.begin(page.file.src_uri)
        if self.site is None:
            return markdown
        doc = self._doc(page)
        if doc is None:
            if page.file.src_uri == self.site.wanted_src:
                # a list of every dangling link: nothing to search for, and parsing
                # it costs the theme's search a second per rebuild in a large vault
                page.meta.update({"title": "Wanted notes", "search": {"exclude": True}})
            elif meta := self.site.generated_meta(page.file.src_uri):
                page.meta.update(meta)
            return markdown
        page.meta = self.site.page_meta(doc)
        self.site.renderer.begin_page(doc, page.url)
        return self.site.page_markdown(doc)

    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if self._release_pages:
            # converted; no plugin of this site reads it again ("", not None: MkDocs
            # takes a page whose markdown is None for one not read yet, without a title)
            page.markdown = ""
        if self.site is None:
            return html
        self.site.renderer.end_page()
        self.invalidation.rendered(page.url)
        if page.file.src_uri == self.site.wanted_src:
            return html + self.site.wanted_content(page.url)
        generated = self.site.generated_content(page.file.src_uri, page.url)
        if generated is not None:
            return html + generated
        doc = self._doc(page)
        if doc is None:
            return html
        if doc.kind == "toml":
            html += self.site.node_content(doc)
        return self.site.page_top(doc, html, page.url)

    @event_priority(-50)  # after the search plugin has indexed the page
    def on_page_context(
        self, context: dict[str, Any], *, page: Page, config: MkDocsConfig, nav: Any
    ) -> dict[str, Any]:
        doc = self._doc(page)
        if doc is not None and self.site is not None and page.content is not None:
            page.content += self.site.panels_after(doc, page.url, self.config.backlinks)
        if self.site is not None:
            context.update(self.site.nav_context(doc))
            if self.site.tags is not None and self.site.tags.options.material_tags:
                self.site.tags.material_links(context)  # after Material's tags plugin
        if self.config.explorer:
            # A knowledge base has no reading order; without previous/next links a
            # page shows nothing of its neighbours in the file list, so a --dirty
            # rebuild never has to touch them.
            page.previous_page = page.next_page = None
        return context

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        if self._ahead is not None:
            self._ahead.conversions_done()
            self._compile_outputs_written = self._ahead.first_done
        MarkdownReuse.uninstall()  # every page's Markdown is converted by now
        if self.compiler is not None:  # a template: or icon: the theme lacks: the default
            bad = missing_theme_files(env, (f.page for f in files.documentation_pages()
                                            if f.page is not None),
                                      self.compiler.options.display)
            self._diagnostics += bad
            self._log(bad)
        if not getattr(env.finalize, "beliefbase", False):
            env.finalize = finalize(env.finalize)
        if env.bytecode_cache is None:
            env.bytecode_cache = self.theme_bytecode
        # MkDocs makes a new environment for each build and nobody edits a template
        # in the middle of one: no need to stat the file at every include (40,000
        # times at 1,000 notes)
        env.auto_reload = False
        first_load = None
        if (self.config.nav_cache or self.config.theme_cache) and "url" in env.filters:
            memo = NavMemo(env.filters["url"])
            memo.install(env, nav=self.config.nav_cache)
            templates = material_templates(config.theme.name) if self.config.theme_cache else None
            if templates is not None:
                first_load = BlockMemo(memo, templates).wrap
        remember_lookups(env, first_load)
        site = self.site
        self._search_escaped = site is not None and escape_before_writing(
            config.plugins, site.search_strings,
            self.invalidation.search_merge if self.dirty else None,
            self._search_texts if self.serving and self.dirty else None)
        if self.dirty and not self._search_escaped:
            self.invalidation.search_merge()  # read the last index before the theme replaces it
        if site is not None and not self.dirty and self.config.panels_ahead:
            pages = [(doc, file.page.url) for file in files.documentation_pages()
                     if file.page is not None and file.page.content is not None
                     and (doc := site.by_page.get(file.src_uri)) is not None]
            site.make_panels_ahead(pages, self.config.backlinks)
        return env

    @event_priority(-100)  # last: MkDocs writes ``output``; nothing reads the content again
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if self._release_pages:
            # MkDocs keeps every page's HTML until the build ends (30 MB at 1,000
            # notes); with only plugins known not to read it later, let it go now
            page.content = ""  # not None: Page.title would fall back to the Markdown
        if self.site is not None and self.site.recent is not None:
            # the feed's <link> in the head, whatever the theme (no template override)
            link = self.site.recent.head_link(page.url)
            end = output.find("</head>") if link else -1
            if end >= 0:
                output = output[:end] + link + output[end:]
        return output

    # -- outputs -----------------------------------------------------------------------

    @event_priority(100)  # first: before the search plugin writes its index
    def _release_page_caches(self, *, config: MkDocsConfig) -> None:
        self._stop_ahead()
        if self.compiler is not None:
            self.compiler.cache.wait()  # the build's parse cache is on disk when it ends
        if self._search_offload is not None:
            self._search_offload.finish()
            self._search_offload = None
        if self.site is not None:
            self.site.release_page_caches()

    @event_priority(-100)  # last: after the search plugin wrote its index
    def _write_outputs(self, *, config: MkDocsConfig) -> None:
        if self.site is None:
            return
        site_dir = Path(config.site_dir)
        if not self._search_escaped:
            fix_search_index(site_dir, self.site.search_strings(),
                             self.invalidation.search_merge() if self.dirty else None)
        self.site.write_outputs(site_dir, self._diagnostics, self._diagnostic_texts)
        if not self._compile_outputs_written:
            self._write_compile_outputs(config=config)
        counts = diag.summary(self._diagnostics)
        if counts:
            text = ", ".join(f"{n} {code}" for code, n in counts.items())
            log.info(f"{len(self._diagnostics)} diagnostics: {text} "
                     f"(all in {OUTPUT_DIR}/diagnostics.json)")
        warnings = [d for d in self._diagnostics if d.level is not diag.Level.INFO]
        if self.config.strict and warnings:
            raise PluginError(f"beliefbase: strict: {len(warnings)} warnings (see above)")

    @event_priority(-100)
    def _build_finished(self, *, config: MkDocsConfig) -> None:
        self._built = True
        if self.serving:
            self.idle_gc.rebuild_done()

    on_post_build = CombinedEvent(_release_page_caches, _write_outputs, _build_finished)

    def on_build_error(self, *, error: Exception) -> None:
        self._stop_ahead()
        if self.compiler is not None:
            self.compiler.cache.wait()
        if self.serving:
            self.idle_gc.rebuild_done()

    def on_shutdown(self) -> None:
        self._stop_ahead()
        self.idle_gc.stop()
        MarkdownReuse.uninstall()
        RenderGuard.uninstall()
        if self._search_offload is not None:
            self._search_offload.close()
        self.reader_cache.wait()
        if self.compiler is not None:
            self.compiler.cache.save()  # waits for a background save first
            self.compiler.save_link_record()

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.config.watcher == "native" and use_native_watcher(server):
            log.debug("watching files with the operating system's change events")
        raw = Path(config.config_file_path or ".").parent / self.config.raw_dir
        if raw.is_dir():
            server.watch(str(raw))
        return server

    # -- helpers -----------------------------------------------------------------------

    def _standalone_page(self, page: Page, content: str) -> str:
        """A whole page for one the theme could not render (``content``: our HTML)."""
        if self._templates is None:
            return content
        return self._templates[1].render("render-error-page.html", title=page.title or "",
                                         content=Markup(content))  # noqa: S704 - ours, escaped

    def _render_failed(self, page: Page, error: Exception) -> str:
        """A page's conversion raised: report it at its file, show its source instead."""
        path = page.file.src_uri
        shown = self.compiler.options.display(path) if self.compiler is not None else path
        found = diag.make("render-error", shown, 1, 1,
                          f"this page could not be converted ({describe(error)}); it shows "
                          f"its source as plain text: {advice(error)}")
        self._diagnostics.append(found)
        self._log([found])
        source = page.markdown or ""
        if self._templates is None:
            return ""
        return self._templates[1].render("render-error.html", reason=describe(error),
                                         source=source)

    def _log(self, found: list[diag.Diagnostic]) -> None:
        quiet = self.config.strict is False
        for d, more in diag.capped(found, LOG_PER_FILE):
            text = printable(str(d))  # titles and targets may hold terminal escapes
            if more:
                text += (f" (and {more:,} more {d.code} in this file: all in "
                         f"{OUTPUT_DIR}/diagnostics.json)")
            if d.level is diag.Level.ERROR:
                log.error(text)
            elif d.level is diag.Level.WARNING and not quiet:
                log.warning(text)
            else:
                log.info(text)


#: Diagnostics of one code logged per file; the rest are counted on the last line
#: (a note of 20,000 broken links logged 20,000 lines); diagnostics.json has them all.
LOG_PER_FILE = 50

#: plugins known to read neither a page's Markdown after it is converted nor its
#: HTML after it is written
_READ_PAGES_ONCE = ("beliefbase.", "material.plugins.search.", "mkdocs.contrib.search.")


def pages_read_once(plugins: Any) -> bool:
    """Does no plugin of the site read ``page.markdown`` or ``page.content`` later?"""
    return all(type(p).__module__.startswith(_READ_PAGES_ONCE)
               for p in plugins.values())


def _override_dir(config: MkDocsConfig) -> Path | None:
    custom = getattr(config.theme, "custom_dir", None)
    return Path(custom) / "beliefbase" if custom else None


_font_noticed = False


#: Material's two schemes, each chosen by the reader's system setting on the first
#: paint (``media``) and switched by the header's toggle: Material's own palette
#: CSS and script, shipped with the theme, do the rest (nothing from the network).
_PALETTE: tuple[dict[str, Any], ...] = (
    {"media": "(prefers-color-scheme: light)", "scheme": "default",
     "toggle": {"icon": "material/brightness-7", "name": "Switch to dark mode"}},
    {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
     "toggle": {"icon": "material/brightness-4", "name": "Switch to light mode"}},
)


def default_palette(config: MkDocsConfig) -> None:
    """Give Material a light and a dark scheme with a toggle when mkdocs.yml sets no
    ``theme.palette`` (a site's own palette always wins; other themes are left alone)."""
    if config.theme.name != "material" or "palette" in config.theme:
        return
    config.theme["palette"] = [
        {**scheme, "toggle": dict(scheme["toggle"])} for scheme in _PALETTE
    ]


def _font_notice(config: MkDocsConfig) -> None:
    """Say once that Material would load Google Fonts (the site is meant to work offline)."""
    global _font_noticed
    if _font_noticed or config.theme.name != "material":
        return
    if config.theme.get("font") is not False:
        _font_noticed = True
        log.info("the Material theme loads its fonts from Google Fonts; for a site that works "
                 "offline set `theme: font: false` in mkdocs.yml")


__all__ = ["BeliefbasePlugin", "CompileOptions"]

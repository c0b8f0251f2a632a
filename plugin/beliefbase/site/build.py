"""One MkDocs build (or serve rebuild) of the site: what each of the plugin's hooks does.

``plugin.py`` hands MkDocs' objects to ``MkDocsBuild``, one per process; what
must outlive a build under ``mkdocs serve`` (the compiler and its caches, what
the features keep, and the ``Invalidation`` that plans what a ``--dirty``
rebuild renders: ``serve/``) is one ``ServeState``.  The pages' features are
``SiteBuild``'s (``session.py``).  Everything that
reaches into MkDocs', Material's or Jinja's internals is in ``speedups/``,
called from here at the hooks where it starts and ends.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from .. import diagnostics as diag
from .. import speedups
from ..builder import make_sources
from ..builder.documents import Document
from ..compile import Compiler
from ..config import BeliefbaseConfig
from ..obsidian import ObsidianSettings
from ..process import BuildProcess
from ..project import classify, compile_options, vault_settings
from ..search_index import EntryTexts, fix_search_index, material_search
from ..speedups.render_guard import FAILED_READING
from .conflicts import keep_user_files, restore_user_files
from .escape import escape_section_titles, finalize
from .feature import Kept
from .log import DiagnosticLog
from .markdown.callouts import CalloutExtension
from .markdown.markdown_defaults import add_markdown_defaults
from .navigation import install_theme_overrides
from .page_guard import PageGuard
from .page_spill import PageSpill
from .reader.reader import ReaderCache
from .render_errors import advice, describe, missing_theme_files
from .serve.dirty import Invalidation
from .serve.outside import Stamp, outside_paths, outside_stamp
from .session import OUTPUT_DIR, SiteBuild
from .templates import MemoryBytecodeCache, Templates, theme_dir
from .theme_defaults import default_palette, font_notice

log = get_plugin_logger("beliefbase.plugin")

_ASSETS = ("beliefbase.css", "beliefs.css", "reader.css", "beliefbase.js",
           "properties.css", "canvas.css", "canvas.js")  # issue 28: properties, canvas

#: plugins known to read neither a page's Markdown after it is converted nor its
#: HTML after it is written
_READ_PAGES_ONCE = ("beliefbase.", "material.plugins.search.", "mkdocs.contrib.search.")


def pages_read_once(plugins: Any) -> bool:
    """Does no plugin of the site read ``page.markdown`` or ``page.content`` later?"""
    return all(type(p).__module__.startswith(_READ_PAGES_ONCE)
               for p in plugins.values())


@dataclass
class ServeState:
    """What outlives one build: under ``mkdocs serve`` every rebuild reuses it."""

    serving: bool = False
    dirty: bool = False
    built: bool = False  # a build of this process finished (later ones are rebuilds)
    compiler: Compiler | None = None
    kept: Kept = field(default_factory=Kept)  # the features' (reader, dates)
    theme_bytecode: MemoryBytecodeCache = field(default_factory=MemoryBytecodeCache)
    #: one Jinja environment for our templates (by override folder): each compiled once
    templates: tuple[Path | None, Templates] | None = None
    process: BuildProcess = field(default_factory=BuildProcess)  # the collector (process/)
    diagnostic_texts: dict[diag.Diagnostic, str] = field(default_factory=dict)  # per line
    log: DiagnosticLog = field(default_factory=DiagnosticLog)  # a rebuild logs what changed
    search_texts: EntryTexts = field(default_factory=EntryTexts)  # theme's entries as JSON
    #: --dirty: what the last build showed, and what this one re-renders
    invalidation: Invalidation = field(default_factory=Invalidation)
    #: plain serve rebuilt like --dirty (speedups/plain_serve.py): the files outside
    #: the vault as the last build began, and whether it finished
    outside: tuple[tuple[str, ...], Stamp] | None = None
    last_ok: bool = False
    #: page URL -> the render-error of the build that last rendered it: a dirty
    #: rebuild that leaves the page alone still has it (the log would say "fixed")
    render_errors: dict[str, diag.Diagnostic] = field(default_factory=dict)


class MkDocsBuild:
    """The plugin's work at each hook, for every build of one process."""

    def __init__(self, options: BeliefbaseConfig) -> None:
        self.options = options
        self.state = ServeState()
        self.site: SiteBuild | None = None
        self._ours_at = 0  # where our extensions go in markdown_extensions
        self.obsidian = ObsidianSettings()  # the vault's .obsidian settings, read at on_config
        self.speedups: speedups.Speedups | None = None
        #: the render guard's public path, when the gated one is off (page_guard.py)
        self.page_guard: PageGuard | None = None
        self.diagnostics: list[diag.Diagnostic] = []
        self._render_errors: dict[str, diag.Diagnostic] = {}  # this build's, by page URL
        self._page_urls: set[str] = set()
        self._dest_uris: set[str] = set()
        self._user_data_files: list[File] = []  # the user's, under _beliefbase/ (conflicts.py)
        self._search_escaped = False  # the theme's search index escaped in memory
        self._compile_outputs_written = False  # by the worker converting pages ahead
        #: no plugin of the site reads a page's Markdown once converted, or its HTML
        #: once written: both are released then (MkDocs keeps them to the end)
        self._release_pages = False
        self._rss_plugin = False  # mkdocs-rss-plugin is enabled (see page_markdown)
        #: a one-off build's converted pages' HTML, on disk until rendered (page_spill.py)
        self._spill: PageSpill | None = None

    # -- lifecycle ---------------------------------------------------------------------

    def startup(self, command: str, dirty: bool) -> None:
        self.state.serving = command == "serve"
        self.state.dirty = dirty
        self.state.built = False
        self.state.process.starts()

    def configure(self, config: MkDocsConfig, options: BeliefbaseConfig) -> MkDocsConfig:
        self.options = options
        state = self.state
        # a serve rebuild starts: the last one's search index, still being built
        # in the background, would only slow it down and be replaced
        if (reader := state.kept.made(ReaderCache)) is not None:
            reader.cancel()
        if state.serving and state.dirty and state.built:
            state.process.rebuild_starts()
        if state.serving:
            paths = outside_paths(config)
            state.outside = (paths, outside_stamp(paths))
        # Markdown defaults first: MkDocs builds its Markdown from this list after
        # on_config, and compile_options reads it (our own extensions come after)
        self.obsidian = vault_settings(config)
        add_markdown_defaults(config, options, self.obsidian)
        compile_with = compile_options(config, options)
        if state.compiler is None or state.compiler.options != compile_with:
            cache_dir = Path(config.config_file_path or ".").parent / options.cache_dir
            state.compiler = Compiler(compile_with, cache_dir.resolve())
            # `mkdocs build`: a child writes the parse cache while the build goes on
            # (waited for in on_post_build); serve writes it on exit instead
            state.compiler.background_save = not state.serving
            # the notes' decoded texts, from the parse to the render (read once)
            state.compiler.keep_texts = True
            state.theme_bytecode.directory = cache_dir.resolve() / "templates"
        # the extensions that need this build's compile go here once it is made
        # (``files``: SiteBuild.add_markdown_extensions), in the order as if added now
        self._ours_at = len(config.markdown_extensions)
        config.markdown_extensions.append(CalloutExtension())
        for name in _ASSETS:
            target = config.extra_css if name.endswith(".css") else config.extra_javascript
            url = f"{OUTPUT_DIR}/{name}"
            if url not in [str(x) for x in target]:
                target.append(url)
        if options.explorer:
            install_theme_overrides(config)
            config.extra_javascript.append(f"{OUTPUT_DIR}/explorer.js")
        self._release_pages = pages_read_once(config.plugins)
        self._rss_plugin = any(type(p).__module__.startswith("mkdocs_rss_plugin")
                               for p in config.plugins.values())
        self.speedups = speedups.install(speedups.Context(
            options, state.serving, state.dirty, self._render_failed, self._standalone_page,
            self._release_pages))
        self.page_guard = None if self.speedups.guard is not None else PageGuard(
            self._render_failed)
        font_notice(config)
        if options.palette_toggle:
            default_palette(config)
        return config

    # -- compile -----------------------------------------------------------------------

    def files(self, files: Files, config: MkDocsConfig) -> Files:
        state, options = self.state, self.options
        assert state.compiler is not None
        assert self.speedups is not None
        docs_dir = Path(config.docs_dir)
        # what is published is what is compiled: excluded files leave Files (MkDocs
        # would serve them) and the compiler never reads them
        kept, dropped, excluded = classify(files, options, self.obsidian, serving=state.serving)
        for file in dropped:
            files.remove(file)
        previous = state.compiler.previous
        # a one-off build writes the link record with the compile's files (``nav``)
        state.compiler.record_links_later = not state.serving
        compiled = state.compiler.compile(make_sources(docs_dir, kept), excluded)
        if not state.serving and compiled.link_resolver is not None:
            compiled.link_resolver.suggester.release()  # no edit will need it again
        if not state.serving:  # nor another compile the notes' bodies the entities kept
            state.compiler.entity_stage.release_bodies()
            state.compiler.compact()  # nor, but rarely, its tables of links
        # under serve, the first build leaves the cache for the next cold start; later
        # rebuilds keep it in memory (written again on exit) instead of writing it all
        # at every save
        state.compiler.autosave = not state.serving
        override = _override_dir(config)
        if state.templates is None or state.templates[0] != override:
            # one environment for the whole serve: Jinja compiles each template once
            # and reloads it when its file changes
            state.templates = (override, Templates(override))
        else:
            state.templates[1].refresh()
        extensions = list(config.markdown_extensions)  # the nested Markdown's
        self.site = site = SiteBuild(compiled, state.templates[1], extensions,
                                     dict(config.mdx_configs))
        self.diagnostics = [*self.obsidian.diagnostics, *compiled.diagnostics]
        self._render_errors = {}
        users = dict(files.src_uris)  # the site's own files: they win (conflicts.py)
        files = self._arrange_files(files, config)
        self.diagnostics += site.add_features(options, config, files, serving=state.serving,
                                              kept=state.kept,
                                              report=self._query_error)
        site.add_markdown_extensions(config.markdown_extensions, self._ours_at)
        site.add_markdown_extensions(extensions, self._ours_at)
        if self.page_guard is not None:  # last, and not the nested Markdown's (embeds)
            config.markdown_extensions.append(self.page_guard.extension())
        found, self._user_data_files = keep_user_files(
            files, users, compiled.options.display, self._reserved_pages())
        self.diagnostics += found
        # `mkdocs serve` also shows draft_docs pages, and published_files compiled them
        pages = files.documentation_pages(
            inclusion=InclusionLevel.is_in_serve if state.serving else InclusionLevel.is_included)
        page_urls = self._page_urls = {f.url for f in pages}
        # alias redirects never replace these, nor what MkDocs and the theme write last
        self._dest_uris = {f.dest_uri for f in files} | set(config.theme.static_templates)
        self._dest_uris |= {"sitemap.xml", "sitemap.xml.gz"}
        self.diagnostics += site.check_generated_pages(page_urls)
        if self._incremental():  # MkDocs re-renders only changed files: and dependents
            state.invalidation.files(previous, site, files, config, page_urls,
                                     serving=state.serving,
                                     nav_in_every_page=not options.explorer)
        else:
            state.invalidation.forget_pages()
        self.speedups.files(config, files, len(pages))
        state.log.begin(state.built)
        self._log(self.diagnostics)
        return files

    def _reserved_pages(self) -> list[tuple[str, str, str]]:
        """The generated pages that step aside for a note at their source path."""
        o = self.options
        pages = [(o.wanted_page.rstrip("/") + ".md", "wanted notes page", "wanted_page")]
        if o.explorer:
            pages.append((o.all_notes_page.rstrip("/") + ".md", "All notes page",
                          "all_notes_page"))
        return pages

    def _arrange_files(self, files: Files, config: MkDocsConfig) -> Files:
        """Drop what must not be published; add generated pages and our assets."""
        assert self.site is not None
        compiled = self.site.compiled
        drop = {s.path for s in compiled.escaped} | compiled.drafts
        drop |= {s.path for s in compiled.sidecars}
        drop |= {n.path for n in compiled.networks.values() if n.path}
        views = self.options.views_dir.strip("/") + "/"
        for file in list(files):
            if file.src_uri in drop or file.src_uri.startswith(views):
                files.remove(file)
        for name in _ASSETS:
            files.append(File.generated(config, f"{OUTPUT_DIR}/{name}",
                                        abs_src_path=str(theme_dir() / "assets" / name)))
        return files

    def nav(self, config: MkDocsConfig, files: Files, nav: Any) -> None:
        """MkDocs' page loop starts next."""
        assert self.speedups is not None
        self._compile_outputs_written = False
        escape_section_titles(nav.items)  # folder names: the theme prints them
        if self._incremental() and self.site is not None:
            self.state.invalidation.nav(self.site, files, nav,
                                        nav_in_every_page=not self.options.explorer)
        if self.site is not None and not self._incremental():
            self.site.before_pages()  # before the fork: the worker shares what it makes
        steps = () if self.site is None else self.site.compile_output_steps(
            Path(config.site_dir), config.use_directory_urls, self._dest_uris)
        if steps and self._records_links_later():  # with the first step: no fork of its own
            steps = (functools.partial(self._step_then_record, steps[0]), *steps[1:])
        if self.site is not None and steps and not self.state.dirty \
                and self.speedups.on("panels_ahead"):
            steps = (*steps, *self.site.panel_view_steps())
        self._close_spill()
        if self._release_pages and not self.state.serving:
            with contextlib.suppress(OSError):  # no temporary file: the HTML stays here
                self._spill = PageSpill()
        self.speedups.nav(config, files, steps)

    def write_compile_outputs(self, config: MkDocsConfig) -> None:
        """The files made from the compile alone (graph.json, the reader's data...)."""
        assert self.site is not None
        self.site.write_compile_outputs(Path(config.site_dir), config.use_directory_urls,
                                        self._dest_uris)
        if self._records_links_later():
            self._save_link_record()

    def _records_links_later(self) -> bool:
        compiler = self.state.compiler
        return compiler is not None and compiler.autosave and compiler.record_links_later

    def _step_then_record(self, step: Callable[[], None]) -> None:
        step()
        self._save_link_record()

    def _save_link_record(self) -> None:
        assert self.state.compiler is not None
        self.state.compiler.save_link_record()

    # -- pages -------------------------------------------------------------------------

    def doc(self, page: Page) -> Document | None:
        return self.site.by_page.get(page.file.src_uri) if self.site else None

    def read_source(self, page: Page) -> str | None:
        guard = self.page_guard
        if guard is None:
            return self._read_source(page)
        guard.begin(page)
        try:
            return self._read_source(page)
        except Exception as error:  # noqa: BLE001 - this page's alone (page_guard.py)
            guard.read_failed(page, error)
            return None  # MkDocs reads the file itself

    def _read_source(self, page: Page) -> str | None:
        doc = self.doc(page)
        if doc is None or self.site is None:
            return None
        return "\n" + self.site.page_markdown(doc)  # the newline keeps MkDocs off our `---`

    def page_markdown(self, markdown: str, page: Page) -> str:
        if (guard := self.page_guard) is not None:
            guard.begin(page)
            try:
                markdown = self._page_markdown(markdown, page)
            except Exception as error:  # noqa: BLE001 - this page's alone (page_guard.py)
                guard.read_failed(page, error)
        else:
            markdown = self._page_markdown(markdown, page)
        if self._rss_plugin and page.file.abs_src_path is None:
            # mkdocs-rss-plugin reads every page's source file and fails on a page
            # made without one (ours: tags, graph, recent notes...); it leaves out
            # pages marked draft, and these are no notes to put in a feed anyway
            page.meta["draft"] = True
        return markdown

    def _page_markdown(self, markdown: str, page: Page) -> str:
        if self.speedups is not None:
            self.speedups.page_begins(page.file.src_uri)
        if self.site is None:
            return markdown
        doc = self.doc(page)
        if doc is None:
            page.meta.update(self.site.generated_meta(page.file.src_uri))
            return markdown
        page.meta = self.site.page_meta(doc)
        self.site.renderer.begin_page(doc, page.url)
        return self.site.page_markdown(doc)

    def page_content(self, html: str, page: Page) -> str:
        if self._release_pages:
            # converted; no plugin of this site reads it again ("", not None: MkDocs
            # takes a page whose markdown is None for one not read yet, without a title)
            page.markdown = ""
        failed = self.page_guard.failed(page) if self.page_guard is not None else None
        if self.site is None or failed == FAILED_READING:
            return html  # (what the gated guard leaves: no hook of ours after a failed read)
        self.site.renderer.end_page()
        self.state.invalidation.rendered(page.url)
        generated = self.site.generated_content(page.file.src_uri, page.url)
        if generated is not None:
            return html + generated
        doc = self.doc(page)
        if doc is None:
            return html
        if doc.kind == "base":  # its views' tabs, linked as [[X.base#View]], for MkDocs's
            page.present_anchor_ids = {  # anchor check (they come after the conversion)
                *(page.present_anchor_ids or ()), *(s.anchor for s in doc.sections)}
        return self.site.page_top(doc, html, page.url)

    def spill_content(self, html: str, page: Page) -> str:
        """Last at ``on_page_content``: the page's HTML to disk until ``restore_content``."""
        if self._spill is not None and self._spill.put(page.file.src_uri, html):
            return ""  # not None: MkDocs would take the page for one not converted
        return html

    def restore_content(self, page: Page) -> None:
        """First at ``on_page_context``: the page's HTML back, before anyone reads it."""
        if self._spill is not None:
            html = self._spill.take(page.file.src_uri)
            if html is not None:
                page.content = html

    def _close_spill(self) -> None:
        if self._spill is not None:
            self._spill.close()
            self._spill = None

    def page_context(self, context: dict[str, Any], page: Page) -> dict[str, Any]:
        doc = self.doc(page)
        if doc is not None and self.site is not None and page.content is not None:
            page.content += self.site.panels_after(doc, page.url)
        if self.site is not None:
            self.site.page_context(context, doc)
        if self.options.explorer:
            # A knowledge base has no reading order; without previous/next links a
            # page shows nothing of its neighbours in the file list, so a --dirty
            # rebuild never has to touch them.
            page.previous_page = page.next_page = None
        return context

    def env(self, env: Environment, config: MkDocsConfig, files: Files) -> Environment:
        state, fast = self.state, self.speedups
        assert fast is not None
        self._compile_outputs_written = fast.conversions_done()
        if self._compile_outputs_written and self._records_links_later():
            assert state.compiler is not None
            state.compiler.recorded_elsewhere()  # with the compile's files (``nav``)
        if state.compiler is not None:  # a template: or icon: the theme lacks: the default
            bad = missing_theme_files(env, (f.page for f in files.documentation_pages()
                                            if f.page is not None),
                                      state.compiler.options.display)
            self.diagnostics += bad
            self._log(bad)
        if not getattr(env.finalize, "beliefbase", False):
            env.finalize = finalize(env.finalize)
        if env.bytecode_cache is None:
            env.bytecode_cache = state.theme_bytecode
        # MkDocs makes a new environment for each build and nobody edits a template
        # in the middle of one: no need to stat the file at every include of every
        # page
        env.auto_reload = False
        fast.env(env, config)
        site = self.site
        self._search_escaped = site is not None and fast.search_in_memory(
            config.plugins, site.search_strings,
            state.invalidation.search_merge if state.dirty else None,
            state.search_texts if state.serving else None)
        if state.dirty and not self._search_escaped:
            state.invalidation.search_merge()  # read the last index before the theme replaces it
        if site is not None and not state.dirty and fast.on("panels_ahead"):
            pages = [(doc, file.page.url) for file in files.documentation_pages()
                     if file.page is not None and file.page.content is not None
                     and (doc := site.by_page.get(file.src_uri)) is not None]
            site.make_panels_ahead(pages)
        fast.templates_begin()
        return env

    def post_page(self, output: str, page: Page) -> str:
        if self._release_pages:
            # MkDocs keeps every page's HTML until the build ends, all of it in memory
            # at once; with only plugins known not to read it later, let it go now
            page.content = ""  # not None: Page.title would fall back to the Markdown
        if self.site is not None:
            # the feed's <link> in the head, whatever the theme (no template override)
            link = self.site.head(page.url)
            end = output.find("</head>") if link else -1
            if end >= 0:
                output = output[:end] + link + output[end:]
        return output

    # -- outputs -----------------------------------------------------------------------

    def pages_done(self) -> None:
        """First in on_post_build, before the search plugin writes its index."""
        self._close_spill()
        if self.speedups is not None:
            if self.speedups.pages_taken_ahead() and self.site is not None \
                    and self.site.queries is not None:
                # query-errors of the pages the worker converted (query_embeds.py)
                self.diagnostics += self.site.queries.unrendered_diagnostics()
            self.speedups.pages_done()
        if self.state.compiler is not None:
            self.state.compiler.cache.wait()  # the build's parse cache is on disk when it ends
        if self.site is not None:
            if not self._compile_outputs_written and self.site.reader is not None:
                # previews.json is written after the texts go: its paragraphs now
                self.site.reader.keep_paragraphs()
            self.site.release_page_caches()

    def write_outputs(self, config: MkDocsConfig) -> None:
        """Last in on_post_build, after the search plugin wrote its index."""
        if self.site is None:
            return
        site_dir = Path(config.site_dir)
        if not self._search_escaped:
            fix_search_index(site_dir, self.site.search_strings(),
                             self.state.invalidation.search_merge() if self.state.dirty else None,
                             ascii_only=material_search(config.plugins))
        self.diagnostics += self._render_errors_kept()
        self.site.write_outputs(site_dir, self.diagnostics, self.state.diagnostic_texts)
        if not self._compile_outputs_written:
            self.write_compile_outputs(config)
        restore_user_files(self._user_data_files)  # the user's file wins (conflicts.py)
        self.state.log.end(log, self.diagnostics, self.options.strict is False,
                           f"{OUTPUT_DIR}/diagnostics.json")
        warnings = [d for d in self.diagnostics if d.level is not diag.Level.INFO]
        if self.options.strict and warnings:
            raise PluginError(f"beliefbase: strict: {len(warnings)} warnings (see above)")

    def finished(self) -> None:
        self.state.built = self.state.last_ok = True
        if self.state.serving:
            self.state.process.rebuild_done()

    def failed(self) -> None:
        self.state.last_ok = False
        self.state.search_texts = EntryTexts()  # the theme may not have written them
        self.state.invalidation.forget_pages()  # some may not have been written
        self._close_spill()
        if self.speedups is not None:
            self.speedups.pages_written()  # those rendered, as MkDocs had written them
            self.speedups.stop_ahead()
        if self.state.compiler is not None:
            self.state.compiler.cache.wait()
        if self.state.serving:
            self.state.process.rebuild_done()

    def shutdown(self) -> None:
        if self.speedups is not None:
            self.speedups.close()
        self.state.process.stop()
        speedups.uninstall()
        if (reader := self.state.kept.made(ReaderCache)) is not None:
            reader.wait()
        if self.state.compiler is not None:
            self.state.compiler.cache.save()  # waits for a background save first
            self.state.compiler.save_link_record()

    def serve(self, server: Any, config: MkDocsConfig) -> Any:
        if self.speedups is not None and self.speedups.watch(server):
            log.debug("watching files with the operating system's change events")
        if self.speedups is not None and not self.state.dirty:
            self.speedups.plain_serve(server, self._rebuild_dirty)
        raw = Path(config.config_file_path or ".").parent / self.options.raw_dir
        if raw.is_dir():
            server.watch(str(raw))
        return server

    def _incremental(self) -> bool:
        """Does this build carry out (or, first under plain serve, record) the plan
        of a dirty rebuild?"""
        return self.state.dirty or (self.state.serving and self.speedups is not None
                                    and self.speedups.on("plain_serve"))

    def _rebuild_dirty(self) -> bool:
        """Plain serve, a save: may MkDocs rebuild dirty (``speedups/plain_serve.py``)?
        Not after a failed build, nor when a file outside the vault changed."""
        state = self.state
        state.dirty = (state.built and state.last_ok and state.outside is not None
                       and outside_stamp(state.outside[0]) == state.outside[1])
        return state.dirty

    # -- the render guard's and the log's ------------------------------------------------

    def _standalone_page(self, page: Page, content: str) -> str:
        """A whole page for one the theme could not render (``content``: our HTML)."""
        if self.state.templates is None:
            return content
        return self.state.templates[1].render(
            "render-error-page.html", title=page.title or "",
            content=Markup(content))  # noqa: S704 - ours, escaped

    def _render_failed(self, page: Page, error: Exception, failed: str) -> str:
        """Reading, converting or rendering a page raised (``failed`` says which):
        report it at its file, show its source instead."""
        path = page.file.src_uri
        compiler = self.state.compiler
        shown = compiler.options.display(path) if compiler is not None else path
        found = diag.make("render-error", shown, 1, 1,
                          f"{failed} ({describe(error)}; at a line "
                          f"not known: reported at the file's start); it shows its source "
                          f"as plain text: {advice(error)}")
        self.diagnostics.append(found)
        self._render_errors[page.url] = found
        self._log([found])
        source = page.markdown or ""
        if self.state.templates is None:
            return ""
        return self.state.templates[1].render("render-error.html", reason=describe(error),
                                              source=source)

    def _render_errors_kept(self) -> list[diag.Diagnostic]:
        """The render-errors of pages a dirty rebuild did not render again (their
        output, the error page, is still there); remembers this build's for the next."""
        state = self.state
        kept = {url: found for url, found in state.render_errors.items()
                if state.dirty and url in self._page_urls and url not in self._render_errors
                and not state.invalidation.was_rendered(url)}
        state.render_errors = {**kept, **self._render_errors} if state.serving else {}
        return list(kept.values())

    def _query_error(self, found: diag.Diagnostic) -> None:
        """A query of a page failed while it rendered (``query_embeds.py``)."""
        self.diagnostics.append(found)
        self._log([found])

    def _log(self, found: list[diag.Diagnostic]) -> None:
        self.state.log.show(log, found, self.options.strict is False)  # site/log.py


def _override_dir(config: MkDocsConfig) -> Path | None:
    custom = getattr(config.theme, "custom_dir", None)
    return Path(custom) / "beliefbase" if custom else None

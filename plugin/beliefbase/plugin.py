"""The MkDocs adapter: each ``on_*`` hook hands MkDocs' objects to ``MkDocsBuild``.

Event order in one build (MkDocs "gathers all data, then writes"):

* ``on_config``   – options -> ``CompileOptions``; our Markdown extension, CSS, JS;
                    the speed-ups that pass their version gate (``speedups/``).
* ``on_files``    – compile every source (cached), verify beliefs (SQLite index),
                    log diagnostics, drop drafts and non-page sources, add
                    generated pages (belief pages too) and assets.
* ``on_nav``      – last: the page loop starts next (speed-ups: a worker converts
                    pages from its back).
* ``on_page_read_source`` / ``on_page_markdown`` – our decoded body and meta.
* ``on_page_content`` / ``on_page_context`` – banners, node pages, panels
                    (after the search plugin indexed the page: panels are not
                    searchable text); a one-off build's HTML waits on disk in
                    between (``site/page_spill.py``).
* ``on_env``      – escape user strings the theme prints raw; the theme's speed-ups.
* ``on_post_page`` – release the written page's HTML (when no plugin reads it later).
* ``on_post_build`` – workers ended first; then beliefs, diagnostics.json, the
                    compile's files, the summary.

``on_startup`` makes MkDocs keep this instance for the whole ``mkdocs serve``,
so ``MkDocsBuild`` and its ``ServeState`` (the compiler, its caches) survive rebuilds.
The work itself: ``site/build.py``.
"""

from __future__ import annotations

from typing import Any, cast

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from .builder import CompileOptions
from .config import BeliefbaseConfig
from .site.build import MkDocsBuild
from .site.log import Progress


class BeliefbasePlugin(BasePlugin[BeliefbaseConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.build = MkDocsBuild(self.config)
        self.progress = Progress(get_plugin_logger("beliefbase.plugin"))  # long first builds

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.build.startup(command, dirty)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        return self.build.configure(config, self.config)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        self.progress.compiling(len(files.documentation_pages()), not self.build.state.built)
        if self.build.state.compiler is not None:
            self.build.state.compiler.on_stage = self.progress.stage
        return self.build.files(files, config)

    @event_priority(-100)  # last: MkDocs' page loop starts right after
    def on_nav(self, nav: Any, *, config: MkDocsConfig, files: Files) -> Any:
        self.build.nav(config, files, nav)
        self.progress.rendering(len(files.documentation_pages()))
        return nav

    def on_page_read_source(self, *, page: Page, config: MkDocsConfig) -> str | None:
        return self.build.read_source(page)

    @event_priority(100)  # first: later plugins see our body and meta
    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return self.build.page_markdown(markdown, page)

    def _page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return self.build.page_content(html, page)

    @event_priority(-100)  # last: the HTML waits on disk until the theme renders the page
    def _spill_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return self.build.spill_content(html, page)

    on_page_content = CombinedEvent(_page_content, _spill_content)

    @event_priority(100)  # first: the page's HTML back before anyone reads it
    def _restore_content(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> TemplateContext:
        self.build.restore_content(page)
        return context

    @event_priority(-50)  # after the search plugin has indexed the page
    def _page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> TemplateContext:
        # MkDocs types the context as its own keys; the theme and plugins add others
        extended = self.build.page_context(cast(dict[str, Any], context), page)
        return cast(TemplateContext, extended)

    on_page_context = CombinedEvent(_restore_content, _page_context)

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        return self.build.env(env, config, files)

    @event_priority(-100)  # last: MkDocs writes ``output``; nothing reads the content again
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        self.progress.page()
        return self.build.post_page(output, page)

    @event_priority(100)  # first: before the search plugin writes its index
    def _pages_done(self, *, config: MkDocsConfig) -> None:
        self.progress.done()
        self.build.pages_done()

    @event_priority(-100)  # last: after the search plugin wrote its index
    def _write_outputs(self, *, config: MkDocsConfig) -> None:
        self.build.write_outputs(config)

    @event_priority(-100)
    def _build_finished(self, *, config: MkDocsConfig) -> None:
        self.build.finished()

    on_post_build = CombinedEvent(_pages_done, _write_outputs, _build_finished)

    def on_build_error(self, *, error: Exception) -> None:
        self.build.failed()

    def on_shutdown(self) -> None:
        self.build.shutdown()

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        return self.build.serve(server, config)


__all__ = ["BeliefbasePlugin", "CompileOptions"]

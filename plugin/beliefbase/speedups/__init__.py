"""Every mechanism that reaches into another library's internals, behind one gate.

The build is correct without any of this package: each speed-up does what
MkDocs, Material or Jinja would do, faster, and tests build sites with and
without them and compare every byte (``tests/speedups``,
``python -m tests.sitecompare build OUT --no-speedups``).  One entry point:
``install(context)`` at ``on_config`` returns the build's ``Speedups``, whose
methods the adapter calls at the hooks where a speed-up starts or ends;
``uninstall()`` puts every patched attribute back.  One option turns them all
off (``speedups: false``, or the environment variable ``BELIEFBASE_SPEEDUPS=0``),
or single ones (``speedups: {nav_cache: false}``; the names: ``config.SPEEDUPS``);
the six per-mechanism options it took in (``reuse_markdown``, ``markdown_offload``,
``nav_cache``, ``theme_cache``, ``search_offload``, ``panels_ahead``) still work,
with one info line saying what to write instead.  ``gate.py`` holds the versions each was tested
against; outside them it is off and the build logs one info line.

Two members are not speed-ups: the render guard (``render_guard.py``: one page
that cannot be converted does not end the build), on whenever the gate allows
it (else the site's ``page_guard.py`` takes its place through public APIs), and
the native file watcher (``watcher.py``), its own option ``watcher``.
What each one costs and saves: docs/develop/speed.md.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files

from ..config import SPEEDUPS, legacy_speedups_line, speedups_off
from . import inline_literals, link_memo, page_writer, search_escape
from .block_memo import BlockMemo, material_templates, remember_lookups, remember_script_tags
from .gate import ALWAYS, Gate
from .markdown_reuse import MarkdownReuse, reusable
from .nav_memo import NavMemo
from .page_writer import PageWriter
from .plain_serve import install as install_plain_serve
from .render_ahead import RenderAhead
from .render_guard import OnFailure, RenderGuard, Standalone
from .search_escape import escape_before_writing
from .search_flat import install as install_search_flat
from .search_offload import SearchOffload, material_index
from .watcher import use_native_watcher

log = get_plugin_logger(__name__)

#: the last lines logged (the gate's, the old options'): once per process, not once
#: per serve rebuild
_said: str | None = None
_said_options: str | None = None


def wanted_from_env() -> bool:
    """``BELIEFBASE_SPEEDUPS=0`` (tests/sitecompare.py ``--no-speedups``) turns all off."""
    return os.environ.get("BELIEFBASE_SPEEDUPS", "1").strip().lower() not in ("0", "false",
                                                                              "no", "off")


@dataclass
class Context:
    """What ``install`` needs to know of the build."""

    options: Any  # the plugin's BeliefbaseConfig
    serving: bool
    dirty: bool
    on_failure: OnFailure  # the render guard's: a page's conversion raised
    standalone: Standalone  # the render guard's: a page the theme cannot render
    #: no plugin reads a page's Markdown once converted (``plugin.pages_read_once``)
    pages_read_once: bool = False
    gate: Gate = field(default_factory=Gate.check)


class Speedups:
    """The speed-ups of one build: which run, and what each holds between hooks."""

    def __init__(self, context: Context, active: frozenset[str]) -> None:
        self.context = context
        self.active = active
        self.guard: RenderGuard | None = None
        self._reuse: MarkdownReuse | None = None
        self._ahead: RenderAhead | None = None
        self._search: SearchOffload | None = None
        self._writer: PageWriter | None = None
        self._pages = 0

    def on(self, name: str) -> bool:
        return name in self.active

    # -- on_files ---------------------------------------------------------------------

    def files(self, config: MkDocsConfig, files: Files, pages: int) -> None:
        """The compile is done: one Markdown instance for the build; the search worker."""
        self._reuse = None
        self._pages = pages
        if self.on("reuse_markdown") and reusable(config.markdown_extensions):
            self._reuse = MarkdownReuse(config.markdown_extensions,
                                        dict(config.mdx_configs or {}))
            self._reuse.install()
        if self._search is not None:
            self._search.close()
            self._search = None
        if self.on("search_offload") and not self.context.dirty:
            self._search = SearchOffload.install(config.plugins, pages, self.on("search_flat"))
        if self._search is None and self.on("search_flat"):
            index = material_index(config.plugins)
            if index is not None:  # (a new index each build: nothing to put back)
                install_search_flat(index)
        if self.context.dirty and self.on("dirty_stats"):
            for file in files.documentation_pages():
                remember_modified(file)

    # -- on_nav -----------------------------------------------------------------------

    def nav(self, config: MkDocsConfig, files: Files,
            first: Sequence[Callable[[], None]]) -> None:
        """Fork the worker converting pages from the back of MkDocs' loop.

        ``first``: what it writes before converting, step by step (``mkdocs build`` only: under
        serve the reader keeps what it wrote for the next rebuild, and a worker's
        copy of that is lost).
        """
        self.stop_ahead()
        if (self.on("markdown_offload") and self._reuse is not None
                and self.context.pages_read_once and not self.context.dirty):
            self._ahead = RenderAhead.start(config, files, list(files.documentation_pages()),
                                            self._reuse, () if self.context.serving else first)

    def page_begins(self, src_uri: str) -> None:
        if self._ahead is not None:
            self._ahead.begin(src_uri)

    # -- on_env -----------------------------------------------------------------------

    def conversions_done(self) -> bool:
        """Every page is converted; did the worker write the compile's files?"""
        written = False
        if self._ahead is not None:
            self._ahead.conversions_done()
            written = self._ahead.first_done
        MarkdownReuse.uninstall()
        return written

    def env(self, env: Environment, config: MkDocsConfig) -> None:
        """Material's navigation and constant blocks rendered once; template lookups."""
        first_load = None
        nav, theme = self.on("nav_cache"), self.on("theme_cache")
        if (nav or theme) and "url" in env.filters:
            memo = NavMemo(env.filters["url"])
            memo.install(env, nav=nav)
            templates = material_templates(config.theme.name) if theme else None
            if templates is not None:
                first_load = BlockMemo(memo, templates).wrap
                remember_script_tags(env)
        if self.on("template_lookups"):
            remember_lookups(env, first_load)

    def templates_begin(self) -> None:
        """The template loop is next (after the panels' burst, whose workers ended):
        a child writes the pages MkDocs renders (``mkdocs build`` only)."""
        self.pages_written()
        if self.on("page_writer") and not self.context.serving and not self.context.dirty:
            self._writer = PageWriter.start(self._pages)

    def pages_written(self) -> None:
        """Every page handed to the child writing them is on disk."""
        if self._writer is not None:
            self._writer.finish()
            self._writer = None

    def search_in_memory(self, plugins: Mapping[str, Any],
                         strings: Callable[[], Mapping[str, tuple[str, tuple[str, ...]]]],
                         dirty: Any = None, texts: Any = None) -> bool:
        """Escape Material's index before it is written; False: fix the file after."""
        if not self.on("search_in_memory"):
            return False
        return escape_before_writing(plugins, strings, dirty, texts)

    # -- on_post_build, errors, shutdown -----------------------------------------------

    def pages_taken_ahead(self) -> bool:
        """Did the worker converting pages ahead convert any (and so run their queries)?"""
        return self._ahead is not None and bool(self._ahead.taken)

    def pages_done(self) -> None:
        """First thing in on_post_build: every page on disk, the worker ended, the search
        sections added."""
        self.pages_written()
        self.stop_ahead()
        if self._search is not None:
            self._search.finish()
            self._search = None

    def stop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead.close()
            self._ahead = None

    def close(self) -> None:
        """A build failed or the server stops: end every worker (the pages rendered
        so far written, as MkDocs would have)."""
        self.pages_written()
        self.stop_ahead()
        if self._search is not None:
            self._search.close()
            self._search = None

    def plain_serve(self, server: Any, decide: Callable[[], bool]) -> bool:
        """Plain ``mkdocs serve``: each save rebuilt dirty when ``decide()`` says so."""
        return self.on("plain_serve") and install_plain_serve(server, decide)

    def watch(self, server: Any) -> bool:
        """``mkdocs serve`` with the native watcher (option ``watcher: native``)."""
        return (self.context.options.watcher == "native" and self.on("native_watcher")
                and use_native_watcher(server))


def wanted(options: Any) -> frozenset[str]:
    """The mechanisms the options ask for (before the version gate)."""
    names = set(ALWAYS)
    if wanted_from_env():
        names.update(set(SPEEDUPS) - speedups_off(options))
    return frozenset(names)


def install(context: Context) -> Speedups:
    """The speed-ups of this build (each gated); the render guard installed."""
    global _said, _said_options
    legacy = legacy_speedups_line(context.options)
    if legacy is not None and legacy != _said_options:
        log.info(legacy)
    _said_options = legacy
    asked = wanted(context.options)
    line = context.gate.describe_off(asked)
    if line is not None and line != _said:
        log.info(line)
    _said = line
    speedups = Speedups(context, context.gate.active(asked))
    if speedups.on("render_guard"):
        speedups.guard = RenderGuard(context.on_failure, context.standalone)
        speedups.guard.install()
    if speedups.on("link_memo"):
        link_memo.install()
    else:
        link_memo.uninstall()
    if speedups.on("inline_literals"):
        inline_literals.install()
    else:
        inline_literals.uninstall()
    return speedups


def uninstall() -> None:
    """Every patched attribute back to what it was."""
    MarkdownReuse.uninstall()
    RenderGuard.uninstall()
    link_memo.uninstall()
    inline_literals.uninstall()
    page_writer.uninstall()
    search_escape.unstream()


def remember_modified(file: File) -> None:
    """MkDocs asks each page twice a dirty build (before reading it, before writing it;
    three stats each) and nothing is written in between: ask the disk once."""
    file.is_modified = functools.cache(file.is_modified)  # type: ignore[method-assign]


__all__ = ["Context", "Gate", "Speedups", "install", "uninstall", "wanted"]

"""Queries in pages (SPEC §8): ``{{query:ID | view:NAME}}``, ```` ```query ```` fences and
Query pages, rendered at build time through a view.

A Python-Markdown preprocessor, run before any fence processor (``fenced_code``
or ``pymdownx.superfences``) so that it sees the fences as written:

* a fence whose info string starts with ``query`` (``view=NAME`` optional) is
  replaced by its result, at the top level of the page or inside a list item, a
  quote or a callout (their prefixes removed from its lines, the result put back
  as a block of that container); a ``query`` fence inside another fence or
  indented code, and every other fence, is left alone;
* ``{{query:ID}}`` / ``{{query:ID | view:NAME}}`` outside code (fences, indented
  code, code spans, HTML comments) is replaced by the result of the Query note
  whose id, bid or title is ``ID``; ``\\{{query:…}}`` stays text;
* the page of a Query note (``schema: Query`` with a ``query:`` field) gets the
  query, highlighted, and its live result after its text;
* the vault's own query languages (issue 27, ``site/dashboards.py``) the same way:
  a ```` ```base ```` or ```` ```dataview ```` fence is replaced by its result, a
  ```` ```dataviewjs ```` fence by its code (never run), and an inline
  `` `= expr` `` (`` `$= js` ``) code span outside code by its value (its code).

Results are stashed HTML (``htmlStash``): Markdown never parses a view's output.
A failing query or view renders an error box in place and reports
``query-error`` at the page's file and line; the page and the build go on.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markupsafe import Markup

from ... import diagnostics as diag
from ...builder.documents import Document
from ...builder.resolve import ResolvedLink
from ...builder.wikitext import link_text, unresolved_text
from ...codecs.grammar import FENCE_RUN, LIST_MARKER, QUOTE_MARKER, split_wikilink
from ...codecs.grammar import LIST_ITEM_BLANK as _LIST_ITEM
from ...codecs.grammar import QUERY_EMBED as _EMBED
from ...codecs.grammar import QUERY_FENCE_VIEW as _FENCE_VIEW
from ...codecs.grammar import QUOTE_MARK as _QUOTE_MARK
from ...codecs.mask import code_regions
from ...codecs.model import LinkRef
from ...compile.compiled import Compiled
from ...compile.schema import NODE_TYPE
from ...ids import SrcPath, asset_url
from ...query import update as kept_db
from ...query.load import quote_name
from ...query.run import QueryEngine, QueryResult
from ..query_views import LinkTarget, ViewError, Views
from ..render import PageRenderer
from .task_lines import LineRenderer, line_renderer

if TYPE_CHECKING:  # imported on the first block: a build without one loads no engine
    from ..dashboard_data import KeptDashboardData
    from ..dashboards import Dashboards

#: The schema of a Query node, and its field holding the Cypher text.
QUERY_SCHEMA = "Query"
# A fence opening, at the top level or under quote markers ("> ```query", "> > ~~~",
# a callout's "> ") and list indentation: the prefix, the fence's characters, its info.
_FENCE_OPEN = re.compile(
    r"^(?P<prefix>(?:" + QUOTE_MARKER + r")*[ ]*)(?P<fence>" + FENCE_RUN + r")(?P<info>[^\n]*)$")
# What may stand before an embed on a line of its own: quote markers, a list marker.
_LINE_LEAD = re.compile(r"[ \t>]*(?:" + LIST_MARKER + r"[ \t]+)?")
# A line that may hold a query: an embed or a query fence, in a quote or a list item
# too (a superset: for --dirty).
_MAYBE_QUERY = re.compile(r"\{\{\s*query\s*:|^[ \t>*+\-\d.)]*" + FENCE_RUN + r"\s*query",
                          re.MULTILINE)
#: The fences of the vault's query languages (issue 27), by their info string's word.
DASHBOARD_FENCES = ("base", "dataview", "dataviewjs")
# A line that may hold a base or a Dataview query (a superset, for --dirty too): a
# base or dataview fence, an inline `= expr` / `$= js`, an embed of a .base file.
# A fence of a base or a Dataview query (its info string on the fence's line), an
# inline Dataview query's code span (`= …`, `$= …`) and an embed of a ``.base``
# file: each looked for only where its literal part is (C substring searches: a note
# without any is passed over in a few scans, never copied or lower-cased).
_FENCE_INFO = re.compile(r"[ \t]*(?P<kind>base|dataview)(?P<js>js)?", re.IGNORECASE)
_FENCE_LEAD = re.compile(r"[ \t>*+\-\d.)]*")  # what may stand before a fence on its line
_INLINE_QUERY_START = re.compile(r"`[ \t]*\$?=")
_BASE_FILE = re.compile(r"\.base\b", re.IGNORECASE)
# An inline Dataview query, a code span: `= expr` (DQL) or `$= code` (JavaScript);
# not `==mark==` (no expression starts with "=").
# (matched against one code span at a time: linear, whatever its length)
_INLINE = re.compile(r"(?P<ticks>`+)[ \t]*(?P<js>\$)?=(?!=)(?P<expr>.*)(?P=ticks)", re.DOTALL)
#: Page being rendered: (the document whose Markdown this is, the URL of the page
#: the HTML ends up in, whether it is that page itself rather than an embed).
Host = tuple[Document, str, bool]


@dataclass
class QuerySite:
    """What the extension needs during one build."""

    compiled: Compiled
    views: Views
    host: Callable[[], Host | None]
    report: Callable[[diag.Diagnostic], None]
    timeout: float
    max_rows: int
    #: under ``mkdocs serve``, the last build's database (``query/update.py``)
    kept: kept_db.KeptDatabase | None = None
    #: ... and its Bases and Dataview data (``site/dashboard_data.py``)
    kept_data: KeptDashboardData | None = None
    #: what the queries of each page ``digest`` ran reported, reported once the pages
    #: are done (``report_digested``) whether the page rendered again or not
    digested: dict[SrcPath, list[diag.Diagnostic]] = field(default_factory=dict)
    #: the HTML of each block ``digest`` made, for the page's render (``once``)
    blocks: dict[tuple[Any, ...], Markup] = field(default_factory=dict)
    _digesting: bool = False
    #: renders as the page of a document (``digest``: a view may render through the page)
    as_page: Callable[[Document, str], AbstractContextManager[None]] = \
        lambda _doc, _url: nullcontext()
    _engine: QueryEngine | None = None
    _reported: set[diag.Diagnostic] = field(default_factory=set)
    #: pages whose Markdown this process converted (not the markdown_offload worker)
    rendered: set[SrcPath] = field(default_factory=set)
    _queries: dict[str, Document] | None = None
    #: Bases and Dataview (issue 27), made with the views on the first use
    _dashboards: Dashboards | None = None
    read_text: Callable[[SrcPath], str] | None = None
    #: renders tasks' lines as their page does (``task_lines.line_renderer``)
    render_lines: LineRenderer | None = None

    @property
    def dashboards(self) -> Dashboards:
        """Bases and Dataview of this build: their data is made on their first block."""
        if self._dashboards is None:
            def read(path: SrcPath) -> str:
                if self.read_text is not None:
                    return self.read_text(path)
                return (self.compiled.options.docs_dir / path).read_text(
                    encoding="utf-8", errors="replace")
            from ..dashboards import Dashboards  # the Bases and Dataview engines, lark
            self._dashboards = Dashboards(self.compiled, self.views, read, self._report,
                                          render_lines=self.render_lines,
                                          kept=self.kept_data)
        return self._dashboards

    @property
    def engine(self) -> QueryEngine:
        """Made on the first query: a build without one loads no database."""
        if self._engine is None:
            self._engine = QueryEngine(self.compiled.graph, timeout=self.timeout,
                                       max_rows=self.max_rows,
                                       display=self.compiled.options.display,
                                       kept=self.kept)
        return self._engine

    def digest(self, doc: Document, read_text: Callable[[SrcPath], str]) -> str:
        """A digest of every result the page of ``doc`` shows: the HTML of each of its
        query, base and Dataview blocks, as its page renders them (``mkdocs serve``
        re-renders a page whose digest changed).  What they report is kept for
        ``report_digested``; the results stay in the engine's memo for the render."""
        found: list[diag.Diagnostic] = []
        saved = self.report, self.host, self.rendered, self._reported
        self.report, self.rendered, self._reported = found.append, set(), set()
        self._digesting = True
        try:
            with self.as_page(doc, doc.url or ""):
                if doc.kind == "base":  # a .base file's page: every view
                    blocks = [self.dashboards.base_page(doc, doc.url or "")]
                else:
                    page = (doc, doc.url or "", True)
                    self.host = lambda: page
                    md = Markdown(extensions=[QueryExtension(self)])
                    body = read_text(doc.path)[doc.parsed.body_offset:]
                    md.preprocessors["bb_queries"].run(body.split("\n"))
                    blocks = md.htmlStash.rawHtmlBlocks
        finally:
            self.report, self.host, self.rendered, self._reported = saved
            self._digesting = False
        self.digested[doc.path] = found
        made = hashlib.blake2b(digest_size=16)
        for block in blocks:
            made.update(str(block).encode("utf-8", "surrogatepass"))
            made.update(b"\0")
        return made.hexdigest()

    def once(self, key: tuple[Any, ...], make: Callable[[], Markup]) -> Markup:
        """The HTML of the block ``key`` (its page, place and text): made by ``make``, or
        the one ``digest`` made for this build (its diagnostics are reported by
        ``report_digested``)."""
        found = self.blocks.get(key)
        if found is None:
            found = make()
            if self._digesting:
                self.blocks[key] = found
        return found

    def report_digested(self) -> None:
        """Report what ``digest`` found (each diagnostic once: a page rendered again
        reported it already)."""
        for found in self.digested.values():
            for one in found:
                self._report(one)
        self.digested = {}

    def release(self) -> None:
        """Let the database go when the build's pages are done, not at a later garbage
        collection: each database maps a large reserve of memory, and a process that
        builds many times (``mkdocs serve``, the tests) ran out of address space while
        the plugins of past builds, in reference cycles, waited to be collected."""
        self._engine = None
        self.blocks = {}
        if self._dashboards is not None:
            self._dashboards.release()

    def query_note(self, key: str) -> Document | None:
        """The Query note whose id, bid or title (any case) is ``key``."""
        if self._queries is None:
            self._queries = {}
            for doc in self.compiled.published.values():
                if query_text(doc) is None:
                    continue
                for name in (doc.title.casefold(), doc.bid, doc.id):
                    if name:
                        self._queries.setdefault(name.casefold(), doc)
        return self._queries.get(key.strip().casefold())

    def render(self, text: str, view: str | None, doc: Document, line: int,
               page_url: str, inline: bool = False) -> Markup:
        """``text``'s result through its view, or an error box (and ``query-error``);
        ``inline``: the result stands in a line of text (a view may render a phrase)."""
        return self.once(("query", text, view, doc.path, line, page_url, inline),
                         lambda: self._render(text, view, doc, line, page_url, inline))

    def _render(self, text: str, view: str | None, doc: Document, line: int,
                page_url: str, inline: bool) -> Markup:
        engine = self.engine
        result = engine.run(text)
        for found in engine.diagnostics:
            self._report(found)
        if result.error is not None:
            # the box's title already says the query failed
            return self.fail(f"the query failed: {result.error}", text, doc, line,
                             shown=result.error)
        try:
            name = self.views.choose(view, result)
            # under serve, the same result through the same view is the same HTML (a
            # link written in a value is resolved by the compile: not then)
            kept = self.kept_data if not _holds_wikilink(result.rows) else None
            key = (text, name, doc.path, line, page_url, inline, self.views.fingerprint())
            html = kept.cypher_shown(key, result) if kept is not None else None
            if html is None:
                html = self.views.render(name, result, page_url,
                                         lambda inner, path: self.find_link(inner, path, doc),
                                         inline=inline)
                if kept is not None:
                    kept.keep_cypher(key, result, html)
            return html
        except ViewError as error:
            return self.fail(str(error), text, doc, line)

    def find_link(self, inner: str, path: str | None, host: Document) -> LinkTarget:
        """Where the wikilink ``[[inner]]`` leads, resolved as the note at ``path`` wrote
        it (a frontmatter value), else as ``host``, the page showing the result."""
        target, fragment, display = split_wikilink(inner)
        docs = self.compiled.documents
        source = docs.get(SrcPath(path)) if path is not None else None
        source = source if source is not None and source.published else host
        link = LinkRef("wikilink", target, fragment, display, 0, 0, "links_to")
        resolver = self.compiled.link_resolver
        found = (resolver.resolve_one(link, source)
                 if resolver is not None and source.published
                 else ResolvedLink(link, source.path, "unresolved"))
        text = link_text(found, docs)
        if found.status != "ok" or found.target is None:
            reason = {"unpublished": "not published", "escape": "outside the docs"}.get(
                found.status, "no such note")
            return LinkTarget(None, text, f"{unresolved_text(link)} ({reason})")
        url = asset_url(found.target) if found.is_asset else (docs[found.target].url or "")
        return LinkTarget(url + (f"#{found.anchor}" if found.anchor else ""), text)

    def fail(self, message: str, text: str | None, doc: Document, line: int,
             shown: str | None = None) -> Markup:
        """Report ``query-error`` with ``message``; the error box shows ``shown`` (else the
        message)."""
        self._report(diag.make("query-error", self.compiled.options.display(doc.path), line, 1,
                               message))
        return self.views.error_box(shown or message, text)

    def unrendered_diagnostics(self, read_text: Callable[[SrcPath], str]) -> (
        list[diag.Diagnostic]
    ):
        """The ``query-error`` diagnostics of pages another process converted.

        The markdown_offload worker's log lines are replayed here, but its
        diagnostics stay in the worker: this finds them again (the queries of
        those pages run here too, once), without logging them a second time.
        """
        found: list[diag.Diagnostic] = []
        report, host = self.report, self.host
        self.report = found.append
        try:
            for path in sorted(pages_with_queries(self.compiled, read_text) - self.rendered):
                if path in self.digested:  # ran before the pages (``digest``)
                    for one in self.digested[path]:
                        self._report(one)
                    continue
                doc = self.compiled.documents[path]
                if doc.kind == "base":  # a .base file's page: every view
                    self.dashboards.base_page(doc, doc.url or "")
                    continue
                page = (doc, doc.url or "", True)
                self.host = lambda page=page: page  # type: ignore[misc]
                md = Markdown(extensions=[QueryExtension(self)])
                body = read_text(path)[doc.parsed.body_offset:]
                md.preprocessors["bb_queries"].run(body.split("\n"))
        finally:
            self.report, self.host = report, host
        return found

    def _report(self, found: diag.Diagnostic) -> None:
        if found not in self._reported:
            self._reported.add(found)
            self.report(found)


def build_site(compiled: Compiled, renderer: PageRenderer, views: Views,
               report: Callable[[diag.Diagnostic], None], timeout: float,
               max_rows: int) -> QuerySite:
    """The ``QuerySite`` of one build: the page being rendered comes from ``renderer``."""

    def host() -> Host | None:
        frames = renderer.frames
        if not frames:
            return None
        return frames[-1].doc, frames[0].host_url, len(frames) == 1

    return QuerySite(compiled, views, host, report, timeout, max_rows,
                     read_text=renderer.read_text, render_lines=line_renderer(renderer))


def page_query_diagnostics(compiled: Compiled, views: Views,
                           read_text: Callable[[SrcPath], str], timeout: float,
                           max_rows: int) -> list[diag.Diagnostic]:
    """What the page queries of ``compiled`` report, without building a page:
    ``beliefbase check`` runs every query fence, ``{{query:…}}`` embed, Query page and
    type page through the same preprocessor as the build (``QueryBlocks``), so both
    report the same ``query-error`` and ``query-property-*`` diagnostics."""
    site = QuerySite(compiled, views, lambda: None, lambda _found: None, timeout, max_rows,
                     read_text=read_text)
    try:
        return site.unrendered_diagnostics(read_text)
    finally:
        site.release()


def pages_with_queries(compiled: Compiled, read_text: Callable[[SrcPath], str],
                       known: dict[SrcPath, tuple[str, bool]] | None = None) -> set[SrcPath]:
    """Every published note whose page shows a query result (or may: a superset).

    Under ``mkdocs serve`` each save digests their results (``QuerySite.digest``,
    ``query_pages.py``) and renders again those whose digest changed.
    ``known``: each note's answer by its content's digest, kept between rebuilds
    (updated here), so only the notes edited since are read again.
    """
    found: set[SrcPath] = set()
    now: dict[SrcPath, tuple[str, bool]] = {}
    for path, doc in compiled.published.items():
        if doc.kind in ("toml", "canvas"):
            continue
        if doc.schema in (QUERY_SCHEMA, NODE_TYPE) or doc.kind == "base":
            found.add(path)
            continue
        digest = doc.parsed.digest
        last = known.get(path) if known is not None else None
        if last is not None and last[0] == digest:
            shows = last[1]
        else:
            text = read_text(path)
            shows = ("query" in text and _MAYBE_QUERY.search(text) is not None  # substring: C
                     or maybe_dashboard(text))
        now[path] = (digest, shows)
        if shows:
            found.add(path)
    if known is not None:
        known.clear()
        known.update(now)
    return found


def dashboard_fences(text: str) -> Iterator[re.Match[str]]:
    """The info strings of ``text``'s fences of a base or a Dataview query (``kind``,
    and ``js`` for DataviewJS), fence by fence (a superset: code is not masked)."""
    for mark in ("```", "~~~"):
        at = text.find(mark)
        while at >= 0:
            end = at + 3
            while end < len(text) and text[end] == mark[0]:
                end += 1
            m = _FENCE_INFO.match(text, end)
            if m is not None and _FENCE_LEAD.fullmatch(text, text.rfind("\n", 0, at) + 1, at):
                yield m
            at = text.find(mark, end)


def _holds_wikilink(value: Any) -> bool:
    """Does a result hold a text with a ``[[wikilink]]`` (which a view resolves)?"""
    if isinstance(value, str):
        return "[[" in value
    if isinstance(value, tuple | list):
        return any(_holds_wikilink(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_wikilink(k) or _holds_wikilink(v) for k, v in value.items())
    return False


def names_a_base(text: str) -> bool:
    """Does ``text`` name a ``.base`` file (an embed or a link)?"""
    return (".base" in text or ".Base" in text or ".BASE" in text) \
        and _BASE_FILE.search(text) is not None


def dashboard_kinds(text: str) -> frozenset[str]:
    """What ``text`` may hold (a superset): ``"base"`` (a base fence, a ``.base`` file
    named), ``"dataview"`` (a DQL fence, an inline `` `= expr` ``), ``"dataviewjs"``."""
    kinds = {m["kind"].lower() + (m["js"] or "").lower() for m in dashboard_fences(text)}
    if "=" in text and "`" in text and _INLINE_QUERY_START.search(text) is not None:
        kinds.add("dataview")
    if names_a_base(text):
        kinds.add("base")
    return frozenset(kinds)


def maybe_dashboard(text: str) -> bool:
    """May ``text`` hold a base, a Dataview query or an embed of a base (a superset)?"""
    return bool(dashboard_kinds(text))


def needed_data(compiled: Compiled, read_text: Callable[[SrcPath], str]) -> frozenset[str]:
    """Which engines' data the published pages' blocks may need: ``"base"`` or
    ``"dataview"`` (DataviewJS is shown, never run); a superset, as ``dashboard_kinds``."""
    wanted: set[str] = set()
    for path, doc in compiled.published.items():
        if doc.kind == "base":
            wanted.add("base")
        elif doc.kind == "markdown":
            wanted |= dashboard_kinds(read_text(path)) & {"base", "dataview"}
        if len(wanted) == 2:
            break
    return frozenset(wanted)


def query_text(doc: Document) -> str | None:
    """The Cypher text of a Query note (None for any other document)."""
    if doc.schema != QUERY_SCHEMA:
        return None
    text = doc.meta.get("query")
    return text if isinstance(text, str) and text.strip() else None


class QueryBlocks(Preprocessor):
    """Replaces query fences and embeds by their results (see the module doc)."""

    def __init__(self, md: Markdown, extension: QueryExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        site = self.extension.site
        host = site.host() if site is not None else None
        if site is None or host is None:
            return lines
        doc, page_url, is_page = host
        if is_page:
            site.rendered.add(doc.path)
        own = query_text(doc) if is_page else None
        node_type = is_page and doc.schema == NODE_TYPE
        # one substring search over the joined text: a generator over the lines cost
        # about twice as much on every page without a query
        text = "\n".join(lines)
        dashboards = maybe_dashboard(text)
        if own is None and not node_type and "query" not in text and not dashboards:
            return lines  # the common case: nothing to do, nothing changed
        first = doc.parsed.body_line if is_page else 1
        lines = self._embeds(lines, site, doc, page_url, first)
        lines = self._fences(lines, site, doc, page_url, first)
        if dashboards and "=" in text:
            lines = self._inline(lines, site, doc, page_url, first)
        if own is not None:
            lines += self._query_page(own, site, doc, page_url)
        if node_type:
            lines += self._instances(site, doc, page_url)
        return lines

    def _instances(self, site: QuerySite, doc: Document, page_url: str) -> list[str]:
        """A type page lists the nodes of its type (a built-in query)."""
        name = doc.meta.get("name")
        name = name.strip() if isinstance(name, str) and name.strip() else doc.title
        result = site.engine.run(f"MATCH (n:{quote_name(name)}) RETURN n ORDER BY n.title")
        if result.error is not None:  # no note of this type: no table of that label
            result = QueryResult()
        html = site.views.own_template("query-instances.html", type_name=name,
                                       result=site.views.render("list", result, page_url))
        return ["", self.md.htmlStash.store(html), "", ""]

    def _embeds(self, lines: list[str], site: QuerySite, doc: Document, page_url: str,
                first: int) -> list[str]:
        text = "\n".join(lines)
        if "{{" not in text:
            return lines
        regions = code_regions(text)
        out: list[str] = []
        end = 0
        for m in _EMBED.finditer(text):
            if any(a <= m.start() < b for a, b in regions):
                continue
            line = first + text.count("\n", 0, m.start())
            start = text.rfind("\n", 0, m.start()) + 1
            stop = text.find("\n", m.end())
            inline = not (_LINE_LEAD.fullmatch(text, start, m.start())
                          and not text[m.end():stop if stop >= 0 else len(text)].strip())
            out += [text[end:m.start()], self._embed(m, site, doc, page_url, line, inline)]
            end = m.end()
        if not out:
            return lines
        out.append(text[end:])
        return "".join(out).split("\n")

    def _embed(self, m: re.Match[str], site: QuerySite, doc: Document, page_url: str,
               line: int, inline: bool) -> str:
        key, view = m.group("id"), m.group("view")
        note = site.query_note(key)
        if note is None:
            html = site.fail(f"no Query note has the id, bid or title {key!r} (a Query note "
                             "is a page with `schema: Query` and a `query:` field)",
                             None, doc, line)
        else:
            text = query_text(note) or ""
            html = site.render(text, view or _string(note.meta.get("view")), doc, line,
                               page_url, inline)
        return str(self.md.htmlStash.store(html))

    def _fences(self, lines: list[str], site: QuerySite, doc: Document, page_url: str,
                first: int) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            fence = _open_fence(lines, i)
            if fence is None:
                out.append(lines[i])
                i += 1
                continue
            body, end = fence.body(lines, i)
            info = fence.info.strip()
            word = info.split(maxsplit=1)[:1]
            if word and word[0].lower() in DASHBOARD_FENCES:
                html = self._dashboard(word[0].lower(), "\n".join(body), site, doc,
                                       first + i, len(fence.prefix), page_url)
                out += fence.placeholder(str(self.md.htmlStash.store(html)), out,
                                         lines[end] if end < len(lines) else None)
            elif word != ["query"]:
                out += lines[i:end]  # any other fence: code, left to the fence processor
            else:
                view = _FENCE_VIEW.search(info)
                html = site.render("\n".join(body), view["view"] if view else None,
                                   doc, first + i, page_url)
                out += fence.placeholder(str(self.md.htmlStash.store(html)), out,
                                         lines[end] if end < len(lines) else None)
            i = end
        return out

    @staticmethod
    def _dashboard(kind: str, body: str, site: QuerySite, doc: Document, line: int,
                   indent: int, page_url: str) -> Markup:
        """A base, dataview or dataviewjs fence opened at file line ``line``."""
        return site.once((kind, body, doc.path, line, indent, page_url),
                         lambda: QueryBlocks._dashboard_html(kind, body, site, doc, line,
                                                             indent, page_url))

    @staticmethod
    def _dashboard_html(kind: str, body: str, site: QuerySite, doc: Document, line: int,
                        indent: int, page_url: str) -> Markup:
        boards = site.dashboards
        if kind == "base":
            return boards.base_block(body, doc, line + 1, page_url)
        if kind == "dataview":
            return boards.dataview_block(body, doc, line + 1, indent, page_url)
        return boards.javascript(body, doc, line, 1 + indent, inline=False)

    def _inline(self, lines: list[str], site: QuerySite, doc: Document, page_url: str,
                first: int) -> list[str]:
        """Inline `` `= expr` `` and `` `$= js` `` code spans, outside code blocks."""
        text = "\n".join(lines)
        out: list[str] = []
        end = 0
        for start, stop in code_regions(text):  # code spans, blocks, comments, math
            m = _INLINE.fullmatch(text, start, stop) if text[start] == "`" else None
            if m is None or not m["expr"].strip():
                continue  # a code block, or a code span that is not a query
            line = first + text.count("\n", 0, m.start())
            column = m.start() - text.rfind("\n", 0, m.start())
            expr = m["expr"].strip()
            if m["js"]:
                html = site.dashboards.javascript(expr, doc, line, column, inline=True)
            else:
                html = site.dashboards.inline(expr, doc, line, column + m.start("expr")
                                              - m.start() - 1, page_url)
            out += [text[end:m.start()], self.md.htmlStash.store(html)]
            end = m.end()
        if not out:
            return lines
        out.append(text[end:])
        return "".join(out).split("\n")

    def _query_page(self, text: str, site: QuerySite, doc: Document,
                    page_url: str) -> list[str]:
        line = doc.parsed.meta_lines.get("query", 1)
        html = site.render(text, _string(doc.meta.get("view")), doc, line, page_url)
        fence = "`" * max(3, _longest_backtick_run(text) + 1)
        return ["", "", f"{fence}cypher", *text.strip("\n").split("\n"), fence, "",
                self.md.htmlStash.store(site.views.query_page(text, html)), "", ""]


@dataclass(frozen=True)
class _Fence:
    """A fence opening: at the top level, or inside quotes (``depth`` markers, as
    in a callout) and list items (``indent`` spaces of the item's content)."""

    prefix: str  # the opening line up to the fence: quote markers and indentation
    depth: int
    indent: int
    chars: str
    info: str
    top: bool  # at the top level (of the page, or of its quote)

    def body(self, lines: list[str], i: int) -> tuple[list[str], int]:
        """The fence's content lines (prefixes removed) and the index after its end:
        its closing line, else where its quote or list item ends (CommonMark), else
        the end of the page."""
        close = re.compile(rf"^ {{0,3}}{re.escape(self.chars[0])}{{{len(self.chars)},}}[ \t]*$")
        body: list[str] = []
        for j in range(i + 1, len(lines)):
            line = _inside(lines[j], self.depth, self.indent, self.top)
            if line is None:
                return body, j
            if close.match(line):
                return body, j + 1
            body.append(line)
        return body, len(lines)

    def placeholder(self, stashed: str, before: list[str], after: str | None) -> list[str]:
        """The lines that stand for the fence: the stash placeholder as a block of
        its own in the fence's container."""
        if self.depth == 0:
            if self.top:
                return ["", stashed, "", ""]
            # in its list item, at its indent, a paragraph of its own (a <div> in a <p>
            # would not be replaced as a block)
            return ["", " " * len(self.prefix) + stashed, *([""] if after and after.strip()
                                                            else [])]
        # In a quote the result must be a block of its own, not inside a <p>: a blank
        # quote line before it, and after it only when the quote goes on (a trailing
        # one leaves a newline in the placeholder's paragraph, which then is not
        # replaced).
        lead = ">" * self.depth
        previous = _inside(before[-1], self.depth, 0, True) if before else None
        following = _inside(after, self.depth, 0, True) if after is not None else None
        return [*([lead] if previous and previous.strip() else []),
                self.prefix + stashed,
                *([lead] if following and following.strip() else [])]


def _open_fence(lines: list[str], i: int) -> _Fence | None:
    """The fence line ``i`` opens (None: not a fence, or indented code)."""
    m = _FENCE_OPEN.match(lines[i])
    if m is None or (m["fence"][0] == "`" and "`" in m["info"]):
        return None  # not a fence: a code span such as ```x```
    prefix = m["prefix"]
    depth = prefix.count(">")
    indent = len(_inside(prefix, depth, 0, True) or "")
    if depth and indent:
        # the quote's lines above, as a page of their own: a list item's fence or code?
        inner: list[str] = []
        for line in reversed(lines[:i]):
            stripped = _inside(line, depth, 0, True)
            if stripped is None:
                break
            inner.append(stripped)
        in_list = _in_list(inner[::-1], len(inner), indent)
    else:
        in_list = indent > 0 and _in_list(lines, i, indent)
    if not in_list and indent > 3:
        return None  # indented code
    return _Fence(prefix, depth, indent, m["fence"], m["info"], top=not in_list)


def _in_list(lines: list[str], i: int, indent: int) -> bool:
    """Is a line at index ``i`` indented ``indent`` spaces inside a list item above it?"""
    for k in range(i - 1, -1, -1):
        line = lines[k]
        if not line.strip():
            continue
        if len(line) - len(line.lstrip(" ")) < indent:
            return _LIST_ITEM.match(line) is not None
    return False


def _inside(line: str, depth: int, indent: int, top: bool) -> str | None:
    """``line`` without ``depth`` quote markers and up to ``indent`` spaces; None when
    it is not inside that quote (a missing marker) or list item (less indented)."""
    for _ in range(depth):
        m = _QUOTE_MARK.match(line)
        if m is None:
            return None
        line = line[m.end():]
    spaces = len(line) - len(line.lstrip(" "))
    if not top and line.strip() and spaces < indent:
        return None
    return line[min(spaces, indent):]


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


class QueryExtension(Extension):
    """Registers ``QueryBlocks``; ``site``: the build's ``QuerySite``."""

    def __init__(self, site: QuerySite | None = None, **kwargs: object) -> None:
        self.site = site
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown API
        # before fenced_code and superfences (25) and normalize_whitespace's successors
        md.preprocessors.register(QueryBlocks(md, self), "bb_queries", 28)

"""Queries in pages (SPEC §8): ``{{query:ID | view:NAME}}``, ```` ```query ```` fences and
Query pages, rendered at build time through a view.

A Python-Markdown preprocessor, run before any fence processor (``fenced_code``
or ``pymdownx.superfences``) so that it sees the fences as written:

* a fence whose info string starts with ``query`` (``view=NAME`` optional) at the
  top level of the page is replaced by its result; a ``query`` fence inside
  another fence, and every other fence, is left alone;
* ``{{query:ID}}`` / ``{{query:ID | view:NAME}}`` outside code (fences, indented
  code, code spans, HTML comments) is replaced by the result of the Query note
  whose id, bid or title is ``ID``; ``\\{{query:…}}`` stays text;
* the page of a Query note (``schema: Query`` with a ``query:`` field) gets the
  query, highlighted, and its live result after its text.

Results are stashed HTML (``htmlStash``): Markdown never parses a view's output.
A failing query or view renders an error box in place and reports
``query-error`` at the page's file and line; the page and the build go on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markupsafe import Markup

from ... import diagnostics as diag
from ...builder.compiled import Compiled
from ...builder.documents import Document
from ...codecs.grammar import QUERY_EMBED as _EMBED
from ...codecs.grammar import QUERY_FENCE_VIEW as _FENCE_VIEW
from ...codecs.mask import code_regions
from ...ids import SrcPath
from ...query.load import quote_name
from ...query.run import QueryEngine, QueryResult
from ...query.schema import NODE_TYPE
from ...query.source import graph_of
from ..query_views import ViewError, Views
from ..render import PageRenderer

#: The schema of a Query node, and its field holding the Cypher text.
QUERY_SCHEMA = "Query"
# A fence opening at the top level (up to 3 spaces): its characters and info string.
_FENCE_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")
# A line that may hold a query: an embed or a query fence (a superset: for --dirty).
_MAYBE_QUERY = re.compile(r"\{\{\s*query\s*:|^[ \t>]*(?:`{3,}|~{3,})\s*query", re.MULTILINE)
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
    _engine: QueryEngine | None = None
    _reported: set[diag.Diagnostic] = field(default_factory=set)
    #: pages whose Markdown this process converted (not the markdown_offload worker)
    rendered: set[SrcPath] = field(default_factory=set)
    _queries: dict[str, Document] | None = None

    @property
    def engine(self) -> QueryEngine:
        """Made on the first query: a build without one loads no database."""
        if self._engine is None:
            self._engine = QueryEngine(graph_of(self.compiled), timeout=self.timeout,
                                       max_rows=self.max_rows,
                                       display=self.compiled.options.display)
        return self._engine

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
               page_url: str) -> Markup:
        """``text``'s result through its view, or an error box (and ``query-error``)."""
        engine = self.engine
        result = engine.run(text)
        for found in engine.diagnostics:
            self._report(found)
        if result.error is not None:
            return self.fail(f"the query failed: {result.error}", text, doc, line)
        try:
            return self.views.render(self.views.choose(view, result), result, page_url)
        except ViewError as error:
            return self.fail(str(error), text, doc, line)

    def fail(self, message: str, text: str | None, doc: Document, line: int) -> Markup:
        self._report(diag.make("query-error", self.compiled.options.display(doc.path), line, 1,
                               message))
        return self.views.error_box(message, text)

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
                doc = self.compiled.documents[path]
                page = (doc, doc.url or "", True)
                self.host = lambda page=page: page  # type: ignore[misc]
                extension = QueryExtension()
                extension.site = self
                md = Markdown(extensions=[extension])
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

    return QuerySite(compiled, views, host, report, timeout, max_rows)


def pages_with_queries(compiled: Compiled, read_text: Callable[[SrcPath], str]) -> (
    set[SrcPath]
):
    """Every published note whose page shows a query result (or may: a superset).

    ``mkdocs serve --dirty`` re-renders them all after any change: the simplest
    rule that is always right, since any change to the graph may change a result.
    """
    found: set[SrcPath] = set()
    for path, doc in compiled.published.items():
        if doc.kind == "toml":
            continue
        if doc.schema in (QUERY_SCHEMA, NODE_TYPE) or _MAYBE_QUERY.search(read_text(path)):
            found.add(path)
    return found


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
        if own is None and not node_type and "query" not in "\n".join(lines):
            return lines  # the common case: nothing to do, nothing changed
        first = doc.parsed.body_line if is_page else 1
        lines = self._embeds(lines, site, doc, page_url, first)
        lines = self._fences(lines, site, doc, page_url, first)
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
            out += [text[end:m.start()], self._embed(m, site, doc, page_url, line)]
            end = m.end()
        if not out:
            return lines
        out.append(text[end:])
        return "".join(out).split("\n")

    def _embed(self, m: re.Match[str], site: QuerySite, doc: Document, page_url: str,
               line: int) -> str:
        key, view = m.group("id"), m.group("view")
        note = site.query_note(key)
        if note is None:
            html = site.fail(f"no Query note has the id, bid or title {key!r} (a Query note "
                             "is a page with `schema: Query` and a `query:` field)",
                             None, doc, line)
        else:
            text = query_text(note) or ""
            html = site.render(text, view or _string(note.meta.get("view")), doc, line,
                               page_url)
        return str(self.md.htmlStash.store(html))

    def _fences(self, lines: list[str], site: QuerySite, doc: Document, page_url: str,
                first: int) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            opening = _FENCE_OPEN.match(lines[i])
            if opening is None or (opening["fence"][0] == "`" and "`" in opening["info"]):
                out.append(lines[i])
                i += 1
                continue
            fence = opening["fence"]
            close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            j = i + 1
            while j < len(lines) and close.match(lines[j]) is None:
                j += 1
            info = opening["info"].strip()
            if info.split(maxsplit=1)[:1] != ["query"]:
                out += lines[i:j + 1]  # any other fence: code, left to the fence processor
            else:
                view = _FENCE_VIEW.search(info)
                html = site.render("\n".join(lines[i + 1:j]), view["view"] if view else None,
                                   doc, first + i, page_url)
                out += ["", self.md.htmlStash.store(html), "", ""]
            i = j + 1
        return out

    def _query_page(self, text: str, site: QuerySite, doc: Document,
                    page_url: str) -> list[str]:
        line = doc.parsed.meta_lines.get("query", 1)
        html = site.render(text, _string(doc.meta.get("view")), doc, line, page_url)
        fence = "`" * max(3, _longest_backtick_run(text) + 1)
        return ["", "", f"{fence}cypher", *text.strip("\n").split("\n"), fence, "",
                self.md.htmlStash.store(site.views.query_page(text, html)), "", ""]


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


class QueryExtension(Extension):
    """Registers ``QueryBlocks``; the plugin gives it a ``QuerySite`` per build."""

    def __init__(self, **kwargs: object) -> None:
        self.site: QuerySite | None = None
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown API
        # before fenced_code and superfences (25) and normalize_whitespace's successors
        md.preprocessors.register(QueryBlocks(md, self), "bb_queries", 28)

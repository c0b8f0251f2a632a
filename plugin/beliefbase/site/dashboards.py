"""Obsidian Bases and Dataview in pages (issue 27): the engines' results as HTML.

``Dashboards`` is one build's: it makes the engines' data once, on the first
block that needs it (a build without a base or a Dataview query makes none),
fixes ``now`` for the whole build, and renders

* a base (```` ```base ```` block, ``X.base`` page, ``![[X.base#View]]``) and a
  ```` ```dataview ```` query through the same Jinja views as Cypher queries
  (``table``, ``list``, ``cards``; ``tasks`` for ``TASK``), so a user view in
  ``views_dir`` restyles all of them;
* an inline `` `= expr` `` as its value;
* DataviewJS (```` ```dataviewjs ````, `` `$= …` ``) as code, collapsed, never run.

A failing base or query renders an error box in place (``dashboard-error.html``)
and reports ``base-error`` / ``dataview-error`` at the file line of the error;
the page and the build go on.  Every value is escaped by the engines'
``render_html`` / ``format_html`` before a view gets it.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from .. import bases
from .. import dataview as dv
from .. import diagnostics as diag
from ..bases.display import Href
from ..builder.documents import Document
from ..codecs.base import view_ids
from ..codecs.markdown import note_text
from ..compile.compiled import Compiled
from ..compile.vault_files import VaultFiles
from ..dataview.view import unique_headers
from ..ids import SrcPath, asset_url
from .dashboard_data import KeptDashboardData
from .markdown.obsidian_markdown import STATUS_NAMES
from .markdown.task_lines import LineRenderer
from .query_views import ViewError, Views, relative_href

#: Base layouts and Dataview kinds -> the view that renders them.
LAYOUT_VIEWS = {"table": "table", "cards": "cards", "list": "list", "task": "tasks",
                "calendar": "list"}


#: Material styles the tabs of a tabbed set up to this many (its CSS has a rule per tab);
#: a base with more views shows them one under another.
MAX_TABS = 20


def build_moment() -> dt.datetime:
    """The build's ``now`` (second precision, naive local time as Dataview and Bases
    read dates), or the moment of ``SOURCE_DATE_EPOCH`` (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).replace(tzinfo=None)
    return dt.datetime.now().replace(microsecond=0)


@dataclass
class Dashboards:
    """Bases and Dataview for the pages of one build (see the module doc)."""

    compiled: Compiled
    views: Views
    read_text: Callable[[SrcPath], str]
    report: Callable[[diag.Diagnostic], None]
    now: dt.datetime = field(default_factory=build_moment)
    #: a note's lines' inline Markdown as the note's page renders it, on the page being
    #: rendered (``line_renderer``); None (``beliefbase check``): tasks show as text
    render_lines: LineRenderer | None = None
    #: under ``mkdocs serve``, the last build's data, brought up to date here
    kept: KeptDashboardData | None = None
    _records: bases.RecordSet | None = None
    _index: dv.DataviewIndex | None = None
    _files: VaultFiles | None = None
    _reports: int = 0  # diagnostics reported so far (a block that reports is not kept)

    # -- data, made once ------------------------------------------------------------------

    @property
    def records(self) -> bases.RecordSet:
        """Every published file as Bases sees it (made on the first base)."""
        if self._records is None:
            self._records = bases.records_from_files(self.files) if self.kept is None \
                else self.kept.bases_records(self.files)
        return self._records

    @property
    def index(self) -> dv.DataviewIndex:
        """Every published note as Dataview sees it (made on the first query)."""
        if self._index is None:
            self._index = dv.index_from_files(self.files, self._note_text) \
                if self.kept is None else self.kept.dataview_index(self.files, self._note_text)
        return self._index

    def prepare(self, wanted: frozenset[str]) -> None:
        """Make the data of the engines ``wanted`` (``"base"``, ``"dataview"``) now."""
        if "base" in wanted:
            _ = self.records
        if "dataview" in wanted:
            _ = self.index

    @property
    def files(self) -> VaultFiles:
        """Every published file, one shared record each, for both engines (made on
        the first base or query): their links resolved once, by the compile."""
        if self._files is None:
            self._files = self.compiled.vault_files() if self.kept is None \
                else self.kept.vault_files(self.compiled)
        return self._files

    def _note_text(self, path: str) -> str:
        """A note's text as its codec read it, from the file: not the site's
        ``read_text``, which keeps every text it reads until the pages are done (a
        build whose pages a worker converts would keep all of them here)."""
        try:
            return note_text((Path(self.compiled.options.docs_dir) / path).read_bytes())[0]
        except OSError:
            return ""

    def release(self) -> None:
        if self._index is not None and self.kept is None:  # a kept one is the next build's
            self._index.release()
        if self.kept is not None:
            self.kept.build_done()
        self._records = None
        self._index = None
        self._files = None

    # -- links -----------------------------------------------------------------------------

    def _url_of(self, path: str | None) -> str | None:
        """The URL (from the site root) of the published document or asset at ``path``."""
        if path is None:
            return None
        # the document itself, not ``compiled.published``: that makes a new dict of
        # every document on each call, and a result renders a link per row
        doc = self.compiled.documents.get(SrcPath(path))
        if doc is not None and doc.published:
            return doc.url
        if path in self.compiled.assets:
            return asset_url(SrcPath(path))
        return None

    def base_href(self, page_url: str) -> Href:
        relative = relative_href(page_url)

        def href(link: bases.Link) -> str | None:
            if link.is_external:
                return link.target
            path = link.path
            if path is None:
                found = self.records.resolve(link.target)
                path = found.path if found is not None else None
            url = self._url_of(path)
            return relative(url) if url is not None else None

        return href

    def dataview_href(self, page_url: str) -> Callable[[dv.Link], str | None]:
        relative = relative_href(page_url)

        def href(link: dv.Link) -> str | None:
            url = self._url_of(link.path) or self._url_of(link.path + ".md")
            if url is None:
                return None
            anchor = (link.subpath or "").lstrip("#^")
            return relative(url) + (f"#{anchor}" if anchor and link.kind == "header"
                                    else "")

        return href

    # -- Bases -----------------------------------------------------------------------------

    def parse(self, text: str, doc: Document, first_line: int) -> bases.Base:
        display = self.compiled.options.display(doc.path)
        if self.kept is not None:
            return self.kept.parsed_base(text, display, first_line)
        return bases.parse_base(text, display, first_line=first_line)

    def base_view(self, base: bases.Base, view_name: str | None, this: Document | None,
                  page_url: str, where: Document, line: int, source: str | None = None) -> Markup:
        """One view of ``base`` (None: its first), ``this`` the note showing it;
        ``where``/``line``: the place errors without a line of their own are reported at.
        ``source``: the base's text; under ``mkdocs serve`` the view's HTML of the last
        build is shown again when nothing it showed can have changed
        (``KeptDashboardData.base_shown``)."""
        if base.ok and view_name is not None and base.view(view_name) is None:
            names = ", ".join(repr(v.name) for v in base.views) or "none"
            message = f"{base.path} has no view named {view_name!r} (its views: {names})"
            self._report(bases.BASE_ERROR, where, line, 1, message)
            return self.error_box("Base failed", message, None)
        this_record = self.records.by_path.get(this.path) if this is not None else None
        key = None
        if self.kept is not None and source is not None and base.ok and not base.errors:
            key = (source, base.path, view_name, this.path if this is not None else None,
                   page_url, where.path, line, self.views_key)
            shown = self.kept.base_shown(key, base, view_name, self.records, this_record,
                                         self.now)
            if shown is not None:
                return shown
        reads = bases.Reads() if key is not None else None
        reported = self._reports
        try:
            result = bases.evaluate(base, view_name, self.records, this_record, now=self.now,
                                    reads=reads)
        except Exception as error:  # noqa: BLE001 - an engine bug: the page goes on
            return self._failed(bases.BASE_ERROR, where, line, error, "Base failed", None)
        html = self._base_html(base, view_name, result, page_url, where, line)
        if self.kept is not None and key is not None and reads is not None \
                and not result.errors and self._reports == reported:
            self.kept.keep_base(key, html, reads, self.records, this_record, self.now)
        return html

    def _base_html(self, base: bases.Base, view_name: str | None, result: bases.ViewResult,
                   page_url: str, where: Document, line: int) -> Markup:
        errors = [e for e in result.errors if e.level == "error"]
        for found in result.errors:
            self._report(found.code, where, found.line or line, found.column, found.message,
                         found.path)
        if not base.ok or result.view is None and view_name is not None:
            return self.error_box("Base failed", "; ".join(e.message for e in errors) or
                                  "the base has no view to show", None)
        context = _base_context(result, self.base_href(page_url), base)
        return self._render(LAYOUT_VIEWS.get(context.pop("layout"), "table"), context,
                            "Base failed", where, line, "base-error")

    def base_block(self, text: str, doc: Document, first_line: int, page_url: str) -> Markup:
        """A ```` ```base ```` block: its first view."""
        return self.base_view(self.parse(text, doc, first_line), None, doc, page_url, doc,
                              first_line, source=text)

    @property
    def views_key(self) -> tuple[object, ...]:
        """The views' ``fingerprint`` (read once a build)."""
        return self.views.fingerprint()

    def base_page(self, doc: Document, page_url: str) -> Markup:
        """A ``.base`` file's page: every view, as Obsidian shows them one at a time
        with a switcher: tabs labelled with the views' names, the first selected
        (``base-page.html``); one view shows without a tab bar."""
        text = self.read_text(doc.path)
        base = self.parse(text, doc, 1)
        if not base.ok or not base.views:
            return self.base_view(base, None, doc, page_url, doc, 1)
        ids = view_ids([view.name for view in base.views])
        sections = [{"name": view.name or f"View {index}", "named": bool(view.name),
                     "id": ids[index - 1],
                     "html": self.base_view(base, view.name, doc, page_url, doc, view.line,
                                            source=text)}
                    for index, view in enumerate(base.views, 1)]
        return self.views.own_template("base-page.html", sections=sections,
                                       tabs=1 < len(sections) <= MAX_TABS)

    def base_embed(self, doc: Document, view_name: str | None, host: Document,
                   page_url: str, line: int) -> Markup:
        """``![[X.base]]`` / ``![[X.base#View]]`` in ``host``: that view, ``this`` = host."""
        text = self.read_text(doc.path)
        base = self.parse(text, doc, 1)
        return self.base_view(base, view_name or None, host, page_url, host, line,
                              source=text)

    # -- Dataview ------------------------------------------------------------------------

    def dataview_block(self, text: str, doc: Document, first_line: int, indent: int,
                       page_url: str) -> Markup:
        """A ```` ```dataview ```` block (``first_line``: the file line of its query's first
        line, each indented ``indent`` columns)."""
        key = None
        if self.kept is not None:
            key = ("dataview", text, doc.path, first_line, indent, page_url, self.views_key)
            shown = self.kept.dataview_shown(key, self.index, doc.path, self.now)
            if shown is not None:
                return shown
        reads = dv.Reads() if key is not None else None
        reported = self._reports
        try:
            result = dv.run(text, self.index, doc.path, now=self.now, reads=reads)
        except dv.DataviewError as error:
            line, column = error.located(first_line, indent)
            self._report(dv.DATAVIEW_ERROR, doc, line, column, error.message)
            return self.error_box("Dataview query failed", str(error.message), text)
        except Exception as error:  # noqa: BLE001 - an engine bug: the page goes on
            return self._failed(dv.DATAVIEW_ERROR, doc, first_line, error,
                                "Dataview query failed", text)
        context = dv.view_context(result, self.dataview_href(page_url))
        if result.kind == "task":
            context["task_groups"] = _task_groups(result, context["cell"],
                                                  self.dataview_href(page_url),
                                                  self.task_texts)
        elif result.kind in ("list", "calendar"):
            context["separator"] = ": "  # Dataview's "Dune: Herbert"
        html = self._render(LAYOUT_VIEWS.get(result.kind, "table"), context,
                            "Dataview query failed", doc, first_line, dv.DATAVIEW_ERROR)
        # a TASK list's texts render as their notes' pages do: never kept
        if self.kept is not None and key is not None and reads is not None \
                and result.kind in ("table", "list") and self._reports == reported:
            self.kept.keep_dataview(key, html, text, reads, self.index, doc.path, self.now)
        return html

    def inline(self, expr: str, doc: Document, line: int, column: int, page_url: str) -> Markup:
        """`` `= expr` ``: its value, in the sentence."""
        try:
            value = dv.evaluate_inline(expr, self.index, doc.path, now=self.now)
        except dv.DataviewError as error:
            at_line, at_column = error.located(line, column)
            self._report(dv.DATAVIEW_ERROR, doc, at_line, at_column, error.message)
            return Markup('<span class="bb-dashboard-error bb-dataview-inline-error" '
                          'title="{}"><code>= {}</code></span>').format(error.message, expr)
        except Exception as error:  # noqa: BLE001 - an engine bug: the page goes on
            self._failed(dv.DATAVIEW_ERROR, doc, line, error, "", None)
            return Markup('<span class="bb-dashboard-error bb-dataview-inline-error">'
                          '<code>= {}</code></span>').format(expr)
        return Markup('<span class="bb-dataview-inline">{}</span>').format(
            Markup(dv.format_html(value, self.dataview_href(page_url))))  # noqa: S704

    def javascript(self, code: str, doc: Document, line: int, column: int,
                   inline: bool) -> Markup:
        """DataviewJS, shown as code, never run; an info diagnostic."""
        shown = dv.not_run(code, inline=inline)
        self._report(shown.diagnostic_code, doc, line, column, shown.message)
        return self.views.own_template("dataview-js.html", code=shown.code, note=shown.note,
                                       inline=inline)

    def task_texts(self, path: str, items: list[dv.ListItem]) -> list[Markup]:
        """Tasks' texts as their note's page renders their lines (``render_lines``),
        else as text."""
        shown: list[Markup | None] = [None] * len(items)
        if self.render_lines is not None:
            shown = self.render_lines(SrcPath(path), [(i.line, i.text) for i in items])
        return [html if html is not None else escape(item.text)
                for html, item in zip(shown, items, strict=True)]

    # -- shared ----------------------------------------------------------------------------

    def error_box(self, title: str, message: str, source: str | None) -> Markup:
        return self.views.own_template("dashboard-error.html", title=title, message=message,
                                       source=source)

    def _failed(self, code: str, doc: Document, line: int, error: Exception, title: str,
                source: str | None) -> Markup:
        message = f"the engine failed ({type(error).__name__}: {error}); please report it"
        self._report(code, doc, line, 1, message)
        return self.error_box(title, message, source)

    def _render(self, view: str, context: dict[str, Any], title: str, doc: Document,
                line: int, code: str) -> Markup:
        note = context.get("note")
        try:
            html = self.views.render_with(view, context)
        except ViewError as error:
            self._report(code, doc, line, 1, str(error))
            return self.error_box(title, str(error), None)
        return self.views.own_template("dashboard.html", result=html, note=note)

    def _report(self, code: str, doc: Document, line: int, column: int, message: str,
                display: str | None = None) -> None:
        file = display or self.compiled.options.display(doc.path)
        self._reports += 1
        self.report(diag.make(code, file, max(line, 1), max(column, 1), message))


def _cell(value: Any, node: Any = None) -> Markup:
    """A view's ``cell``: the engines' values come as escaped HTML already."""
    if value is None:
        return Markup("")
    return value if isinstance(value, Markup) else escape(value)


#: Decimals a default summary's number shows (see ``summary_html``).
SUMMARY_DECIMALS = 3


def summary_number(value: float) -> str:
    """A default summary's number as shown: at most ``SUMMARY_DECIMALS`` decimals,
    rounded half away from zero on the number as written (``3.3333333333333335`` ->
    ``3.333``, ``2.0005`` -> ``2.001``), trailing zeros dropped, never an exponent."""
    if not math.isfinite(value) or abs(value) >= 1e21:
        return bases.format_value(value)
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-SUMMARY_DECIMALS),
                                             rounding=ROUND_HALF_UP)
    text = format(rounded.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def summary_html(summary: bases.Summary, custom: set[str], href: Href) -> Markup:
    """A summary's value: a default summary's fraction rounded (``summary_number``);
    a custom summary's value as its formula gives it (it rounds itself, as in
    ``values.mean().round(3)``)."""
    value = summary.value
    if (summary.name not in custom and isinstance(value, float)
            and not isinstance(value, bool)):
        return escape(summary_number(value))
    return bases.render_html(value, href)


def _base_context(result: bases.ViewResult, href: Href,
                  base: bases.Base | None = None) -> dict[str, Any]:
    """A base's result as the context of the Cypher views (``rows`` of ``{column:
    html}``, ``columns``) plus ``groups`` (label, rows, summaries per column),
    ``summaries`` (per column, or empty) and ``images`` (cards), ``note``."""
    data = bases.view_context(result, href)
    ids = [c["id"] for c in data["columns"]]
    columns = unique_headers([c["header"] for c in data["columns"]])

    def shown(column: str, html: Markup, row: dict[str, Any]) -> Markup | None:
        if column == "file.name":  # the file itself: its name, linking to its page
            name = row["title"]
            return Markup('<a class="bases-link" href="{}">{}</a>').format(
                row["url"], name) if row["url"] else escape(name)
        return html if str(html) else None

    def rows_of(group: dict[str, Any]) -> list[dict[str, Any]]:
        return [{name: shown(column, html, row)
                 for name, column, html in zip(columns, ids, row["cells"], strict=True)}
                for row in group["rows"]]

    def summary_row(summaries: tuple[bases.Summary, ...]) -> list[Markup]:
        if not summaries:
            return []
        by_column = {s.column: s for s in summaries}
        return [Markup('<span class="bb-summary-name">{}</span> {}').format(
            by_column[i].name, summary_html(by_column[i], custom, href))
            if i in by_column else Markup("") for i in ids]

    grouped = result.groups != ()
    custom = set(base.summaries) if base is not None else set()
    groups = [{"label": g["label_html"], "rows": rows_of(g),
               "summaries": summary_row(group.summaries) if group is not None else []}
              for g, group in zip(data["groups"], result.groups or (None,), strict=True)]
    return {
        "layout": data["layout"],
        "columns": columns,
        "rows": [row for g in groups for row in g["rows"]],
        "groups": groups if grouped else [],
        "summaries": summary_row(result.summaries),
        "images": [row["image"] if str(row["image"]) else None
                   for g in data["groups"] for row in g["rows"]],
        "note": data["note"],
        "cell": _cell,
    }


def _task_groups(result: dv.DataviewResult, cell: Callable[[Any], Markup],
                 href: Callable[[dv.Link], str | None],
                 texts_html: Callable[[str, list[dv.ListItem]], list[Markup]]
                 ) -> list[dict[str, Any]]:
    """TASK results for ``tasks.html``: groups (a label when grouped), each the notes
    its tasks are in (a link), each the tasks (``checked``, ``status``,
    ``status_name``, ``text``, ``children``), in the result's order; each note's
    task texts rendered at once."""
    by_note: dict[str, dict[int, dv.ListItem]] = {}

    def gather(item: dv.ListItem, path: str) -> None:
        by_note.setdefault(path, {})[item.line] = item
        for child in item.children:
            if child.task:
                gather(child, path)

    for group in result.tasks:
        for entry in group.tasks:
            gather(entry.item, entry.path)
    texts: dict[tuple[str, int], Markup] = {}
    for path, items in by_note.items():
        listed = list(items.values())
        texts.update(((path, i.line), html)
                     for i, html in zip(listed, texts_html(path, listed), strict=True))

    def task(item: dv.ListItem, path: str) -> dict[str, Any]:
        status = item.status or " "
        return {"checked": item.checked, "status": status,
                "status_name": None if status in " xX" else STATUS_NAMES.get(status, "other"),
                "text": texts[path, item.line], "line": item.line,
                "children": [task(c, path) for c in item.children if c.task]}

    out = []
    for group in result.tasks:
        files: list[dict[str, Any]] = []
        for entry in group.tasks:
            if not files or files[-1]["path"] != entry.path:
                files.append({"path": entry.path,
                              "link": Markup(dv.format_html(dv.Link(entry.path), href)),  # noqa: S704
                              "tasks": []})
            files[-1]["tasks"].append(task(entry.item, entry.path))
        out.append({"label": cell(group.key) if group.grouped else None, "files": files})
    return out

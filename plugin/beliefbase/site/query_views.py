"""Views (SPEC §8): Jinja templates that turn a query result into HTML.

Built-in views ship in ``theme/views/`` (``list``, ``table``, ``cards``, ``count``,
``timeline``), each made of documented blocks so that a user view in
``views_dir`` can ``{% extends "table.html" %}`` and override one.  Views come
from many writers, like notes: they render in Jinja's immutable sandbox with
autoescape on, so a view can neither reach Python internals nor let a hostile
frontmatter value through as markup.

Every view gets ``rows`` (a list of ``{column: value}``), ``columns``,
``nodes`` (the nodes, when the result is one column of nodes, else empty),
``is_nodes``, ``schema`` (the label the nodes share), ``inline`` (an embed in a
line of text rather than on a line of its own) and the helpers ``link(node)``
(its title linking to its page, relative to the current page), ``href(node)``,
``title(value)``, ``date(value, format)`` and ``cell(value, node)`` (any value as
HTML: nodes linked, lists joined, a ``"[[wikilink]]"`` text linked to the note it
names, as written in ``node`` or else in the page showing the result).  A view is
chosen by: the embed's ``view:`` -> the ``views`` option by the result's schema ->
``list`` for nodes, ``table`` for rows.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup, escape
from mkdocs.utils import get_relative_url

from ..query.run import QueryResult, is_node
from .templates import theme_dir

#: The views every site has.
BUILT_IN = ("list", "table", "cards", "count", "timeline")
#: The views only Bases and Dataview results use (``site/dashboards.py``): a TASK list.
RESULT_ONLY = ("tasks",)
#: Frontmatter fields a timeline orders by, the first a node has.
DATE_FIELDS = ("date", "due", "created", "start", "modified", "updated")
#: Columns every node has; cards show the others.
NODE_COLUMNS = ("label", "bid", "kind", "title", "path", "url", "tags", "aliases")
# A value that is one wikilink, as a frontmatter field holds a link: "[[Other note]]",
# "[[Other note#Part|shown]]".
_WIKILINK_VALUE = re.compile(r"^\[\[(?P<inner>[^\[\]\n]+)\]\]$")


@dataclass(frozen=True)
class LinkTarget:
    """Where a ``[[wikilink]]`` value leads: the target's URL from the site root (with
    its anchor), None when the link is broken (``why`` says how), and its text."""

    url: str | None
    text: str
    why: str = ""


#: Resolves a wikilink's inner text as the note at a docs-relative path wrote it
#: (None: the page showing the result).
FindLink = Callable[[str, str | None], LinkTarget]


class ViewError(Exception):
    """A view that does not exist or fails to render; the message says what to do."""


class Views:
    """The built-in views, the site's own, and the ``views`` map."""

    def __init__(self, views_dir: Path | None, default_views: dict[str, str]) -> None:
        loaders: list[jinja2.BaseLoader] = []
        self.user_views: set[str] = set()
        self.views_dir = views_dir
        self._fingerprint: tuple[object, ...] | None = None
        if views_dir is not None and views_dir.is_dir():
            loaders.append(jinja2.FileSystemLoader(str(views_dir)))
            self.user_views = {p.stem for p in views_dir.glob("*.html")}
        built_in = jinja2.FileSystemLoader(str(theme_dir() / "views"))
        loaders.append(built_in)
        # "builtin/table.html": a user's table.html restyles every table (Cypher, Bases,
        # Dataview) by extending the built-in one under this name
        loaders.append(jinja2.PrefixLoader({"builtin": built_in}))
        self.env = ImmutableSandboxedEnvironment(
            loader=jinja2.ChoiceLoader(loaders), autoescape=True, trim_blocks=True,
            lstrip_blocks=True, keep_trailing_newline=False)
        self.default_views = dict(default_views)
        self.own = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(theme_dir())), autoescape=True,
            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)

    def fingerprint(self) -> tuple[object, ...]:
        """What the views render with: the site's view files (each by name, size and
        time) and the ``views`` map; equal between two builds, the same result renders
        the same HTML (``dashboard_data``: a kept view's HTML).  Read once."""
        if self._fingerprint is None:
            self._fingerprint = self._read_fingerprint()
        return self._fingerprint

    def _read_fingerprint(self) -> tuple[object, ...]:
        files: list[tuple[str, int, int]] = []
        if self.views_dir is not None and self.views_dir.is_dir():
            for path in sorted(self.views_dir.rglob("*")):
                if path.is_file():
                    st = path.stat()
                    files.append((str(path), st.st_size, st.st_mtime_ns))
        return (str(self.views_dir), tuple(files), tuple(sorted(self.default_views.items())))

    def choose(self, explicit: str | None, result: QueryResult) -> str:
        """The view's name: explicit -> the ``views`` map by schema -> the default."""
        if explicit:
            return explicit
        schema = result.schema
        if schema is not None and schema in self.default_views:
            return self.default_views[schema]
        return "list" if result.is_nodes else "table"

    def render(self, name: str, result: QueryResult, page_url: str,
               find: FindLink | None = None, *, inline: bool = False) -> Markup:
        """``result`` through the view ``name``, links relative to ``page_url``;
        ``find`` resolves ``[[wikilink]]`` values (without it they are text);
        ``inline``: an embed in a line of text (``count`` renders a phrase)."""
        if name not in BUILT_IN and name not in self.user_views:
            known = ", ".join([*BUILT_IN, *sorted(self.user_views)])
            raise ViewError(f"no view named {name!r} (views: {known}; a view of your own "
                            f"is a {name}.html in views_dir)")
        try:
            template = self.env.get_template(f"{name}.html")
            html = template.render(**context(result, page_url, find), view=name,
                                   inline=inline)
        except jinja2.TemplateError as error:
            raise ViewError(f"the view {name!r} failed: {error}") from error
        # in a line of text, no line break of the template's around the phrase
        return Markup(html.strip() if inline else html)  # noqa: S704 - autoescaped

    def render_with(self, name: str, values: dict[str, Any], *, inline: bool = False
                    ) -> Markup:
        """The view ``name`` over a context made elsewhere (a base's or a Dataview
        query's result: ``site/dashboards.py``), with every helper a view may call."""
        if name not in BUILT_IN + RESULT_ONLY and name not in self.user_views:
            raise ViewError(f"no view named {name!r}")
        helpers = context(QueryResult(), "")
        helpers.update(values)
        try:
            html = self.env.get_template(f"{name}.html").render(**helpers, view=name,
                                                                inline=inline)
        except jinja2.TemplateError as error:
            raise ViewError(f"the view {name!r} failed: {error}") from error
        return Markup(html.strip() if inline else html)  # noqa: S704 - autoescaped

    def error_box(self, message: str, query: str | None) -> Markup:
        return Markup(self.own.get_template("query-error.html").render(  # noqa: S704
            message=message, query=query))

    def own_template(self, template: str, **values: Any) -> Markup:
        return Markup(self.own.get_template(template).render(**values))  # noqa: S704

    def query_page(self, query: str, result_html: Markup) -> Markup:
        return Markup(self.own.get_template("query-page.html").render(  # noqa: S704
            query=query, result=result_html))


def context(result: QueryResult, page_url: str, find: FindLink | None = None) -> (
    dict[str, Any]
):
    """What every view gets (see the module doc)."""
    nodes = [row[0] for row in result.rows] if result.is_nodes else []
    href = _href(page_url)
    return {
        "rows": result.records(),
        "columns": list(result.columns),
        "nodes": nodes,
        "is_nodes": result.is_nodes,
        "schema": result.schema,
        "link": _link(href),
        "href": href,
        "title": title,
        "date": format_date,
        "cell": _cell(href, find),
        "dated": dated,
        "node_columns": NODE_COLUMNS,
        "is_long": is_long,
    }


def is_long(value: Any) -> bool:
    """Text longer than 40 characters (shown as text: an HTML value's tags not counted)."""
    if isinstance(value, Markup):
        return len(value.striptags()) > 40
    return isinstance(value, str) and len(value) > 40


def title(value: Any) -> str:
    """A node's title (any other value as text)."""
    if is_node(value):
        return str(value.get("title") or value["bid"])
    return "" if value is None else str(value)


def format_date(value: Any, fmt: str = "%Y-%m-%d") -> str:
    """A date (or an ISO date text) in ``fmt``; other values as they are."""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value[:10])
        except ValueError:
            return str(value)
    if isinstance(value, dt.date):
        return value.strftime(fmt)
    return "" if value is None else str(value)


def when(node: Any) -> str | None:
    """The date a timeline orders a node by: its first date-like field, ISO text."""
    if not isinstance(node, dict):
        return None
    for name in DATE_FIELDS:
        value = node.get(name)
        if isinstance(value, dt.date):
            return value.isoformat()
        if isinstance(value, str) and _is_iso_date(value):
            return value[:10]
    return None


def dated(rows: list[dict[str, Any]], columns: list[str]) -> list[tuple[str | None, Any]]:
    """Rows with their dates (a node's first date field, or a row's first date value),
    newest first; undated rows last, in their order."""
    found = []
    for row in rows:
        day = None
        for column in columns:
            value = row[column]
            day = when(value) if isinstance(value, dict) else when({"date": value})
            if day is not None:
                break
        found.append((day, row))
    undated = [(d, r) for d, r in found if d is None]
    return sorted((x for x in found if x[0] is not None), key=lambda x: x[0] or "",
                  reverse=True) + undated


def _is_iso_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text[:10])
    except ValueError:
        return False
    return True


def _json_texts(value: Any) -> list[str] | None:
    """A list of texts that the engine holds as JSON text (a field that is a list in
    one note and a text in another, or a list whose texts hold commas), else None."""
    if not (isinstance(value, str) and value.startswith("[") and value.endswith("]")):
        return None
    try:
        found = json.loads(value)
    except ValueError:
        return None
    if isinstance(found, list) and all(isinstance(v, str) for v in found):
        return found
    return None


def relative_href(page_url: str) -> Callable[[str], str]:
    """A URL from the site root (``notes/a/``, ``img.png#x``) as a link from ``page_url``."""
    href = _href(page_url)

    def relative(url: str) -> str:
        return href({"url": url}) or url

    return relative


def _href(page_url: str) -> Callable[[Any], str | None]:
    def href(node: Any) -> str | None:
        url = node.get("url") if isinstance(node, dict) else None
        if not isinstance(url, str):
            return None
        if "://" in url or url.startswith("mailto:"):
            return url
        path, _, fragment = url.partition("#")
        relative = get_relative_url(path or ".", page_url or ".")
        if path.endswith("/") and not relative.endswith("/"):
            relative += "/"
        return relative + (f"#{fragment}" if fragment else "")

    return href


def _link(href: Callable[[Any], str | None]) -> Callable[[Any], Markup]:
    def link(node: Any) -> Markup:
        target = href(node)
        if target is None:
            return escape(title(node))
        return Markup('<a href="{}">{}</a>').format(target, title(node))

    return link


def _cell(href: Callable[[Any], str | None], find: FindLink | None) -> (
    Callable[[Any, Any], Markup]
):
    link = _link(href)

    def wikilink(inner: str, node: Any) -> Markup:
        assert find is not None
        path = node.get("path") if is_node(node) else None
        target = find(inner, path if isinstance(path, str) else None)
        if target.url is None:
            return Markup('<span class="bb-link bb-unresolved" title="{}">{}</span>').format(
                target.why, target.text)
        return Markup('<a class="bb-link" href="{}">{}</a>').format(
            href({"url": target.url}), target.text)

    def cell(value: Any, node: Any = None) -> Markup:
        if value is None:
            return Markup("")
        if is_node(value):
            return link(value)
        if isinstance(value, str) and find is not None:
            m = _WIKILINK_VALUE.match(value.strip())
            if m is not None:
                return wikilink(m["inner"], node)
        listed = _json_texts(value)
        if listed is not None:  # a list the engine holds as JSON text: shown as a list
            return cell(listed, node)
        if isinstance(value, list):
            return Markup(", ").join(cell(v, node) for v in value)
        if isinstance(value, bool):
            return Markup("true" if value else "false")
        if isinstance(value, dict):
            if "type" in value and "weight_kind" in value:
                return escape(value["type"])
            return escape(", ".join(f"{k}: {v}" for k, v in sorted(value.items())))
        return escape(str(value))

    return cell



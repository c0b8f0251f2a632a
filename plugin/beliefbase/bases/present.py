"""A ``ViewResult`` as plain data for a Jinja view (table, cards, list).

The renderer's only Bases-specific step: ``view_context(result, href)`` gives
dicts of strings and ``Markup`` (every user value already escaped by
``render_html``), so a template needs no knowledge of the engine's types and
cannot forget to escape.  Rows without ``groupBy`` come as one group whose
``label`` is ``None``.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from .display import Href, format_value, render_html
from .engine import Row, Summary, ViewResult
from .values import Link


def _summaries(summaries: tuple[Summary, ...], href: Href | None) -> dict[str, Any]:
    return {s.column: {"name": s.name, "html": render_html(s.value, href),
                       "text": format_value(s.value)} for s in summaries}


def _row(row: Row, href: Href | None) -> dict[str, Any]:
    link = Link(row.record.path, None, row.record.path)
    return {
        "path": row.record.path,
        "title": row.record.basename,
        "url": href(link) if href else None,
        "cells": [render_html(c, href) for c in row.cells],
        "texts": [format_value(c) for c in row.cells],
        "image": render_html(row.image, href) if row.image is not None else Markup(""),
    }


def view_context(result: ViewResult, href: Href | None = None) -> dict[str, Any]:
    """Template data: ``layout``, ``name``, ``note``, ``columns`` (id, header),
    ``groups`` (label as text for an autoescaping template, label_html, rows,
    summaries by column id), ``summaries``, ``total``,
    ``shown``, ``errors`` (text) and the cards options."""
    view = result.view
    groups: list[dict[str, Any]]
    if result.groups:
        groups = [{"label": format_value(g.key) if g.key is not None else "",
                   "label_html": render_html(g.key, href),
                   "rows": [_row(r, href) for r in g.rows],
                   "summaries": _summaries(g.summaries, href)} for g in result.groups]
    else:
        groups = [{"label": None, "label_html": Markup(""),
                   "rows": [_row(r, href) for r in result.rows], "summaries": {}}]
    return {
        "layout": view.layout if view else "table",
        "type": view.type if view else "table",
        "name": view.name if view else "",
        "note": view.note if view else None,
        "columns": [{"id": c.id, "header": c.header} for c in result.columns],
        "groups": groups,
        "summaries": _summaries(result.summaries, href),
        "total": result.total,
        "shown": len(result.rows),
        "errors": [str(e) for e in result.errors if e.level == "error"],
        "image_fit": view.image_fit if view else None,
        "image_aspect_ratio": view.image_aspect_ratio if view else None,
    }

"""A ``DataviewResult`` as the context the site's Jinja views take (``table``,
``list``: ``columns``, ``rows`` as dicts, ``cell(value)`` → escaped HTML), so
rendering a ```` ```dataview ```` fence is: ``run``, ``view_context``, render the
view named for ``result.kind``.

``rows`` hold the raw values (a view may test them); ``cell`` formats one with
``display.format_html``.  The id column (``File`` or ``Group``) comes first
unless the query says ``WITHOUT ID``; duplicate headers get `` (2)``, `` (3)``.
Task results are in ``task_groups`` (each a key and its ``TaskEntry``s).
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from .display import LinkHref, format_html
from .engine import DataviewResult


def unique_headers(headers: list[str]) -> list[str]:
    """Headers made unique for a view's row keys (``a``, ``a (2)``)."""
    seen: dict[str, int] = {}
    out = []
    for header in headers:
        count = seen.get(header, 0) + 1
        seen[header] = count
        out.append(header if count == 1 else f"{header} ({count})")
    return out


def view_context(result: DataviewResult, link_href: LinkHref | None = None) -> dict[str, Any]:
    """What a view gets for a Dataview result (see the module doc)."""

    def cell(value: Any) -> Markup:
        return Markup(format_html(value, link_href))  # noqa: S704 - format_html escapes

    if result.kind == "table":
        columns = unique_headers(list(result.headers))
        rows = []
        for row in result.rows:
            values = ((row.id,) if result.show_id else ()) + row.values
            rows.append(dict(zip(columns, values, strict=True)))
    else:  # list and calendar: the id, then the one value (if any)
        id_name = "Group" if result.grouped else "File"
        value_name = "Date" if result.kind == "calendar" else "Value"
        columns = ([id_name] if result.show_id else []) + (
            [value_name] if any(r.values for r in result.rows) else [])
        rows = []
        for row in result.rows:
            values = ((row.id,) if result.show_id else ()) + row.values[:1]
            rows.append(dict(zip(columns, values, strict=False)))
    return {
        "kind": result.kind,
        "columns": columns,
        "rows": rows,
        "cell": cell,
        "count": result.count,
        "note": result.note,
        "grouped": result.grouped,
        "task_groups": result.tasks,
    }

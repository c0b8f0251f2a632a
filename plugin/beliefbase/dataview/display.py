"""Values as HTML, escaped, as Dataview shows them in a result.

Links are anchors (``link_href`` gives a note's URL; a link it cannot place is
a ``broken`` span), dates ``May 16, 2021`` (``4:19 AM - April 18, 2021`` with a
time), durations ``3 days, 4 hours``, lists a ``<ul>``, objects ``key: value``
lines, null ``-``.  Every text goes through ``html.escape``: a property holding
``<script>`` shows as text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from .dates import display_date
from .values import Duration, ExternalLink, Lambda, Link, number_text

LinkHref = Callable[[Link], str | None]
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
_MAX_DEPTH = 20


def format_html(value: Any, link_href: LinkHref | None = None, *, depth: int = 0) -> str:
    """One value as HTML.  ``link_href(link)`` is the URL of a note (None when the
    link is broken); without it, links carry their vault path in ``data-href``."""
    if depth > _MAX_DEPTH:
        return "…"
    if value is None:
        return '<span class="dataview-null">-</span>'
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, bool | int | float):
        return escape(number_text(value))
    if isinstance(value, dt.datetime):
        return f'<span class="dataview-date">{escape(display_date(value))}</span>'
    if isinstance(value, Duration):
        return f'<span class="dataview-duration">{escape(value.human())}</span>'
    if isinstance(value, Link):
        return _link(value, link_href)
    if isinstance(value, ExternalLink):
        text = escape(value.display if value.display is not None else value.url)
        url = value.url if value.url.lower().startswith(_SAFE_SCHEMES) else "https://" + \
            value.url
        if ":" in value.url.split("/", 1)[0] and not value.url.lower().startswith(_SAFE_SCHEMES):
            return f'<span class="dataview-link">{text}</span>'
        return f'<a class="external-link" href="{escape(url)}" rel="noopener">{text}</a>'
    if isinstance(value, tuple | list):
        if not value:
            return '<span class="dataview-empty-list"></span>'
        items = "".join(f"<li>{format_html(v, link_href, depth=depth + 1)}</li>"
                        for v in value)
        return f'<ul class="dataview-list">{items}</ul>'
    if isinstance(value, Mapping):
        parts = "".join(
            f'<li><span class="dataview-key">{escape(str(k))}</span>: '
            f"{format_html(v, link_href, depth=depth + 1)}</li>"
            for k, v in value.items()
        )
        return f'<ul class="dataview-object">{parts}</ul>'
    if isinstance(value, Lambda):
        return "&lt;function&gt;"
    return escape(str(value))


def _link(link: Link, link_href: LinkHref | None) -> str:
    text = escape(link.text())
    if link_href is None:
        return (f'<a class="internal-link" data-href="{escape(link.markdown()[2:-2])}">'
                f"{text}</a>")
    href = link_href(link)
    if href is None:
        return f'<span class="internal-link broken" title="{escape(link.path)}">{text}</span>'
    return f'<a class="internal-link" href="{escape(href)}">{text}</a>'


def format_text(value: Any) -> str:
    """A value as plain text (no HTML): what ``string()`` gives."""
    from .text import to_text

    return to_text(value)

"""Showing values: ``format_value`` (text, as Obsidian displays them) and
``render_html`` (markup in which every piece of user text is escaped).

Links become ``<a>`` with the URL the caller's ``href`` gives (``None``: broken,
styled ``bases-link-broken``); ``image()`` an ``<img>``, ``icon()`` an empty
``<span data-icon>`` the theme may draw, ``html()`` its text escaped.  No value
can inject markup: a property holding ``<script>`` shows as that text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup, escape

from .dates import date_text, duration_text
from .ops import to_string
from .values import (
    Date,
    Duration,
    ErrorValue,
    FileRecord,
    Html,
    Icon,
    Image,
    Link,
    ThisRef,
)

_COLOR = re.compile(r"^#[0-9A-Fa-f]{3,8}$")

#: Link -> URL of its page (``None`` when it resolves to no published page).
Href = Callable[[Link], str | None]


def format_value(value: Any) -> str:
    """A value as text: ``2025-05-27``, ``3.5``, ``true``, ``a, b``; null is empty."""
    if isinstance(value, Date):
        return date_text(value)
    if isinstance(value, Duration):
        return duration_text(value)
    if isinstance(value, tuple):
        return ", ".join(format_value(v) for v in value)
    if isinstance(value, Link):
        return link_text(value)
    if isinstance(value, (FileRecord, ThisRef)):
        record = value.record if isinstance(value, ThisRef) else value
        return record.basename
    if isinstance(value, ErrorValue):
        return "Error"
    return to_string(value)


def link_text(link: Link) -> str:
    """What a link shows: its display text, else the target's name without ``.md``."""
    if link.display is not None:
        return format_value(link.display)
    if link.is_external:
        return link.target
    target = link.target.split("#", 1)[0].split("/")[-1] or link.target
    return target.removesuffix(".md")


def _default_href(link: Link) -> str | None:
    return link.target if link.is_external else None


def render_html(value: Any, href: Href | None = None) -> Markup:
    """A value as safe HTML for a cell, card or list item."""
    href = href or _default_href
    if value is None:
        return Markup("")
    if isinstance(value, tuple):
        parts = [render_html(v, href) for v in value if v is not None]
        return Markup('<span class="bases-list">{}</span>').format(
            Markup('<span class="bases-sep">, </span>').join(parts))
    if isinstance(value, Link):
        return _render_link(value, href)
    if isinstance(value, (FileRecord, ThisRef)):
        record = value.record if isinstance(value, ThisRef) else value
        return _render_link(Link(record.path, None, record.path), href)
    if isinstance(value, bool):
        return Markup('<input type="checkbox" disabled{}>').format(
            Markup(" checked") if value else Markup(""))
    if isinstance(value, Image):
        if _COLOR.match(value.src):
            return Markup('<span class="bases-image-color" style="background-color: {}">'
                          '</span>').format(value.src)
        src = href(value.link) if value.link is not None else (
            value.src if _safe_url(value.src) else None)
        if src is None:
            return Markup('<span class="bases-image-missing">{}</span>').format(value.src)
        return Markup('<img class="bases-image" src="{}" alt="" loading="lazy">').format(src)
    if isinstance(value, Icon):
        return Markup('<span class="bases-icon" data-icon="{}" aria-label="{}"></span>'
                      ).format(value.name, value.name)
    if isinstance(value, Html):
        return Markup('<span class="bases-html">{}</span>').format(value.text)
    if isinstance(value, ErrorValue):
        return Markup('<span class="bases-error-value" title="{}">Error</span>').format(
            value.message)
    if isinstance(value, Mapping):
        return escape(format_value(value))
    return escape(format_value(value))


def _render_link(link: Link, href: Href) -> Markup:
    url = href(link)
    text = link_text(link)
    if url is None or (link.is_external and not _safe_url(url)):
        return Markup('<span class="bases-link bases-link-broken">{}</span>').format(text)
    return Markup('<a class="bases-link" href="{}">{}</a>').format(url, text)


def _safe_url(url: str) -> bool:
    """Only web and relative URLs: never ``javascript:`` or ``data:``."""
    lowered = url.strip().lower()
    if ":" not in lowered.split("/", 1)[0]:
        return True
    return lowered.startswith(("http://", "https://", "mailto:"))

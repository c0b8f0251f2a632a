"""The global functions of Obsidian's Bases "Functions" page: ``date()``,
``link()``, ``if()`` (compiled lazily by the evaluator), ``now()`` ...

Each is ``fn(scope, *args)``; ``GLOBALS`` gives its least and most arguments,
checked when a base is parsed.  ``now()`` and ``today()`` are the evaluation's
fixed moment; ``random()`` is fixed per base and row (identical builds).
"""

from __future__ import annotations

import hashlib
import html
from typing import Any

from .context import Scope
from .dates import from_ms, parse_date, parse_duration
from .errors import ExprError
from .functions import Global, _flatten
from .ops import compare, to_number, to_string, unwrap
from .values import (
    Date,
    Duration,
    FileRecord,
    Html,
    Icon,
    Image,
    Link,
    is_number,
    parse_link_text,
)


def g_escape_html(sc: Scope, value: Any) -> str:
    return html.escape(to_string(value), quote=True)


def g_date(sc: Scope, value: Any) -> Any:
    value = unwrap(value)
    if value is None or isinstance(value, Date):
        return value
    if is_number(value):
        return from_ms(float(value))
    if isinstance(value, Link):
        value = value.target
    parsed = parse_date(to_string(value))
    if parsed is None:
        raise ExprError(f"date() cannot read {to_string(value)!r} as a date")
    return parsed


def g_duration(sc: Scope, value: Any) -> Any:
    if value is None or isinstance(value, Duration):
        return value
    if is_number(value):
        return Duration(0, float(value))
    parsed = parse_duration(to_string(value))
    if parsed is None:
        raise ExprError(f"duration() cannot read {to_string(value)!r} as a duration")
    return parsed


def g_file(sc: Scope, value: Any) -> Any:
    value = unwrap(value)
    if value is None or isinstance(value, FileRecord):
        return value
    if isinstance(value, Link):
        return sc.ctx.record_of(value)
    return sc.ctx.resolve(to_string(value))


def g_html(sc: Scope, value: Any) -> Html:
    return Html(to_string(value))


def g_image(sc: Scope, value: Any) -> Any:
    value = unwrap(value)
    if value is None:
        return None
    if isinstance(value, FileRecord):
        return Image(value.path, Link(value.path, None, value.path))
    if isinstance(value, str) and "[[" in value:
        value = parse_link_text(value)
    if isinstance(value, Link):
        if value.is_external:
            return Image(value.target)
        return Image(value.target, Link(value.target, None, sc.ctx.link_path(value)))
    return Image(to_string(value))


def g_icon(sc: Scope, name: Any) -> Icon:
    return Icon(to_string(name))


def g_link(sc: Scope, target: Any, display: Any = None) -> Any:
    target = unwrap(target)
    if target is None:
        return None
    if isinstance(target, FileRecord):
        return Link(target.path, display, target.path)
    link = target if isinstance(target, Link) else parse_link_text(to_string(target))
    if display is not None:
        link = Link(link.target, display, link.path)
    if link.path is None and not link.is_external:
        link = Link(link.target, link.display, sc.ctx.link_path(link))
    return link


def g_list(sc: Scope, value: Any) -> tuple[Any, ...]:
    if isinstance(value, tuple):
        return value
    return () if value is None else (value,)


def _extreme(args: tuple[Any, ...], sign: int, fn: str) -> Any:
    best: Any = None
    for value in _flatten(args):
        if value is None:
            continue
        if not (is_number(value) or isinstance(value, (Date, Duration))):
            value = to_number(value)
        if best is None or (compare(value, best, _NO_LINKS) or 0) * sign > 0:
            best = value
    return best


def g_max(sc: Scope, *args: Any) -> Any:
    return _extreme(args, 1, "max")


def g_min(sc: Scope, *args: Any) -> Any:
    return _extreme(args, -1, "min")


def g_now(sc: Scope) -> Date:
    return sc.ctx.now


def g_today(sc: Scope) -> Date:
    return sc.ctx.today


def g_number(sc: Scope, value: Any) -> Any:
    return to_number(unwrap(value))


def g_random(sc: Scope) -> float:
    """A number in [0, 1), fixed per base and row so builds stay identical."""
    digest = hashlib.sha256(f"{sc.ctx.seed}\0{sc.record.path}".encode()).digest()
    return int.from_bytes(digest[:7], "big") / 2**56


#: name -> (function, least and most arguments); ``if`` is compiled lazily (evaluator).
GLOBALS: dict[str, tuple[Global, int, int]] = {
    "escapeHTML": (g_escape_html, 1, 1),
    "date": (g_date, 1, 1),
    "duration": (g_duration, 1, 1),
    "file": (g_file, 1, 1),
    "html": (g_html, 1, 1),
    "image": (g_image, 1, 1),
    "icon": (g_icon, 1, 1),
    "link": (g_link, 1, 2),
    "list": (g_list, 1, 1),
    "max": (g_max, 1, 10_000),
    "min": (g_min, 1, 10_000),
    "now": (g_now, 0, 0),
    "today": (g_today, 0, 0),
    "number": (g_number, 1, 1),
    "random": (g_random, 0, 0),
}


class _NoLinks:
    """A resolver for comparisons that never meet links (numbers, dates)."""

    def link_path(self, link: Link) -> str | None:
        return link.path

    def resolve(self, target: str) -> FileRecord | None:
        return None


_NO_LINKS = _NoLinks()



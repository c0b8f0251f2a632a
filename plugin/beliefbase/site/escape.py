"""Escaping user text where MkDocs' themes print it raw.

MkDocs renders theme templates with autoescape off, so a note titled
``<script>alert(1)</script>`` runs in plain MkDocs-Material (nav, header,
footer, ``<title>``).  We mark every string we put into ``page.meta`` (title
included) as ``UserText`` and give the theme's Jinja environment a
``finalize`` that escapes ``UserText`` whenever a template prints it.
Filters that return plain strings (``striptags``) strip tags themselves;
``| e`` returns Markup, which finalize leaves alone — so nothing is escaped
twice.

Two strings Material prints where ``finalize`` cannot reach them: a page's
``status`` (joined into a ``class`` attribute with ``~``, which makes a plain
string), so ``theme_meta`` keeps only a class name's characters of it; and the
navigation's section titles (folder names: MkDocs makes them, not our
``page.meta``), which ``escape_section_titles`` marks as ``UserText``.

For JSON that ends up inside HTML we use ``json_for_html``: ``<``, ``>``, ``&``
and U+2028/9 as ``\\uXXXX`` escapes, so no ``</script>`` can close a tag.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import escape

from ..html_json import compact_json_for_html, json_for_html


class UserText(str):
    """A string that came from a user's file; escaped whenever a template prints it."""

    __slots__ = ()

    def __html__(self) -> str:
        return str(escape(str(self)))


def user_text(value: Any, budget: list[int] | None = None, _depth: int = 0) -> Any:
    """A plain copy of (frozen) frontmatter data with every string wrapped in
    ``UserText``: ``dict``s, and lists for its tuples (YAML lists, frozen), as
    MkDocs' ``page.meta`` has them.

    Bounded like ``jsonable`` (YAML aliases can expand enormously).
    """
    if budget is None:
        budget = [100_000]
    budget[0] -= 1
    if _depth > 40 or budget[0] < 0:
        return None
    if isinstance(value, str):
        return value if isinstance(value, UserText) else UserText(value)
    if isinstance(value, dict):
        return {k: user_text(v, budget, _depth + 1) for k, v in value.items() if budget[0] >= 0}
    if isinstance(value, list | tuple):
        return [user_text(v, budget, _depth + 1) for v in value if budget[0] >= 0]
    if isinstance(value, frozenset):  # a YAML set (!!set), frozen
        return set(value)
    return value


#: what may not stand in a class name Material prints (``md-status--{status}``)
_NOT_CLASS = re.compile(r"[^A-Za-z0-9_-]+")


def theme_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """``user_text(meta)`` for ``page.meta``, its ``status`` cut to a class name's
    characters (``new" onclick="x`` -> ``newonclickx``; none left: no status)."""
    wrapped: dict[str, Any] = user_text(meta)
    status = wrapped.get("status")
    if status is not None and not (isinstance(status, int | float) and not isinstance(
            status, bool)):
        token = _NOT_CLASS.sub("", status) if isinstance(status, str) else ""
        if token:
            wrapped["status"] = UserText(token)
        else:
            del wrapped["status"]
    return wrapped


def escape_section_titles(items: Any) -> None:
    """Mark every section title of MkDocs' navigation (a folder's name, or the
    ``nav`` setting's) as ``UserText``, so the theme prints it escaped."""
    for item in items or ():
        if getattr(item, "is_section", False):
            title = item.title
            if isinstance(title, str) and not isinstance(title, UserText):
                item.title = UserText(title)
            escape_section_titles(item.children)


def finalize(previous: Any = None) -> Any:
    """A Jinja ``finalize`` that escapes ``UserText`` (chained to an existing one).

    It runs for every ``{{ }}`` of the theme, millions of times in a large
    site, so the common case is one class check.
    """
    if previous is None:

        def _finalize(value: Any) -> Any:
            return escape(str(value)) if value.__class__ is UserText else value

    else:

        def _finalize(value: Any) -> Any:
            value = previous(value)
            return escape(str(value)) if value.__class__ is UserText else value

    _finalize.beliefbase = True  # type: ignore[attr-defined]
    return _finalize


def ascii_html(html: str) -> str:
    """``html`` with every non-ASCII character as a character reference (``&#8230;``).

    MkDocs keeps every page's content in memory until the build ends, and one
    "…" in a snippet makes CPython store the whole page at two bytes per
    character.  The browser shows the same text.
    """
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


__all__ = ["UserText", "ascii_html", "compact_json_for_html", "escape_section_titles",
           "finalize", "json_for_html", "theme_meta", "user_text"]

"""Escaping user text where MkDocs' themes print it raw.

MkDocs renders theme templates with autoescape off, so a note titled
``<script>alert(1)</script>`` runs in plain MkDocs-Material (nav, header,
footer, ``<title>``).  We mark every string we put into ``page.meta`` (title
included) as ``UserText`` and give the theme's Jinja environment a
``finalize`` that escapes ``UserText`` whenever a template prints it.
Filters that return plain strings (``striptags``) strip tags themselves;
``| e`` returns Markup, which finalize leaves alone — so nothing is escaped
twice.

For JSON that ends up inside HTML we use ``json_for_html``: ``<``, ``>``, ``&``
and U+2028/9 as ``\\uXXXX`` escapes, so no ``</script>`` can close a tag.
"""

from __future__ import annotations

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


__all__ = ["UserText", "ascii_html", "compact_json_for_html", "finalize", "json_for_html",
           "user_text"]

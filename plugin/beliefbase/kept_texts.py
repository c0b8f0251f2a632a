"""Texts made from objects, kept from one ``mkdocs serve`` rebuild to the next.

A rebuild after one edit meets mostly the same objects again (the theme keeps
its search entries, the ``GraphBuilder`` its nodes): their JSON need not be
made again.  Objects are known by identity, and held here so that an ``id``
is never reused while remembered; an object must not change once its text is
made (frozen graph nodes; search entries are escaped before, never after).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class KeptTexts:
    """The text of each object of a round, made only for objects new to it."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[Any, str]] = {}
        self._now: dict[int, tuple[Any, str]] = {}

    def text(self, obj: Any, make: Callable[[Any], str]) -> str:
        known = self._last.get(id(obj))
        text = known[1] if known is not None and known[0] is obj else make(obj)
        self._now[id(obj)] = (obj, text)
        return text

    def end_round(self) -> None:
        """Keep this round's texts (only) for the next one."""
        self._last, self._now = self._now, {}

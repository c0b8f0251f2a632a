"""Texts made from objects, kept from one ``mkdocs serve`` rebuild to the next.

A rebuild after one edit meets mostly the same objects again (the theme keeps
its search entries, the ``GraphBuilder`` its nodes): their JSON need not be
made again.  Objects are known by identity, and held here so that an ``id``
is never reused while remembered; a ``stamp`` of the fields that may change
in place is compared too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


class KeptTexts:
    """The text of each object of a round, made only for objects new to it."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[Any, Hashable, str]] = {}
        self._now: dict[int, tuple[Any, Hashable, str]] = {}

    def text(self, obj: Any, make: Callable[[Any], str], stamp: Hashable = None) -> str:
        known = self._last.get(id(obj))
        if known is not None and known[0] is obj and known[1] == stamp:
            text = known[2]
        else:
            text = make(obj)
        self._now[id(obj)] = (obj, stamp, text)
        return text

    def end_round(self) -> None:
        """Keep this round's texts (only) for the next one."""
        self._last, self._now = self._now, {}

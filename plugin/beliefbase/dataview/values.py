"""Dataview's value types and the rules every operator shares: type names,
truthiness, ordering (``compare``) and the plain-text form (``to_text``).

A Dataview value is one of: ``None`` (null), ``bool``, ``int``/``float`` (number),
``str`` (text), ``datetime.datetime`` (date; a date without time is midnight),
``Duration``, ``Link``, ``tuple`` (list), a ``Mapping[str, value]`` (object) or a
``Lambda``.  Lists are tuples and objects ``FrozenDict``s, so a result is
immutable all the way down.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# the value types live with the codec's inline-field reader; re-exported here
from ..codecs.field_values import _MS as _MS
from ..codecs.field_values import DURATION_UNITS as DURATION_UNITS
from ..codecs.field_values import Duration as Duration
from ..codecs.field_values import Link as Link
from ..codecs.field_values import _num as _num
from ..codecs.field_values import _number_text as _number_text
from ..frozen import FrozenDict

#: the order of types when values of different types are compared (Dataview
#: sorts a mixed column by type first, nulls first)
_TYPE_ORDER = {
    "null": 0,
    "boolean": 1,
    "number": 2,
    "string": 3,
    "date": 4,
    "duration": 5,
    "link": 6,
    "array": 7,
    "object": 8,
    "function": 9,
}

@dataclass(frozen=True, slots=True)
class ExternalLink:
    """``elink(url, display)``: a link outside the vault."""

    url: str
    display: str | None = None


@dataclass(frozen=True, slots=True)
class Lambda:
    """``(x, y) => expr``: its parameters and a closure that evaluates the body."""

    params: tuple[str, ...]
    call: Callable[[tuple[Any, ...]], Any]


def type_name(value: Any) -> str:
    """``typeof``: null, boolean, number, string, date, duration, link, array,
    object, function."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dt.datetime):
        return "date"
    if isinstance(value, Duration):
        return "duration"
    if isinstance(value, Link | ExternalLink):
        return "link"
    if isinstance(value, tuple | list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, Lambda):
        return "function"
    return "string"


def truthy(value: Any) -> bool:
    """Dataview's truthiness: null, false, 0, "", an empty list or object, a zero
    duration are false; dates and links are true."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, int | float):
        return value != 0 and not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str | tuple | list | Mapping):
        return len(value) > 0
    if isinstance(value, Duration):
        return not value.is_zero()
    if isinstance(value, Link):
        return bool(value.path)
    return True


def compare(a: Any, b: Any) -> int:
    ta = type(a)
    if ta is type(b) and ta in _FAST:
        return -1 if a < b else (1 if a > b else 0)
    return _compare(a, b)


_FAST = frozenset({int, dt.datetime})


def order_key(value: Any) -> tuple[Any, ...]:
    """A key Python compares natively in the order of ``compare`` (sorting with it
    costs no Python-level comparison)."""
    kind = type_name(value)
    rank = _TYPE_ORDER[kind]
    if kind in ("null", "function"):
        return (rank,)
    if kind == "number":
        if isinstance(value, float) and math.isnan(value):
            return (rank, -1, 0)
        return (rank, 0, value)
    if kind == "string":
        return (rank, value.casefold(), value.swapcase())
    if kind in ("boolean", "date"):
        return (rank, value)
    if kind == "duration":
        return (rank, value.total_ms())
    if kind == "link":
        if isinstance(value, Link):
            return (rank, value.path, value.subpath or "")
        return (rank, value.url, "")
    if kind == "array":
        return (rank, tuple(order_key(v) for v in value))
    return (rank, tuple(sorted((str(k), order_key(v)) for k, v in value.items())))


def _compare(a: Any, b: Any) -> int:
    """-1, 0 or 1: Dataview's total order (values of different types by type, nulls
    first; text case-insensitively first, as ``localeCompare``; lists element by
    element; links by path)."""
    ta, tb = type_name(a), type_name(b)
    if ta != tb:
        return -1 if _TYPE_ORDER[ta] < _TYPE_ORDER[tb] else 1
    if ta == "null":
        return 0
    if ta == "duration":
        a, b = a.total_ms(), b.total_ms()
    elif ta == "link":
        a = (a.path, a.subpath or "") if isinstance(a, Link) else (a.url, "")
        b = (b.path, b.subpath or "") if isinstance(b, Link) else (b.url, "")
    elif ta == "array":
        for x, y in zip(a, b, strict=False):
            c = compare(x, y)
            if c:
                return c
        a, b = len(a), len(b)
    elif ta == "object":
        a = sorted(a.items(), key=lambda kv: kv[0])
        b = sorted(b.items(), key=lambda kv: kv[0])
        for (ka, va), (kb, vb) in zip(a, b, strict=False):
            if ka != kb:
                return -1 if ka < kb else 1
            c = compare(va, vb)
            if c:
                return c
        a, b = len(a), len(b)
    elif ta == "function":
        return 0
    elif ta == "string":
        # like JavaScript's localeCompare: letters before case, lowercase first
        if a == b:
            return 0
        a, b = (a.casefold(), a.swapcase()), (b.casefold(), b.swapcase())
    elif ta == "number":
        if isinstance(a, float) and math.isnan(a):
            return 0 if isinstance(b, float) and math.isnan(b) else -1
        if isinstance(b, float) and math.isnan(b):
            return 1
    return -1 if a < b else (1 if a > b else 0)


def sort_key(value: Any) -> _Key:
    return _Key(value)


class _Key:
    """A ``sorted`` key ordering values with ``compare``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Key) -> bool:
        return compare(self.value, other.value) < 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and compare(self.value, other.value) == 0

    __hash__ = None  # type: ignore[assignment]


#: containers nested deeper are cut off (null), as the compile cuts frontmatter
MAX_NESTING = 50


def freeze_value(value: Any, _depth: int = 0) -> Any:
    """Lists to tuples and mappings to ``FrozenDict`` all the way down (cut off
    below ``MAX_NESTING`` levels: YAML aliases can nest without end)."""
    if isinstance(value, list | tuple | Mapping) and _depth > MAX_NESTING:
        return None
    if isinstance(value, list | tuple):
        return tuple(freeze_value(v, _depth + 1) for v in value)
    if isinstance(value, Mapping):
        return FrozenDict({str(k): freeze_value(v, _depth + 1) for k, v in value.items()})
    return value


def number_text(value: float) -> str:
    """A number as JavaScript prints it (``3``, ``2.5``, ``Infinity``)."""
    return _number_text(value)


def group_key(value: Any) -> Any:
    """A hashable stand-in for ``value``: values ``compare`` calls equal get equal
    keys (GROUP BY and ``unique`` hash instead of comparing every pair)."""
    kind = type_name(value)
    if kind == "number":
        return (kind, float(value))
    if kind in ("null", "boolean", "string", "date"):
        return (kind, value)
    if kind == "duration":
        return (kind, value.total_ms())
    if kind == "link":
        if isinstance(value, Link):
            return (kind, value.path, value.subpath or "")
        return (kind, value.url, "")
    if kind == "array":
        return (kind, tuple(group_key(v) for v in value))
    if kind == "object":
        return (kind, tuple(sorted((k, group_key(v)) for k, v in value.items())))
    return (kind, id(value))

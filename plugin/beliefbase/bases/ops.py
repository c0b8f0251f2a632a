"""Operators on values, following JavaScript where Obsidian says so: ``+`` joins
text, ``==`` compares values (links with the files they resolve to), dates and
durations do calendar arithmetic.  Where JavaScript would produce nonsense the
engine is stricter (see docs/guide/bases-and-dataview.md, "differences"):
arithmetic and ordering with null give null / false.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .dates import add_duration, date_text, duration_text, parse_date, parse_duration
from .errors import ExprError
from .values import (
    Date,
    Duration,
    ErrorValue,
    FileRecord,
    Html,
    Icon,
    Image,
    Link,
    Regex,
    ThisRef,
    is_number,
    number_text,
    type_name,
)


class Resolver(Protocol):
    """What operators need from the vault: which file a link points to."""

    def link_path(self, link: Link) -> str | None: ...

    def resolve(self, target: str) -> FileRecord | None: ...


def unwrap(value: Any) -> Any:
    return value.record if isinstance(value, ThisRef) else value


def to_string(value: Any) -> str:
    """``toString()`` and text concatenation: null is empty, lists join with ", "."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, tuple):
        return ", ".join(to_string(v) for v in value)
    if isinstance(value, Date):
        return date_text(value)
    if isinstance(value, Duration):
        return duration_text(value)
    if isinstance(value, Link):
        return to_string(value.display) if value.display is not None else value.target
    if isinstance(value, FileRecord):
        return value.path
    if isinstance(value, ThisRef):
        return value.record.path
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {to_string(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Regex):
        return f"/{value.source}/{value.flags}"
    if isinstance(value, Html):
        return value.text
    if isinstance(value, Image):
        return value.src
    if isinstance(value, Icon):
        return value.name
    if isinstance(value, ErrorValue):
        return value.message
    return str(value)


def to_number(value: Any) -> float | int | None:
    """JavaScript's numeric coercion for ``- * / %``; null stays null."""
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0
        try:
            return float(text) if not text.lstrip("+-").isdigit() else int(text)
        except ValueError:
            raise ExprError(f"{value!r} is not a number") from None
    if isinstance(value, Duration):
        return value.total_ms
    if isinstance(value, Date):
        return value.ms
    raise ExprError(f"a {type_name(value)} is not a number")


def _file_path(value: Any, res: Resolver) -> str | None:
    if isinstance(value, FileRecord):
        return value.path
    if isinstance(value, Link):
        return res.link_path(value)
    return None


def equals(a: Any, b: Any, res: Resolver) -> bool:
    """``==``: same value; a link equals a link or file resolving to the same file."""
    a, b = unwrap(a), unwrap(b)
    if a is b:
        return True
    if a is None or b is None:
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a):
        if is_number(b):
            return bool(a == b)
        if isinstance(b, str):
            return bool(_loose_number(b) == a)
        return isinstance(b, Duration) and b.total_ms == a
    if isinstance(a, str) and not isinstance(b, (str, Link, FileRecord)):
        return equals(b, a, res) if isinstance(b, (int, float, Date)) else False
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if isinstance(a, (Link, FileRecord)) or isinstance(b, (Link, FileRecord)):
        return _link_equals(a, b, res)
    if isinstance(a, Date):
        other = parse_date(b) if isinstance(b, str) else b
        return isinstance(other, Date) and a.dt == other.dt
    if isinstance(a, Duration):
        return (isinstance(b, Duration) and a.total_ms == b.total_ms) or (
            is_number(b) and a.total_ms == b)
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(
            equals(x, y, res) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping):
        return isinstance(b, Mapping) and a.keys() == b.keys() and all(
            equals(a[k], b[k], res) for k in a)
    return type(a) is type(b) and bool(a == b)


def _loose_number(text: str) -> float | None:
    try:
        return float(text.strip()) if text.strip() else 0.0
    except ValueError:
        return None


def _link_equals(a: Any, b: Any, res: Resolver) -> bool:
    if isinstance(a, str):
        a, b = b, a
    if isinstance(b, str):  # a link or file against text: the text as a link target
        target = res.resolve(b)
        pa = _file_path(a, res)
        if target is not None and pa is not None:
            return target.path == pa
        return isinstance(a, Link) and _norm(a.target) == _norm(b)
    pa, pb = _file_path(a, res), _file_path(b, res)
    if pa is not None or pb is not None:
        return pa == pb
    return isinstance(a, Link) and isinstance(b, Link) and _norm(a.target) == _norm(b.target)


def _norm(target: str) -> str:
    return target.strip().lower().removesuffix(".md")


def compare(a: Any, b: Any, res: Resolver) -> int | None:
    """-1, 0 or 1 for ``< > <= >=``; ``None`` when the two cannot be ordered (null)."""
    a, b = unwrap(a), unwrap(b)
    if a is None or b is None:
        return None
    if isinstance(a, Date) or isinstance(b, Date):
        x = parse_date(a) if isinstance(a, str) else a
        y = parse_date(b) if isinstance(b, str) else b
        if isinstance(x, Date) and isinstance(y, Date):
            return _cmp(x.dt, y.dt)
        return None
    if isinstance(a, str) and isinstance(b, str):
        return _cmp(a, b)
    if isinstance(a, (Link, FileRecord)) or isinstance(b, (Link, FileRecord)):
        return _cmp(to_string(a), to_string(b))
    x, y = _orderable_number(a), _orderable_number(b)
    if x is None or y is None or math.isnan(x) or math.isnan(y):
        return None
    return _cmp(x, y)


def _orderable_number(value: Any) -> float | None:
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, Duration):
        return value.total_ms
    if isinstance(value, str):
        return _loose_number(value)
    return None


def _cmp(x: Any, y: Any) -> int:
    return -1 if x < y else (1 if x > y else 0)


def as_duration(value: Any) -> Duration | None:
    if isinstance(value, Duration):
        return value
    if isinstance(value, str):
        return parse_duration(value)
    return None


def add(a: Any, b: Any) -> Any:
    """``+``: numbers add, dates move by a duration, lists concatenate, text joins."""
    a, b = unwrap(a), unwrap(b)
    if isinstance(a, Date) and not isinstance(b, Date):
        if is_number(b):
            return add_duration(a, Duration(0, float(b)))
        duration = as_duration(b)
        if duration is not None:
            return add_duration(a, duration)
    if isinstance(b, Date) and isinstance(a, Duration):
        return add_duration(b, a)
    if isinstance(a, Duration) and isinstance(b, (Duration, str)):
        other = as_duration(b)
        if other is not None:
            return Duration(a.months + other.months, a.ms + other.ms)
    if isinstance(a, str) or isinstance(b, str):
        return to_string(a) + to_string(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a + b
    if a is None or b is None:
        return None
    return _arith("+", a, b)


def subtract(a: Any, b: Any) -> Any:
    a, b = unwrap(a), unwrap(b)
    if isinstance(a, Date):
        if isinstance(b, Date):
            return Duration(0, a.ms - b.ms)
        if isinstance(b, str) and parse_date(b) is not None and parse_duration(b) is None:
            when = parse_date(b)
            assert when is not None
            return Duration(0, a.ms - when.ms)
        duration = as_duration(b) if not is_number(b) else Duration(0, float(b))
        if duration is not None:
            return add_duration(a, duration, -1)
    if isinstance(a, Duration):
        other = as_duration(b)
        if other is not None:
            return Duration(a.months - other.months, a.ms - other.ms)
    return _arith("-", a, b)


def _arith(op: str, a: Any, b: Any) -> Any:
    if isinstance(a, Duration) and op in "*/" and not isinstance(b, Duration):
        n = to_number(b)
        if n is None:
            return None
        if op == "*":
            return Duration(round(a.months * n), a.ms * n)
        if n == 0:
            raise ExprError("division of a duration by zero")
        return Duration(round(a.months / n), a.ms / n)
    x, y = to_number(a), to_number(b)
    if x is None or y is None:
        return None
    return _numeric(op, x, y)


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
}


def _numeric(op: str, x: float, y: float) -> float | int:
    if op in _OPS:
        return _OPS[op](x, y)  # type: ignore[no-any-return]
    if op == "/":
        if y == 0:
            return math.nan if x == 0 or x != x else math.copysign(math.inf, x) * (
                math.copysign(1, y))
        result = x / y
        return int(result) if isinstance(result, float) and result.is_integer() and \
            abs(result) < 2**53 and isinstance(x, int) and isinstance(y, int) else result
    if op == "%":
        if y == 0 or math.isinf(x):
            return math.nan
        return math.fmod(x, y) if isinstance(x, float) or isinstance(y, float) else \
            int(math.copysign(abs(x) % abs(y), x))
    raise ExprError(f"unknown operator {op}")


def binary_arith(op: str, a: Any, b: Any) -> Any:
    """``+ - * / %`` with the rules above."""
    try:
        if op == "+":
            return add(a, b)
        if op == "-":
            return subtract(a, b)
        return _arith(op, unwrap(a), unwrap(b))
    except OverflowError:
        raise ExprError("number or date out of range") from None


def negate(value: Any) -> Any:
    value = unwrap(value)
    if isinstance(value, Duration):
        return Duration(-value.months, -value.ms)
    n = to_number(value)
    return None if n is None else -n


def key_of(value: Any, res: Resolver) -> Any:
    """A hashable key: equal values (``equals``) share it; for ``unique()`` and groups."""
    value = unwrap(value)
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", float(value))
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, Date):
        return ("d", value.dt)
    if isinstance(value, Duration):
        return ("u", value.total_ms)
    if isinstance(value, (Link, FileRecord)):
        path = _file_path(value, res)
        return ("f", path) if path is not None else ("l", _norm(value.target))  # type: ignore[union-attr]
    if isinstance(value, tuple):
        return ("t", tuple(key_of(v, res) for v in value))
    if isinstance(value, Mapping):
        return ("o", tuple(sorted((str(k), key_of(v, res)) for k, v in value.items())))
    return ("x", type_name(value), to_string(value))


def sort_key(value: Any) -> tuple[Any, ...]:
    """An order across types: numbers, dates, text (case-insensitive), booleans, the rest.

    Null and empty text have no key here: the caller puts them last.
    """
    value = unwrap(value)
    if isinstance(value, bool):
        return (3, int(value))
    if isinstance(value, (int, float)):
        return (0, value) if value == value else (9,)
    if isinstance(value, Duration):
        return (0, value.total_ms)
    if isinstance(value, Date):
        return (1, value.dt)
    if isinstance(value, str):
        return (2, value.casefold(), value)
    if isinstance(value, (Link, FileRecord)):
        text = to_string(value) if isinstance(value, Link) else value.name
        return (2, text.casefold(), text)
    return (4, to_string(value).casefold(), type_name(value))


def is_empty(value: Any) -> bool:
    """Null, "", [] and {} are empty (the ``Empty`` summary, ``isEmpty()``)."""
    if value is None:
        return True
    if isinstance(value, (str, tuple)):
        return len(value) == 0
    if isinstance(value, Mapping):
        return len(value) == 0
    return False

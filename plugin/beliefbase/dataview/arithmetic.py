"""Dataview's arithmetic: ``+ - * / %`` on numbers, text, dates and durations,
lists and objects (``binary_op``), shared by the evaluator and the functions
(``sum``, ``product``) that add values up."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

from .dates import add_duration, diff
from .errors import DataviewError
from .text import to_text
from .values import Duration, type_name

#: the longest text ``"x" * n`` may make
MAX_TEXT = 1_000_000

_OP_NAMES = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "take the "
             "remainder of"}


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _num_result(v: float) -> float:
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v


def binary_op(op: str, a: Any, b: Any,  # noqa: C901 - one table of type pairs
              where: tuple[int, int] = (0, 0)) -> Any:
    """``a op b`` for + - * / %: numbers, text, dates and durations, lists."""
    if op == "+" and (isinstance(a, str) or isinstance(b, str)):
        return to_text(a) + to_text(b)
    if a is None or b is None:
        return None
    try:
        if _is_number(a) and _is_number(b):
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                if b == 0:  # JavaScript's answers
                    return math.nan if a == 0 else math.copysign(math.inf, a)
                return _num_result(a / b)
            if op == "%":
                if b == 0:
                    return math.nan
                return math.fmod(a, b) if isinstance(a, float) or isinstance(b, float) else (
                    int(math.fmod(a, b)))
        if isinstance(a, dt.datetime) and isinstance(b, Duration) and op in "+-":
            return add_duration(a, b, 1 if op == "+" else -1)
        if isinstance(a, Duration) and isinstance(b, dt.datetime) and op == "+":
            return add_duration(b, a)
        if isinstance(a, dt.datetime) and isinstance(b, dt.datetime) and op == "-":
            return diff(a, b)
        if isinstance(a, Duration) and isinstance(b, Duration) and op in "+-":
            return a.plus(b, 1 if op == "+" else -1)
        if isinstance(a, Duration) and _is_number(b) and op in "*/":
            if op == "/" and b == 0:
                return None
            return a.scaled(b if op == "*" else 1 / b)
        if _is_number(a) and isinstance(b, Duration) and op == "*":
            return b.scaled(a)
        if op == "*" and (isinstance(a, str) and _is_number(b) or
                          _is_number(a) and isinstance(b, str)):
            text, times = (a, b) if isinstance(a, str) else (b, a)
            count = max(0, int(times))
            if len(text) * count > MAX_TEXT:
                raise DataviewError(f"text longer than {MAX_TEXT} characters", *where)
            return text * count
        if op == "+" and isinstance(a, tuple | list) and isinstance(b, tuple | list):
            return tuple(a) + tuple(b)
        if op == "+" and isinstance(a, Mapping) and isinstance(b, Mapping):
            from ..frozen import FrozenDict

            return FrozenDict({**a, **b})
    except (OverflowError, ValueError) as exc:
        raise DataviewError(f"cannot {_OP_NAMES[op]} these values: {_reason(exc)}",
                            *where) from None
    raise DataviewError(
        f"cannot {_OP_NAMES[op]} {type_name(a)} and {type_name(b)} ('{op}')", *where)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text if text else type(exc).__name__

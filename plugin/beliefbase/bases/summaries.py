"""Column summaries: the defaults of Bases syntax (Average ... Unique) and custom
ones (an expression over ``values``)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

from .context import Context
from .errors import ExprError
from .ops import is_empty, key_of
from .values import Date, Duration, is_number


def _numbers(values: list[Any]) -> list[float]:
    return [v for v in values if is_number(v) and math.isfinite(v)]


def _dates(values: list[Any]) -> list[Date]:
    return [v for v in values if isinstance(v, Date)]


def _tidy(n: float) -> float | int:
    return int(n) if isinstance(n, float) and n.is_integer() and abs(n) < 2**53 else n


def _average(values: list[Any]) -> Any:
    nums = _numbers(values)
    return _tidy(sum(nums) / len(nums)) if nums else None


def _min(values: list[Any]) -> Any:
    nums = _numbers(values)
    return min(nums) if nums else None


def _max(values: list[Any]) -> Any:
    nums = _numbers(values)
    return max(nums) if nums else None


def _sum(values: list[Any]) -> Any:
    return _tidy(math.fsum(_numbers(values))) if _numbers(values) else 0


def _range(values: list[Any]) -> Any:
    nums = _numbers(values)
    if nums:
        return _tidy(max(nums) - min(nums))
    dates = _dates(values)
    if dates:
        return Duration(0, max(dates).ms - min(dates).ms)
    return None


def _median(values: list[Any]) -> Any:
    nums = _numbers(values)
    return _tidy(statistics.median(nums)) if nums else None


def _stddev(values: list[Any]) -> Any:
    """The population standard deviation (every row of the view is the population)."""
    nums = _numbers(values)
    return _tidy(statistics.pstdev(nums)) if nums else None


def _earliest(values: list[Any]) -> Any:
    dates = _dates(values)
    return min(dates) if dates else None


def _latest(values: list[Any]) -> Any:
    dates = _dates(values)
    return max(dates) if dates else None


def _checked(values: list[Any]) -> int:
    return sum(1 for v in values if v is True)


def _unchecked(values: list[Any]) -> int:
    return sum(1 for v in values if v is False)


def _empty(values: list[Any]) -> int:
    return sum(1 for v in values if is_empty(v))


def _filled(values: list[Any]) -> int:
    return sum(1 for v in values if not is_empty(v))


#: default summary name (case-folded) -> (display name, function of the column's values)
DEFAULTS: dict[str, tuple[str, Callable[[list[Any]], Any]]] = {
    "average": ("Average", _average), "min": ("Min", _min), "max": ("Max", _max),
    "sum": ("Sum", _sum), "range": ("Range", _range), "median": ("Median", _median),
    "stddev": ("Stddev", _stddev), "earliest": ("Earliest", _earliest),
    "latest": ("Latest", _latest), "checked": ("Checked", _checked),
    "unchecked": ("Unchecked", _unchecked), "empty": ("Empty", _empty),
    "filled": ("Filled", _filled),
}


def summarize(name: str, values: list[Any], ctx: Context,
              custom: dict[str, Any]) -> Any:
    """The summary ``name`` of a column's ``values``; ``ExprError`` if a custom one fails."""
    if name in custom:
        scope = ctx.scope(None)
        scope.locals = {"values": tuple(values)}
        return custom[name].fn(scope)
    folded = name.casefold()
    if folded == "unique":
        return len({key_of(v, ctx) for v in values if not is_empty(v)})
    spec = DEFAULTS.get(folded)
    if spec is None:
        raise ExprError(f"unknown summary {name!r}")
    return spec[1](values)

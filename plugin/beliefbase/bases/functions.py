"""The methods of each type on Obsidian's Bases "Functions" page (any, date,
string, number, list, link, file, object, regexp); the global functions are in
``global_functions.py``.

A method is ``fn(scope, receiver, *args)``.  The
list methods that take an expression (``filter``, ``map``, ``reduce``) receive
compiled arguments and evaluate them per element with ``value``, ``index`` and
``acc`` bound (``LAMBDA_METHODS``).  Nothing here reads a file, the network or
the clock (``now()`` is the evaluation's fixed moment).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import regex as regex_module

from .context import Fn, Scope
from .dates import format_moment, parse_date, relative
from .errors import ExprError
from .ops import equals, is_empty, key_of, sort_key, to_number, to_string, unwrap
from .values import (
    Date,
    FileRecord,
    Link,
    Regex,
    ThisRef,
    is_number,
    truthy,
    type_name,
)

#: Longest text ``repeat()`` may build (a guard against a base exhausting memory).
MAX_TEXT = 1_000_000

Global = Callable[..., Any]
MethodFn = Callable[..., Any]


def _int(value: Any, fn: str) -> int:
    n = to_number(value)
    if n is None or (isinstance(n, float) and not math.isfinite(n)):
        raise ExprError(f"{fn}() expects a number")
    return int(n)


def _flatten(args: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = []
    for value in args:
        out.extend(value) if isinstance(value, tuple) else out.append(value)
    return out


# ---------------------------------------------------------------- any

def m_is_truthy(sc: Scope, value: Any) -> bool:
    return truthy(value)


_TYPE_ALIASES = {"text": "string", "array": "list", "bool": "boolean", "regex": "regexp",
                 "datetime": "date"}


def m_is_type(sc: Scope, value: Any, kind: Any) -> bool:
    wanted = to_string(kind).strip().lower()
    return type_name(unwrap(value)) == _TYPE_ALIASES.get(wanted, wanted)


def m_to_string(sc: Scope, value: Any) -> str:
    return to_string(value)


def m_is_empty(sc: Scope, value: Any) -> bool:
    return is_empty(unwrap(value))


ANY: dict[str, MethodFn] = {
    "isTruthy": m_is_truthy, "isType": m_is_type, "toString": m_to_string,
    "isEmpty": m_is_empty,
}


# ---------------------------------------------------------------- date

def d_date(sc: Scope, d: Date) -> Date:
    return Date(_dt.datetime(d.dt.year, d.dt.month, d.dt.day), False)


def d_format(sc: Scope, d: Date, fmt: Any) -> str:
    return format_moment(d, to_string(fmt))


def d_time(sc: Scope, d: Date) -> str:
    return format_moment(d, "HH:mm:ss")


def d_relative(sc: Scope, d: Date) -> str:
    return relative(d, sc.ctx.now)


DATE: dict[str, MethodFn] = {"date": d_date, "format": d_format, "time": d_time,
                             "relative": d_relative}
DATE_FIELDS: dict[str, Callable[[_dt.datetime], int]] = {
    "year": lambda v: v.year, "month": lambda v: v.month, "day": lambda v: v.day,
    "hour": lambda v: v.hour, "minute": lambda v: v.minute, "second": lambda v: v.second,
    "millisecond": lambda v: v.microsecond // 1000,
}
DURATION_FIELDS: dict[str, float] = {
    "days": 86_400_000, "hours": 3_600_000, "minutes": 60_000, "seconds": 1000,
    "milliseconds": 1,
}


# ---------------------------------------------------------------- string

def _strings(values: tuple[Any, ...]) -> list[str]:
    return [to_string(v) for v in values]


def s_contains(sc: Scope, s: str, value: Any) -> bool:
    return to_string(value) in s


def s_contains_all(sc: Scope, s: str, *values: Any) -> bool:
    return all(v in s for v in _strings(values))


def s_contains_any(sc: Scope, s: str, *values: Any) -> bool:
    return any(v in s for v in _strings(values))


def s_ends_with(sc: Scope, s: str, query: Any) -> bool:
    return s.endswith(to_string(query))


def s_starts_with(sc: Scope, s: str, query: Any) -> bool:
    return s.startswith(to_string(query))


def s_lower(sc: Scope, s: str) -> str:
    return s.lower()


_GROUP_REF = re.compile(r"\$(\$|&|\d{1,2}|<[A-Za-z_]\w*>)")


def _expand(m: re.Match[str], replacement: str) -> str:
    def one(ref: re.Match[str]) -> str:
        token = ref.group(1)
        if token == "$":
            return "$"
        if token == "&":
            return m.group(0)
        if token.startswith("<"):
            try:
                return m.group(token[1:-1]) or ""
            except (IndexError, re.error, regex_module.error):
                return ref.group(0)
        index = int(token)
        return (m.group(index) or "") if 0 < index <= (m.re.groups or 0) else ref.group(0)

    return _GROUP_REF.sub(one, replacement)


#: seconds a regular expression of a base may run on one value (as Dataview's)
REGEX_TIMEOUT = 0.25


def _timed(name: str, call: Callable[[], Any]) -> Any:
    try:
        return call()
    except TimeoutError:
        raise ExprError(f"{name}(): the regular expression takes too long") from None


def s_replace(sc: Scope, s: str, pattern: Any, replacement: Any) -> str:
    repl = to_string(replacement)
    if isinstance(pattern, Regex):
        replaced: str = _timed("replace", lambda: pattern.compiled.sub(
            lambda m: _expand(m, repl), s, count=0 if pattern.is_global else 1,
            timeout=REGEX_TIMEOUT))
        return replaced
    return s.replace(to_string(pattern), repl)


def s_repeat(sc: Scope, s: str, count: Any) -> str:
    n = _int(count, "repeat")
    if n < 0 or len(s) * n > MAX_TEXT:
        raise ExprError("repeat() count out of range")
    return s * n


def s_reverse(sc: Scope, s: str) -> str:
    return s[::-1]


def _slice_bounds(start: Any, end: Any) -> slice:
    return slice(_int(start, "slice") if start is not None else None,
                 _int(end, "slice") if end is not None else None)


def s_slice(sc: Scope, s: str, start: Any = 0, end: Any = None) -> str:
    return s[_slice_bounds(start, end)]


def s_split(sc: Scope, s: str, separator: Any, n: Any = None) -> tuple[str, ...]:
    if isinstance(separator, Regex):
        parts = list(_timed("split", lambda: separator.compiled.split(s, timeout=REGEX_TIMEOUT)))
        parts = ["" if p is None else p for p in parts]
    else:
        sep = to_string(separator)
        parts = list(s) if sep == "" else s.split(sep)
    if n is not None:
        parts = parts[:max(0, _int(n, "split"))]
    return tuple(parts)


_WORD_START = re.compile(r"(^|\s)(\S)")


def s_title(sc: Scope, s: str) -> str:
    return _WORD_START.sub(lambda m: m.group(1) + m.group(2).upper(), s)


def s_trim(sc: Scope, s: str) -> str:
    return s.strip()


STRING: dict[str, MethodFn] = {
    "contains": s_contains, "containsAll": s_contains_all, "containsAny": s_contains_any,
    "endsWith": s_ends_with, "startsWith": s_starts_with, "lower": s_lower,
    "replace": s_replace, "repeat": s_repeat, "reverse": s_reverse, "slice": s_slice,
    "split": s_split, "title": s_title, "trim": s_trim,
}


# ---------------------------------------------------------------- number

def n_abs(sc: Scope, n: float) -> float:
    return abs(n)


def _whole(value: float) -> float | int:
    return int(value) if math.isfinite(value) else value


def n_ceil(sc: Scope, n: float) -> float | int:
    return _whole(math.ceil(n)) if math.isfinite(n) else n


def n_floor(sc: Scope, n: float) -> float | int:
    return _whole(math.floor(n)) if math.isfinite(n) else n


def n_round(sc: Scope, n: float, digits: Any = None) -> float | int:
    """JavaScript's ``Math.round`` (halves up: 2.5 -> 3, -2.5 -> -2), to ``digits``."""
    if not math.isfinite(n):
        return n
    places = 0 if digits is None else _int(digits, "round")
    if not 0 <= places <= 100:
        raise ExprError("round() digits must be between 0 and 100")
    factor = 10 ** places
    result = math.floor(n * factor + 0.5) / factor
    return int(result) if places == 0 else result


def n_to_fixed(sc: Scope, n: float, precision: Any = 0) -> str:
    """``toFixed``: the exact binary value rounded half up, as JavaScript does."""
    places = _int(precision, "toFixed")
    if not 0 <= places <= 100:
        raise ExprError("toFixed() precision must be between 0 and 100")
    if not math.isfinite(n):
        return to_string(n)
    if math.fmod(abs(n) * 10 ** places, 1) != 0.5:  # not a tie: Python rounds the same
        return f"{n:.{places}f}"
    try:
        return str(Decimal(n).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    except InvalidOperation:
        return to_string(n)


NUMBER: dict[str, MethodFn] = {"abs": n_abs, "ceil": n_ceil, "floor": n_floor,
                               "round": n_round, "toFixed": n_to_fixed}


# ---------------------------------------------------------------- list

def l_contains(sc: Scope, items: tuple[Any, ...], value: Any) -> bool:
    return any(equals(item, value, sc.ctx) for item in items)


def l_contains_all(sc: Scope, items: tuple[Any, ...], *values: Any) -> bool:
    return all(l_contains(sc, items, v) for v in values)


def l_contains_any(sc: Scope, items: tuple[Any, ...], *values: Any) -> bool:
    return any(l_contains(sc, items, v) for v in values)


def l_filter(sc: Scope, items: tuple[Any, ...], fn: Fn) -> tuple[Any, ...]:
    return tuple(v for i, v in enumerate(items)
                 if truthy(fn(sc.child({"value": v, "index": i}))))


def l_map(sc: Scope, items: tuple[Any, ...], fn: Fn) -> tuple[Any, ...]:
    return tuple(fn(sc.child({"value": v, "index": i})) for i, v in enumerate(items))


def l_reduce(sc: Scope, items: tuple[Any, ...], fn: Fn, initial: Fn | None = None) -> Any:
    acc = initial(sc) if initial is not None else None
    for i, v in enumerate(items):
        acc = fn(sc.child({"value": v, "index": i, "acc": acc}))
    return acc


def l_flat(sc: Scope, items: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_flatten(items))


def l_join(sc: Scope, items: tuple[Any, ...], separator: Any = ",") -> str:
    return to_string(separator).join(to_string(v) for v in items)


def l_reverse(sc: Scope, items: tuple[Any, ...]) -> tuple[Any, ...]:
    return items[::-1]


def l_slice(sc: Scope, items: tuple[Any, ...], start: Any = 0,
            end: Any = None) -> tuple[Any, ...]:
    return items[_slice_bounds(start, end)]


def l_sort(sc: Scope, items: tuple[Any, ...]) -> tuple[Any, ...]:
    present = [v for v in items if not is_empty(v) or v == ""]
    missing = [v for v in items if is_empty(v) and v != ""]
    return tuple(sorted(present, key=sort_key)) + tuple(missing)


def l_unique(sc: Scope, items: tuple[Any, ...]) -> tuple[Any, ...]:
    seen: set[Any] = set()
    out: list[Any] = []
    for v in items:
        key = key_of(v, sc.ctx)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return tuple(out)


def l_mean(sc: Scope, items: tuple[Any, ...]) -> Any:
    numbers = [float(v) for v in items if is_number(v)]
    return sum(numbers) / len(numbers) if numbers else None


LIST: dict[str, MethodFn] = {
    "contains": l_contains, "containsAll": l_contains_all, "containsAny": l_contains_any,
    "filter": l_filter, "map": l_map, "reduce": l_reduce, "flat": l_flat, "join": l_join,
    "reverse": l_reverse, "slice": l_slice, "sort": l_sort, "unique": l_unique,
    "mean": l_mean,
}
#: list methods whose arguments are expressions evaluated per element
LAMBDA_METHODS = frozenset({"filter", "map", "reduce"})


# ---------------------------------------------------------------- link and file

def k_as_file(sc: Scope, link: Link) -> Any:
    return sc.ctx.record_of(link)


def k_links_to(sc: Scope, link: Link, other: Any) -> bool:
    record = sc.ctx.record_of(link)
    return record is not None and f_has_link(sc, record, other)


LINK: dict[str, MethodFn] = {"asFile": k_as_file, "linksTo": k_links_to}


def f_as_link(sc: Scope, record: FileRecord, display: Any = None) -> Link:
    return Link(record.path, display, record.path)


def f_has_link(sc: Scope, record: FileRecord, other: Any) -> bool:
    other = unwrap(other)
    if other is None:
        return False
    if isinstance(other, FileRecord):
        path: str | None = other.path
        text = other.path
    elif isinstance(other, Link):
        path, text = sc.ctx.link_path(other), other.target
    else:
        text = to_string(other)
        found = sc.ctx.resolve(text)
        path = found.path if found is not None else None
    wanted = text.strip().lower().removesuffix(".md")
    for link in record.links + record.embeds:
        target = sc.ctx.link_path(link)
        if (path is not None and target == path) or (
                target is None and link.target.strip().lower().removesuffix(".md") == wanted):
            return True
    return False


def f_has_property(sc: Scope, record: FileRecord, name: Any) -> bool:
    key = to_string(name)
    return key.removeprefix("note.") in record.properties


def f_has_tag(sc: Scope, record: FileRecord, *tags: Any) -> bool:
    keys = record.tag_keys
    return any(to_string(t).lstrip("#").lower() in keys for t in tags)


def f_in_folder(sc: Scope, record: FileRecord, folder: Any) -> bool:
    wanted = to_string(folder).strip("/")
    return not wanted or record.folder == wanted or record.folder.startswith(wanted + "/")


FILE: dict[str, MethodFn] = {"asLink": f_as_link, "hasLink": f_has_link,
                             "hasProperty": f_has_property, "hasTag": f_has_tag,
                             "inFolder": f_in_folder}


# ---------------------------------------------------------------- object and regexp

def o_keys(sc: Scope, obj: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(obj.keys())


def o_values(sc: Scope, obj: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(obj.values())


OBJECT: dict[str, MethodFn] = {"keys": o_keys, "values": o_values}


def r_matches(sc: Scope, regex: Regex, value: Any) -> bool:
    return _timed("matches", lambda: regex.compiled.search(
        to_string(value), timeout=REGEX_TIMEOUT)) is not None


REGEXP: dict[str, MethodFn] = {"matches": r_matches}

#: type name (``values.type_name``) -> its methods (``ANY`` apply to every type)
METHODS: dict[str, dict[str, MethodFn]] = {
    "date": DATE, "string": STRING, "number": NUMBER, "list": LIST, "link": LINK,
    "file": FILE, "object": OBJECT, "regexp": REGEXP,
}
#: every method name some type has: anything else is an unknown function at parse time
METHOD_NAMES = frozenset(ANY).union(*METHODS.values())


_BY_TYPE: dict[type, dict[str, MethodFn]] = {
    str: STRING, int: NUMBER, float: NUMBER, tuple: LIST, Date: DATE, Link: LINK,
    FileRecord: FILE, Regex: REGEXP, bool: {}, type(None): {},
}


def call_method(sc: Scope, receiver: Any, name: str, args: tuple[Any, ...]) -> Any:
    """``receiver.name(args)``; on null every method but the ``ANY`` ones gives null."""
    if type(receiver) is ThisRef:
        receiver = receiver.record
    table = _BY_TYPE.get(type(receiver))
    if table is None:
        table = METHODS.get(type_name(receiver), {})
    fn = table.get(name) or ANY.get(name)
    if fn is None and type(receiver) is str and name in DATE:
        # a date kept as text ("2025-05-27" quoted in frontmatter) answers date methods
        as_date = parse_date(receiver)
        if as_date is not None:
            receiver, fn = as_date, DATE[name]
    kind = type_name(receiver) if fn is None else ""
    if fn is None:
        if receiver is None:
            return None
        raise ExprError(f"a {kind} has no method {name}()")
    try:
        return fn(sc, receiver, *args)
    except TypeError as exc:
        raise ExprError(f"{name}(): wrong number or kind of arguments ({exc})") from None

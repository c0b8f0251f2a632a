"""Dataview's functions (its "Functions" reference), by name.

Each takes the ``Evaluator`` (lambdas, linked pages, ``now``) and the evaluated
arguments.  Functions Dataview "vectorizes" map over a list given as their
first argument (``lower(["A", "B"])`` is ``["a", "b"]``).  Regular expressions
run on the ``regex`` module with a time limit, so a hostile pattern in a note
cannot hang a build.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import regex

from ..frozen import FrozenDict
from .arithmetic import binary_op
from .dates import date_only, format_date, format_duration, parse_duration, parse_iso
from .dates import parse_with_format as parse_date_format
from .errors import DataviewError
from .text import to_text
from .values import Duration, ExternalLink, Lambda, Link, compare, sort_key, truthy, type_name


class Evaluator(Protocol):
    """What a function may ask of the evaluator calling it (``evaluate.Evaluator``)."""

    page_of: Callable[[Link], Mapping[str, Any] | None]
    normalize_link: Callable[[Link], Link]

    @property
    def now(self) -> dt.datetime: ...

    def call_lambda(self, fn: Any, args: tuple[Any, ...],
                    where: tuple[int, int] = (0, 0)) -> Any: ...

    def index(self, obj: Any, key: Any) -> Any: ...


Func = Callable[["Evaluator", tuple[Any, ...]], Any]
FUNCTIONS: dict[str, Func] = {}

#: a regular expression gets this long (seconds) on one value, then the query fails
REGEX_TIMEOUT = 0.25
_MAX_PATTERN = 1000


def _register(*names: str, vectorize: bool = False, arity: tuple[int, int] = (0, 99)) -> Callable[
        [Func], Func]:
    def wrap(fn: Func) -> Func:
        lo, hi = arity

        @functools.wraps(fn)
        def checked(ev: Evaluator, args: tuple[Any, ...]) -> Any:
            if not lo <= len(args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                raise DataviewError(f"{names[0]}() takes {want} arguments, got {len(args)}")
            if vectorize and args and isinstance(args[0], tuple | list):
                return tuple(fn(ev, (item, *args[1:])) for item in args[0])
            return fn(ev, args)

        for name in names:
            FUNCTIONS[name] = checked
        return checked
    return wrap


def _num(value: Any, fn: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    raise DataviewError(f"{fn}() expects a number, got {type_name(value)}")


def _str(value: Any, fn: str) -> str:
    if isinstance(value, str):
        return value
    raise DataviewError(f"{fn}() expects text, got {type_name(value)}")


def _seq(value: Any, fn: str) -> tuple[Any, ...]:
    if isinstance(value, tuple | list):
        return tuple(value)
    raise DataviewError(f"{fn}() expects a list, got {type_name(value)}")


def _int_result(value: float) -> float:
    return int(value) if isinstance(value, float) and value.is_integer() else value


# -- constructors ---------------------------------------------------------------------


@_register("object")
def _object(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if len(a) % 2:
        raise DataviewError("object() takes keys and values in pairs")
    out: dict[str, Any] = {}
    for key, value in zip(a[::2], a[1::2], strict=True):
        out[_str(key, "object")] = value
    return FrozenDict(out)


@_register("list", "array")
def _list(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return tuple(a)


@_register("date", arity=(1, 2), vectorize=True)
def _date(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    value = a[0]
    if len(a) == 2:
        if value is None:
            return None
        return parse_date_format(_str(value, "date"), _str(a[1], "date"))
    if value is None or isinstance(value, dt.datetime):
        return value
    if isinstance(value, Link):
        page = ev.page_of(value)
        day = ev.index(page.get("file"), "day") if page is not None else None
        return day if day is not None else parse_iso(value.file_name())
    if isinstance(value, str):
        from .dates import relative_date

        return parse_iso(value) or relative_date(value.strip(), ev.now)
    return None


@_register("dur", arity=(1, 1), vectorize=True)
def _dur(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    value = a[0]
    if value is None or isinstance(value, Duration):
        return value
    if isinstance(value, str):
        return parse_duration(value)
    return None


_FIRST_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@_register("number", arity=(1, 1), vectorize=True)
def _number(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    value = a[0]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        m = _FIRST_NUMBER.search(value)
        if m:
            return float(m.group()) if "." in m.group() else int(m.group())
    return None


@_register("string", arity=(1, 1))
def _string(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return to_text(a[0])


@_register("link", arity=(1, 2), vectorize=True)
def _link(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    target = a[0]
    if target is None:
        return None
    display = to_text(a[1]) if len(a) > 1 and a[1] is not None else None
    if isinstance(target, Link):
        return Link(target.path, display if display is not None else target.display,
                    target.subpath, target.embed, target.kind)
    from .parser import parse_link_text

    text = _str(target, "link")
    link = parse_link_text(text[2:-2] if text.startswith("[[") and text.endswith("]]") else text)
    if display is not None:
        link = Link(link.path, display, link.subpath, link.embed, link.kind)
    return ev.normalize_link(link)


@_register("embed", arity=(1, 2), vectorize=True)
def _embed(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    link = a[0]
    if link is None:
        return None
    if not isinstance(link, Link):
        raise DataviewError(f"embed() expects a link, got {type_name(link)}")
    flag = truthy(a[1]) if len(a) > 1 else True
    return Link(link.path, link.display, link.subpath, flag, link.kind)


@_register("elink", arity=(1, 2), vectorize=True)
def _elink(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    display = to_text(a[1]) if len(a) > 1 and a[1] is not None else None
    return ExternalLink(_str(a[0], "elink"), display)


@_register("typeof", arity=(1, 1))
def _typeof(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return type_name(a[0])


# -- numbers --------------------------------------------------------------------------


@_register("round", arity=(1, 2), vectorize=True)
def _round(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    x = _num(a[0], "round")
    digits = int(_num(a[1], "round")) if len(a) > 1 and a[1] is not None else 0
    if not math.isfinite(x):
        return x
    scale = 10 ** digits
    return _int_result(math.floor(x * scale + 0.5) / scale)


def _rounder(name: str, op: Callable[[float], float]) -> None:
    @_register(name, arity=(1, 1), vectorize=True)
    def fn(ev: Evaluator, a: tuple[Any, ...]) -> Any:
        if a[0] is None:
            return None
        x = _num(a[0], name)
        return int(op(x)) if math.isfinite(x) else x


_rounder("trunc", math.trunc)
_rounder("floor", math.floor)
_rounder("ceil", math.ceil)


def _spread(a: tuple[Any, ...]) -> tuple[Any, ...]:
    if len(a) == 1 and isinstance(a[0], tuple | list):
        return tuple(a[0])
    return a


@_register("min")
def _min(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    values = _spread(a)
    return min(values, key=sort_key) if values else None


@_register("max")
def _max(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    values = _spread(a)
    return max(values, key=sort_key) if values else None


def _fold(op: str, values: tuple[Any, ...]) -> Any:
    if not values:
        return None
    acc = values[0]
    for v in values[1:]:
        if op == "&":
            acc = truthy(acc) and truthy(v)
        elif op == "|":
            acc = truthy(acc) or truthy(v)
        else:
            acc = binary_op(op, acc, v)
    return acc


@_register("sum", arity=(1, 1))
def _sum(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    return _fold("+", _seq(a[0], "sum"))


@_register("product", arity=(1, 1))
def _product(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    return _fold("*", _seq(a[0], "product"))


@_register("reduce", arity=(2, 2))
def _reduce(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    values = _seq(a[0], "reduce")
    op = a[1]
    if isinstance(op, Lambda):
        if not values:
            return None
        acc = values[0]
        for v in values[1:]:
            acc = ev.call_lambda(op, (acc, v))
        return acc
    if op not in ("+", "-", "*", "/", "&", "|"):
        raise DataviewError(f"reduce(): unknown operand {to_text(op)!r} "
                            "(use \"+\", \"-\", \"*\", \"/\", \"&\" or \"|\")")
    return _fold(op, values)


@_register("average", arity=(1, 1))
def _average(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    values = _seq(a[0], "average")
    if not values:
        return None
    return binary_op("/", _fold("+", values), len(values))


@_register("minby", arity=(2, 2))
def _minby(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    values = _seq(a[0], "minby")
    if not values:
        return None
    return min(values, key=lambda v: sort_key(ev.call_lambda(a[1], (v,))))


@_register("maxby", arity=(2, 2))
def _maxby(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    values = _seq(a[0], "maxby")
    if not values:
        return None
    return max(values, key=lambda v: sort_key(ev.call_lambda(a[1], (v,))))


# -- containers and text --------------------------------------------------------------


def _contains(container: Any, value: Any, fold: bool) -> bool:
    if isinstance(container, Mapping):
        return isinstance(value, str) and value in container
    if isinstance(container, tuple | list):
        return any(_contains(v, value, fold) for v in container)
    if isinstance(container, str):
        if not isinstance(value, str):
            return False
        return value.lower() in container.lower() if fold else value in container
    if fold and isinstance(container, str) and isinstance(value, str):
        return container.lower() == value.lower()
    return compare(container, value) == 0


@_register("contains", arity=(2, 2))
def _contains_fn(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return _contains(a[0], a[1], False)


@_register("icontains", arity=(2, 2))
def _icontains(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return _contains(a[0], a[1], True)


@_register("econtains", arity=(2, 2))
def _econtains(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    container, value = a
    if isinstance(container, Mapping):
        return isinstance(value, str) and value in container
    if isinstance(container, tuple | list):
        return any(compare(v, value) == 0 for v in container)
    if isinstance(container, str):
        return isinstance(value, str) and value in container
    return compare(container, value) == 0


@_register("containsword", arity=(2, 2), vectorize=True)
def _containsword(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return False
    text = _str(a[0], "containsword")
    word = _str(a[1], "containsword")
    return re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.IGNORECASE) is not None


@_register("extract")
def _extract(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if not a:
        raise DataviewError("extract() needs an object")
    obj = a[0]
    if not isinstance(obj, Mapping):
        raise DataviewError(f"extract() expects an object, got {type_name(obj)}")
    return FrozenDict({k: obj.get(k) for k in a[1:] if isinstance(k, str)})


@_register("sort", arity=(1, 2))
def _sort(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    values = _seq(a[0], "sort")
    if len(a) > 1 and a[1] is not None:
        return tuple(sorted(values, key=lambda v: sort_key(ev.call_lambda(a[1], (v,)))))
    return tuple(sorted(values, key=sort_key))


@_register("reverse", arity=(1, 1))
def _reverse(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    if isinstance(a[0], str):
        return a[0][::-1]
    return tuple(reversed(_seq(a[0], "reverse")))


@_register("length", arity=(1, 1))
def _length(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    value = a[0]
    if value is None:
        return 0
    if isinstance(value, tuple | list | Mapping | str):
        return len(value)
    return 0


@_register("nonnull", arity=(1, 1))
def _nonnull(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return tuple(v for v in _seq(a[0], "nonnull") if v is not None)


@_register("firstvalue", arity=(1, 1))
def _firstvalue(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return next((v for v in _seq(a[0], "firstvalue") if v is not None), None)


def _quantifier(name: str, test: Callable[[list[bool]], bool]) -> None:
    @_register(name)
    def fn(ev: Evaluator, a: tuple[Any, ...]) -> Any:
        if len(a) == 2 and isinstance(a[1], Lambda):
            values = _seq(a[0], name)
            return test([truthy(ev.call_lambda(a[1], (v,))) for v in values])
        values = _spread(a)
        return test([truthy(v) for v in values])


_quantifier("all", all)
_quantifier("any", any)
_quantifier("none", lambda flags: not any(flags))


@_register("join", arity=(1, 2))
def _join(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    sep = to_text(a[1]) if len(a) > 1 and a[1] is not None else ", "
    if isinstance(a[0], tuple | list):
        return sep.join(to_text(v) for v in a[0])
    return to_text(a[0])


@_register("filter", arity=(2, 2))
def _filter(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    return tuple(v for v in _seq(a[0], "filter") if truthy(ev.call_lambda(a[1], (v,))))


@_register("map", arity=(2, 2))
def _map(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    return tuple(ev.call_lambda(a[1], (v,)) for v in _seq(a[0], "map"))


@_register("unique", arity=(1, 1))
def _unique(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    out: list[Any] = []
    for v in _seq(a[0], "unique"):
        if not any(compare(v, seen) == 0 for seen in out):
            out.append(v)
    return tuple(out)


def _flatten(values: tuple[Any, ...], depth: int) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if depth > 0 and isinstance(v, tuple | list):
            out.extend(_flatten(tuple(v), depth - 1))
        else:
            out.append(v)
    return out


@_register("flat", arity=(1, 2))
def _flat(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    depth = int(_num(a[1], "flat")) if len(a) > 1 and a[1] is not None else 1
    return tuple(_flatten(_seq(a[0], "flat"), min(depth, 100)))


def _js_index(i: Any, length: int, default: int, fn: str) -> int:
    if i is None:
        return default
    k = int(_num(i, fn))
    return max(0, length + k) if k < 0 else min(k, length)


@_register("slice", arity=(1, 3))
def _slice(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    values = _seq(a[0], "slice")
    start = _js_index(a[1] if len(a) > 1 else None, len(values), 0, "slice")
    end = _js_index(a[2] if len(a) > 2 else None, len(values), len(values), "slice")
    return values[start:end]


def _compile(pattern: Any, fn: str) -> Any:
    text = _str(pattern, fn)
    if len(text) > _MAX_PATTERN:
        raise DataviewError(f"{fn}(): a pattern longer than {_MAX_PATTERN} characters")
    try:
        return _cached_pattern(text)
    except regex.error as exc:
        raise DataviewError(f"{fn}(): not a valid regular expression: {exc}") from None


@functools.lru_cache(maxsize=256)
def _cached_pattern(text: str) -> Any:
    return regex.compile(text, regex.V0)


def _timed(fn: str, call: Callable[[], Any]) -> Any:
    try:
        return call()
    except TimeoutError:
        raise DataviewError(f"{fn}(): the regular expression takes too long") from None


@_register("regextest", arity=(2, 2))
def _regextest(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[1] is None:
        return False
    pat = _compile(a[0], "regextest")
    text = _str(a[1], "regextest")
    return _timed("regextest", lambda: pat.search(text, timeout=REGEX_TIMEOUT) is not None)


@_register("regexmatch", arity=(2, 2))
def _regexmatch(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[1] is None:
        return False
    pat = _compile(a[0], "regexmatch")
    text = _str(a[1], "regexmatch")
    return _timed("regexmatch", lambda: pat.fullmatch(text, timeout=REGEX_TIMEOUT) is not None)


def _js_replacement(template: str) -> Callable[[Any], str]:
    """A JavaScript replacement string (``$1``, ``$&``, ``$$``, ``$<name>``) as a
    function of the match."""
    def expand(m: Any) -> str:
        out: list[str] = []
        i = 0
        while i < len(template):
            ch = template[i]
            if ch == "$" and i + 1 < len(template):
                nxt = template[i + 1]
                if nxt == "$":
                    out.append("$")
                    i += 2
                    continue
                if nxt == "&":
                    out.append(m.group(0))
                    i += 2
                    continue
                digits = re.match(r"\d{1,2}", template[i + 1:])
                if digits:
                    num = digits.group()
                    if len(num) == 2 and int(num) > (m.re.groups or 0):
                        num = num[0]
                    if 0 < int(num) <= (m.re.groups or 0):
                        out.append(m.group(int(num)) or "")
                        i += 1 + len(num)
                        continue
                named = re.match(r"<([^>]*)>", template[i + 1:])
                if named and named.group(1) in m.re.groupindex:
                    out.append(m.group(named.group(1)) or "")
                    i += 1 + len(named.group())
                    continue
            out.append(ch)
            i += 1
        return "".join(out)
    return expand


@_register("regexreplace", arity=(3, 3), vectorize=True)
def _regexreplace(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    text = _str(a[0], "regexreplace")
    pat = _compile(a[1], "regexreplace")
    repl = _js_replacement(_str(a[2], "regexreplace"))
    return _timed("regexreplace", lambda: pat.sub(repl, text, timeout=REGEX_TIMEOUT))


@_register("replace", arity=(3, 3), vectorize=True)
def _replace(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    return _str(a[0], "replace").replace(_str(a[1], "replace"), _str(a[2], "replace"))


@_register("lower", arity=(1, 1), vectorize=True)
def _lower(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return None if a[0] is None else _str(a[0], "lower").lower()


@_register("upper", arity=(1, 1), vectorize=True)
def _upper(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return None if a[0] is None else _str(a[0], "upper").upper()


@_register("split", arity=(2, 3))
def _split(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    text = _str(a[0], "split")
    pat = _compile(a[1], "split")
    parts = _timed("split", lambda: pat.split(text, timeout=REGEX_TIMEOUT))
    out = tuple("" if p is None else p for p in parts)
    if len(a) > 2 and a[2] is not None:
        out = out[:max(0, int(_num(a[2], "split")))]
    return out


@_register("startswith", arity=(2, 2), vectorize=True)
def _startswith(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return False
    return _str(a[0], "startswith").startswith(_str(a[1], "startswith"))


@_register("endswith", arity=(2, 2), vectorize=True)
def _endswith(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return False
    return _str(a[0], "endswith").endswith(_str(a[1], "endswith"))


def _pad(a: tuple[Any, ...], fn: str) -> tuple[str, str]:
    text = to_text(a[0]) if not isinstance(a[0], str) else a[0]
    width = min(int(_num(a[1], fn)), 10_000)
    pad = _str(a[2], fn) if len(a) > 2 and a[2] is not None else " "
    if width <= len(text) or not pad:
        return text, ""
    need = width - len(text)
    return text, (pad * (need // len(pad) + 1))[:need]


@_register("padleft", arity=(2, 3), vectorize=True)
def _padleft(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    text, fill = _pad(a, "padleft")
    return fill + text


@_register("padright", arity=(2, 3), vectorize=True)
def _padright(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    text, fill = _pad(a, "padright")
    return text + fill


@_register("substring", arity=(2, 3), vectorize=True)
def _substring(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    text = _str(a[0], "substring")
    start = max(0, min(int(_num(a[1], "substring")), len(text)))
    end = len(text)
    if len(a) > 2 and a[2] is not None:
        end = max(0, min(int(_num(a[2], "substring")), len(text)))
    if start > end:
        start, end = end, start
    return text[start:end]


@_register("truncate", arity=(2, 3), vectorize=True)
def _truncate(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    text = _str(a[0], "truncate")
    length = int(_num(a[1], "truncate"))
    suffix = _str(a[2], "truncate") if len(a) > 2 and a[2] is not None else "..."
    if len(text) <= length:
        return text
    return text[:max(0, length - len(suffix))] + suffix


# -- utility --------------------------------------------------------------------------


@_register("default", arity=(2, 2))
def _default(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    value, fallback = a
    if isinstance(value, tuple | list):
        if isinstance(fallback, tuple | list):
            return tuple(fb if v is None else v for v, fb in zip(value, fallback, strict=False))
        return tuple(fallback if v is None else v for v in value)
    return fallback if value is None else value


@_register("ldefault", arity=(2, 2))
def _ldefault(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return a[1] if a[0] is None else a[0]


@_register("choice", arity=(3, 3))
def _choice(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return a[1] if truthy(a[0]) else a[2]


@_register("hash", arity=(1, 3))
def _hash(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    text = "\x00".join(to_text(v) for v in a)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:6], "big")


@_register("striptime", arity=(1, 1), vectorize=True)
def _striptime(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    if not isinstance(a[0], dt.datetime):
        raise DataviewError(f"striptime() expects a date, got {type_name(a[0])}")
    return date_only(a[0])


@_register("dateformat", arity=(2, 2), vectorize=True)
def _dateformat(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    if not isinstance(a[0], dt.datetime):
        raise DataviewError(f"dateformat() expects a date, got {type_name(a[0])}")
    return format_date(a[0], _str(a[1], "dateformat"))


@_register("durationformat", arity=(2, 2), vectorize=True)
def _durationformat(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    if not isinstance(a[0], Duration):
        raise DataviewError(f"durationformat() expects a duration, got {type_name(a[0])}")
    return format_duration(a[0], _str(a[1], "durationformat"))


_CURRENCY = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "CN¥", "INR": "₹",
             "KRW": "₩", "CAD": "CA$", "AUD": "A$", "BRL": "R$", "MXN": "MX$", "ILS": "₪",
             "VND": "₫", "NZD": "NZ$", "HKD": "HK$", "TWD": "NT$", "PHP": "₱"}
_NO_DECIMALS = {"JPY", "KRW", "VND", "CLP", "ISK"}


@_register("currencyformat", arity=(1, 2), vectorize=True)
def _currencyformat(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    if a[0] is None:
        return None
    x = _num(a[0], "currencyformat")
    code = _str(a[1], "currencyformat").upper() if len(a) > 1 and a[1] is not None else "USD"
    digits = 0 if code in _NO_DECIMALS else 2
    body = f"{abs(x):,.{digits}f}"
    symbol = _CURRENCY.get(code, code + "\u00a0")
    return ("-" if x < 0 else "") + symbol + body


@_register("localtime", arity=(1, 1), vectorize=True)
def _localtime(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    return a[0]


@_register("meta", arity=(1, 1), vectorize=True)
def _meta(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    link = a[0]
    if link is None:
        return None
    if not isinstance(link, Link):
        raise DataviewError(f"meta() expects a link, got {type_name(link)}")
    return FrozenDict({"display": link.display, "embed": link.embed, "path": link.path,
                       "subpath": link.subpath, "type": link.kind})


@_register("display", arity=(1, 1))
def _display(ev: Evaluator, a: tuple[Any, ...]) -> Any:
    value = a[0]
    if isinstance(value, Link):
        return value.text()
    if isinstance(value, ExternalLink):
        return value.display or value.url
    if isinstance(value, tuple | list):
        return ", ".join(_display(ev, (v,)) for v in value)
    text = to_text(value)
    # Markdown emphasis and code marks dropped, as the rendered text shows
    return re.sub(r"(\*\*|__|~~|==|`)", "", text)


#: Dataview functions not provided here, and why: none of the function reference.
#: (``srandom``, used on Dataview's examples page, is not a Dataview function.)
NOT_SUPPORTED: dict[str, str] = {}

"""Expressions compiled to Python closures, evaluated against a row.

``Evaluator.compile(node)`` turns a parsed expression into a function of
``(row, scope)`` once per query, so a query over thousands of pages does no
tree-walking per row.  The operators follow Dataview's rules: null propagates
through arithmetic, ``and``/``or``/``!`` use truthiness, comparisons use
``values.compare`` (nulls first, then by type), a date minus a date is a
duration, text plus anything is text.  An operation Dataview has no rule for
(``true + 1``) is a ``DataviewError`` at the expression's line and column.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..frozen import FrozenDict
from . import nodes as n
from .arithmetic import _reason, binary_op
from .dates import relative_date
from .errors import DataviewError
from .index import FileObject
from .text import to_text
from .values import DURATION_UNITS, Duration, Lambda, Link, compare, truthy, type_name

Row = Mapping[str, Any]
#: objects read by ``.get`` directly (the index's rows and ``file`` objects)
_OBJECTS = frozenset({FrozenDict, dict, FileObject})
Scope = Mapping[str, Any] | None
Fn = Callable[[Row, Scope], Any]

_DATE_PARTS: dict[str, Callable[[dt.datetime], Any]] = {
    "year": lambda d: d.year,
    "month": lambda d: d.month,
    "day": lambda d: d.day,
    "hour": lambda d: d.hour,
    "minute": lambda d: d.minute,
    "second": lambda d: d.second,
    "millisecond": lambda d: d.microsecond // 1000,
    "week": lambda d: d.isocalendar()[1],
    "weekyear": lambda d: d.isocalendar()[0],
    "weekday": lambda d: d.isoweekday(),
    "quarter": lambda d: (d.month - 1) // 3 + 1,
    "ordinal": lambda d: d.timetuple().tm_yday,
}
_DURATION_PARTS = {u: u for u in DURATION_UNITS} | {u[:-1]: u for u in DURATION_UNITS}


@dataclass
class Reads:
    """What one query read besides the rows of its source's pages (``run(reads=)``):
    another page (through a link, ``file.inlinks``, ``file.outlinks``, a link
    source), ``this``, the clock; and the paths its source gave."""

    other: bool = False
    now: bool = False
    this: bool = False
    source: frozenset[str] = frozenset()


class Evaluator:
    """Compiles and runs expressions for one query: the page index (links index
    through to pages), ``this`` (the page holding the query) and ``now``."""

    def __init__(
        self,
        page_of: Callable[[Link], Row | None],
        this: Row | None,
        now: dt.datetime,
        normalize_link: Callable[[Link], Link] | None = None,
        reads: Reads | None = None,
    ) -> None:
        self.page_of = page_of
        self._this: Row = this or {}
        self._now = now
        self.normalize_link = normalize_link or (lambda link: link)
        self._params: list[frozenset[str]] = []
        self.reads = reads

    @property
    def this(self) -> Row:
        """The row of the page holding the query (noted in ``reads``)."""
        if self.reads is not None:
            self.reads.this = True
        return self._this

    @property
    def now(self) -> dt.datetime:
        """The moment ``date(now)`` means (noted in ``reads``)."""
        if self.reads is not None:
            self.reads.now = True
        return self._now

    # -- compile ----------------------------------------------------------------------
    def compile(self, node: n.Expr) -> Fn:
        """``node`` as a function of ``(row, scope)``; an expression of constants
        (``date(today) + dur(2 weeks)``) is evaluated once, here."""
        fn = self._compile(node)
        if isinstance(node, n.Binary | n.Unary | n.Call | n.ListExpr) and _constant(node):
            value = fn({}, None)
            return lambda row, scope: value
        return fn

    def _compile(self, node: n.Expr) -> Fn:  # noqa: C901 - one case per node type
        if isinstance(node, n.Literal):
            value = node.value
            if isinstance(value, Link):
                value = self._this_link(value) if not value.path else self.normalize_link(value)
            return lambda row, scope: value
        if isinstance(node, n.DateWord):
            date = relative_date(node.word, self.now)
            return lambda row, scope: date
        if isinstance(node, n.Field):
            return self._field(node.name)
        if isinstance(node, n.Index):
            obj = self.compile(node.obj)
            if isinstance(node.key, n.Literal) and isinstance(node.key.value, str):
                key_name = node.key.value
                index = self.index

                def named(row: Row, scope: Scope) -> Any:
                    value = obj(row, scope)
                    if type(value) in _OBJECTS:  # a page's row or file: no isinstance chain
                        return value.get(key_name)
                    return index(value, key_name)
                return named
            key = self.compile(node.key)
            return lambda row, scope: self.index(obj(row, scope), key(row, scope))
        if isinstance(node, n.Call):
            return self._call(node)
        if isinstance(node, n.ListExpr):
            items = [self.compile(i) for i in node.items]
            return lambda row, scope: tuple(f(row, scope) for f in items)
        if isinstance(node, n.ObjectExpr):
            from ..frozen import FrozenDict

            pairs = [(k, self.compile(v)) for k, v in node.pairs]
            return lambda row, scope: FrozenDict({k: f(row, scope) for k, f in pairs})
        if isinstance(node, n.LambdaExpr):
            return self._lambda(node)
        if isinstance(node, n.Unary):
            return self._unary(node)
        if isinstance(node, n.Binary):
            return self._binary(node)
        raise DataviewError(f"cannot evaluate {type(node).__name__}", node.line, node.column)

    def _this_link(self, link: Link) -> Link:
        """``[[]]`` (or ``[[#Heading]]``): a link to the note holding the query."""
        file = self.this.get("file")
        own = file.get("link") if isinstance(file, Mapping) else None
        if not isinstance(own, Link):
            return link
        return Link(own.path, link.display, link.subpath, link.embed, link.kind)

    def _field(self, name: str) -> Fn:
        bound = any(name in p for p in self._params)
        if name == "this" and not bound:
            return lambda row, scope: self.this
        if name == "row" and not bound:
            return lambda row, scope: row
        if bound:
            def lookup(row: Row, scope: Scope) -> Any:
                if scope is not None and name in scope:
                    return scope[name]
                return row.get(name)
            return lookup
        return lambda row, scope: row.get(name)

    def _call(self, node: n.Call) -> Fn:
        from .functions import FUNCTIONS

        args = [self.compile(a) for a in node.args]
        where = (node.line, node.column)
        if any(node.name in p for p in self._params):
            name = node.name

            def call_bound(row: Row, scope: Scope) -> Any:
                fn = scope.get(name) if scope is not None else None
                if not isinstance(fn, Lambda):
                    raise DataviewError(f"'{name}' is not a function", *where)
                return self.call_lambda(fn, tuple(a(row, scope) for a in args), where)
            return call_bound
        spec = FUNCTIONS.get(node.name)
        if spec is None:
            raise DataviewError(f"unknown function '{node.name}'", *where)

        def call(row: Row, scope: Scope) -> Any:
            values = tuple(a(row, scope) for a in args)
            try:
                return spec(self, values)
            except DataviewError as exc:
                if not exc.line:
                    exc.line, exc.column = where
                raise
            except (TypeError, ValueError, OverflowError, ArithmeticError, IndexError,
                    KeyError, AttributeError, RecursionError) as exc:
                raise DataviewError(f"{node.name}(): {_reason(exc)}", *where) from None
        return call

    def _lambda(self, node: n.LambdaExpr) -> Fn:
        params = node.params
        self._params.append(frozenset(params))
        try:
            body = self.compile(node.body)
        finally:
            self._params.pop()

        def make(row: Row, scope: Scope) -> Lambda:
            def invoke(args: tuple[Any, ...]) -> Any:
                inner = dict(scope or {})
                for i, p in enumerate(params):
                    inner[p] = args[i] if i < len(args) else None
                return body(row, inner)
            return Lambda(params, invoke)
        return make

    def call_lambda(self, fn: Any, args: tuple[Any, ...],
                    where: tuple[int, int] = (0, 0)) -> Any:
        if not isinstance(fn, Lambda):
            raise DataviewError(f"expected a function like (x) => ..., got {type_name(fn)}",
                                *where)
        return fn.call(args)

    def _unary(self, node: n.Unary) -> Fn:
        operand = self.compile(node.operand)
        where = (node.line, node.column)
        if node.op == "!":
            return lambda row, scope: not truthy(operand(row, scope))

        def negate(row: Row, scope: Scope) -> Any:
            value = operand(row, scope)
            if value is None:
                return None
            if isinstance(value, int | float) and not isinstance(value, bool):
                return -value
            if isinstance(value, Duration):
                return value.scaled(-1)
            raise DataviewError(f"cannot negate a {type_name(value)}", *where)
        return negate

    def _binary(self, node: n.Binary) -> Fn:
        left = self.compile(node.left)
        right = self.compile(node.right)
        op = node.op
        where = (node.line, node.column)
        if op == "and":
            return lambda row, scope: truthy(left(row, scope)) and truthy(right(row, scope))
        if op == "or":
            return lambda row, scope: truthy(left(row, scope)) or truthy(right(row, scope))
        if op in _COMPARE:
            test = _COMPARE[op]
            return lambda row, scope: test(compare(left(row, scope), right(row, scope)))

        def arith(row: Row, scope: Scope) -> Any:
            return binary_op(op, left(row, scope), right(row, scope), where)
        return arith

    # -- values -----------------------------------------------------------------------
    def index(self, obj: Any, key: Any) -> Any:
        """``obj.key`` / ``obj[key]``: a field of an object or a linked page, an
        element of a list (a text key maps over the list: ``rows.file.name``), a
        part of a date or a duration."""
        if obj is None or key is None:
            return None
        if isinstance(obj, Mapping):
            return obj.get(key) if isinstance(key, str) else obj.get(to_text(key))
        if isinstance(obj, tuple | list):
            if isinstance(key, int | float) and not isinstance(key, bool):
                i = int(key)
                return obj[i] if 0 <= i < len(obj) and i == key else None
            if isinstance(key, str):
                return tuple(self.index(v, key) for v in obj)
            return None
        if isinstance(obj, Link):
            if not isinstance(key, str):
                return None
            page = self.page_of(obj)
            return page.get(key) if page is not None else None
        if isinstance(obj, dt.datetime) and isinstance(key, str):
            part = _DATE_PARTS.get(key.lower())
            return part(obj) if part else None
        if isinstance(obj, Duration) and isinstance(key, str):
            unit = _DURATION_PARTS.get(key.lower())
            return obj.as_unit(unit) if unit else None
        if isinstance(obj, str):
            if key == "length":
                return len(obj)
            if isinstance(key, int) and not isinstance(key, bool):
                return obj[key] if 0 <= key < len(obj) else None
        return None


def _constant(node: n.Expr) -> bool:
    """Does ``node`` depend on nothing but literals (no field, no lambda)?"""
    if isinstance(node, n.Literal | n.DateWord):
        return True
    if isinstance(node, n.Binary):
        return _constant(node.left) and _constant(node.right)
    if isinstance(node, n.Unary):
        return _constant(node.operand)
    if isinstance(node, n.ListExpr):
        return all(_constant(i) for i in node.items)
    if isinstance(node, n.Call):
        return all(_constant(a) for a in node.args)
    return False


_COMPARE: dict[str, Callable[[int], bool]] = {
    "=": lambda c: c == 0,
    "!=": lambda c: c != 0,
    "<": lambda c: c < 0,
    ">": lambda c: c > 0,
    "<=": lambda c: c <= 0,
    ">=": lambda c: c >= 0,
}

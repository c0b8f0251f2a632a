"""Expressions -> Python closures (``compile_expression``), checked once, run per row.

A tree is turned into nested closures of one ``Scope`` each: no tree walk per
row, and common shapes (``note.x``, ``file.name``, ``formula.x``, a comparison
with a literal) get a closure of their own.  Names: ``file``, ``note``,
``formula``, ``this``; ``value``/``index``/``acc``/``values`` when bound by a list
method or a summary; any other name is a note property.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..frozen import FrozenDict
from . import ast
from .context import Fn, Scope
from .dates import parse_date
from .errors import ExprError
from .functions import (
    DATE_FIELDS,
    DURATION_FIELDS,
    FILE,
    LAMBDA_METHODS,
    METHOD_NAMES,
    call_method,
)
from .global_functions import GLOBALS
from .ops import binary_arith, compare, equals, negate
from .values import Date, Duration, FileRecord, ThisRef, truthy

#: names a list method or a summary binds; elsewhere they are note properties
LOCAL_NAMES = frozenset({"value", "index", "acc", "values"})


class FormulaRef:
    """The value of the name ``formula``: ``formula.x`` evaluates formula ``x``."""

    __slots__ = ("scope",)

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def get(self, name: str) -> Any:
        return self.scope.formula(name)


def formula_refs(node: ast.Node) -> set[str]:
    """Names of the formulas an expression reads (``formula.x``, ``formula["x"]``)."""
    found: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Member) and n.obj == ast.Name("formula"):
            found.add(n.name)
        elif isinstance(n, ast.Index) and n.obj == ast.Name("formula") and \
                isinstance(n.key, ast.Literal) and isinstance(n.key.value, str):
            found.add(n.key.value)
    return found


def compile_expression(node: ast.Node) -> Fn:
    """A checked closure for ``node``; ``ExprError`` for an unknown function or
    a wrong number of arguments (before any row is evaluated)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            spec = GLOBALS.get(n.name)
            if n.name == "if":
                if not 2 <= len(n.args) <= 3:
                    raise ExprError("if() takes a condition, a value and an optional else")
            elif spec is None:
                raise ExprError(f"unknown function {n.name}()")
            elif not spec[1] <= len(n.args) <= spec[2]:
                raise ExprError(f"{n.name}() takes {_arity(spec[1], spec[2])}, "
                                f"not {len(n.args)}")
        elif isinstance(n, ast.Method) and n.name not in METHOD_NAMES:
            raise ExprError(f"unknown function {n.name}()")
    try:
        return _compile(node)
    except RecursionError:
        raise ExprError("expression nested too deeply") from None


def _arity(low: int, high: int) -> str:
    if low == high:
        return f"{low} argument{'s' if low != 1 else ''}"
    return f"at least {low} argument{'s' if low != 1 else ''}" if high > 99 else \
        f"{low} to {high} arguments"


def _compile(node: ast.Node) -> Fn:
    if isinstance(node, ast.Literal):
        value = node.value
        return lambda s: value
    if isinstance(node, ast.Name):
        return _name(node.name)
    if isinstance(node, ast.Member):
        return _member(node)
    if isinstance(node, ast.Index):
        obj, key = _compile(node.obj), _compile(node.key)
        return lambda s: get_index(obj(s), key(s), s)
    if isinstance(node, ast.Call):
        return _call(node)
    if isinstance(node, ast.Method):
        return _method(node)
    if isinstance(node, ast.Unary):
        operand = _compile(node.operand)
        if node.op == "!":
            return lambda s: not truthy(operand(s))
        if node.op == "-":
            return lambda s: negate(operand(s))
        return lambda s: negate(negate(operand(s)))
    if isinstance(node, ast.Binary):
        return _binary(node)
    if isinstance(node, ast.ListLit):
        items = tuple(_compile(i) for i in node.items)
        return lambda s: tuple(f(s) for f in items)
    if isinstance(node, ast.ObjectLit):
        pairs = tuple((k, _compile(v)) for k, v in node.pairs)
        return lambda s: {k: f(s) for k, f in pairs}
    raise ExprError(f"cannot evaluate {type(node).__name__}")


def _name(name: str) -> Fn:
    if name == "file":
        return lambda s: s.record
    if name == "note":
        return lambda s: s.record.properties
    if name == "formula":
        return FormulaRef
    if name == "this":
        return lambda s: s.ctx.this_ref
    if name in LOCAL_NAMES:
        def local(s: Scope) -> Any:
            if s.locals is not None and name in s.locals:
                return s.locals[name]
            return s.record.properties.get(name)
        return local
    return lambda s: s.record.properties.get(name)


FILE_FIELDS = frozenset({"name", "basename", "path", "folder", "ext", "size", "ctime",
                          "mtime", "tags", "links", "embeds", "backlinks"})


def _member(node: ast.Member) -> Fn:
    name = node.name
    if node.obj == ast.Name("note"):
        return lambda s: s.record.properties.get(name)
    if node.obj == ast.Name("formula"):
        return lambda s: s.formula(name)
    if node.obj == ast.Name("file") and name in FILE_FIELDS:
        return lambda s: getattr(s.record, name)
    obj = _compile(node.obj)
    return lambda s: get_member(obj(s), name, s)


def get_member(value: Any, name: str, s: Scope) -> Any:
    """``value.name``: a field of a file, date, duration, text or list, an object key."""
    kind = type(value)
    if kind is Duration:
        return int(value.total_ms / DURATION_FIELDS[name]) if name in DURATION_FIELDS else None
    if kind is Date:
        return DATE_FIELDS[name](value.dt) if name in DATE_FIELDS else None
    if kind is FrozenDict or kind is dict:
        return value.get(name)
    if isinstance(value, Mapping):
        return value.get(name)
    if isinstance(value, FileRecord):
        if name in FILE_FIELDS:
            return getattr(value, name)
        if name == "file":
            return value
        if name == "properties":
            return value.properties
        if name == "note":
            return value.properties
        return value.properties.get(name)
    if isinstance(value, ThisRef):
        if name == "file":
            return value.record
        if name == "note":
            return value.record.properties
        if name == "formula":
            return FormulaRef(s.ctx.this_scope())
        return value.record.properties.get(name)
    if isinstance(value, FormulaRef):
        return value.get(name)
    if isinstance(value, (str, tuple)) and name == "length":
        return len(value)
    if isinstance(value, Date) and name in DATE_FIELDS:
        return DATE_FIELDS[name](value.dt)
    if isinstance(value, str) and name in DATE_FIELDS:  # a date kept as text
        as_date = parse_date(value)
        return DATE_FIELDS[name](as_date.dt) if as_date is not None else None
    if isinstance(value, Duration) and name in DURATION_FIELDS:
        return int(value.total_ms / DURATION_FIELDS[name])
    return None


def get_index(value: Any, key: Any, s: Scope) -> Any:
    """``value[key]``: a list or text position, an object key, a property."""
    if isinstance(value, (tuple, str)):
        if isinstance(key, bool) or not isinstance(key, (int, float)):
            return get_member(value, key, s) if isinstance(key, str) else None
        if key != key or key < 0 or int(key) != key or key >= len(value):
            return None
        return value[int(key)]
    if isinstance(key, str):
        return get_member(value, key, s)
    return None


def _call(node: ast.Call) -> Fn:
    args = tuple(_compile(a) for a in node.args)
    if node.name == "if":
        cond, then = args[0], args[1]
        other = args[2] if len(args) > 2 else None
        if other is None:
            return lambda s: then(s) if truthy(cond(s)) else None
        return lambda s: then(s) if truthy(cond(s)) else other(s)
    fn = GLOBALS[node.name][0]
    if not args:
        return lambda s: fn(s)
    if len(args) == 1:
        only = args[0]
        return lambda s: fn(s, only(s))
    return lambda s: fn(s, *[a(s) for a in args])


def _method(node: ast.Method) -> Fn:
    name = node.name
    if node.obj == ast.Name("file") and name in FILE and all(
            isinstance(a, ast.Literal) for a in node.args):
        # file.hasTag("book"), file.inFolder("x"): no dispatch, constant arguments
        method, consts = FILE[name], tuple(a.value for a in node.args)  # type: ignore[attr-defined]
        if name == "hasTag" and all(isinstance(c, str) for c in consts):
            wanted = frozenset(c.lstrip("#").lower() for c in consts)
            return lambda s: not wanted.isdisjoint(s.record.tag_keys)
        return lambda s: method(s, s.record, *consts)
    obj = _compile(node.obj)
    args = tuple(_compile(a) for a in node.args)
    if name in LAMBDA_METHODS:
        def lazy(s: Scope) -> Any:
            receiver = obj(s)
            if isinstance(receiver, tuple):
                return call_method(s, receiver, name, args)
            return call_method(s, receiver, name, tuple(a(s) for a in args))
        return lazy
    if not args:
        return lambda s: call_method(s, obj(s), name, ())
    return lambda s: call_method(s, obj(s), name, tuple(a(s) for a in args))


def _binary(node: ast.Binary) -> Fn:
    left, right = _compile(node.left), _compile(node.right)
    op = node.op
    if op == "&&":
        return lambda s: (lambda a: a if not truthy(a) else right(s))(left(s))
    if op == "||":
        return lambda s: (lambda a: a if truthy(a) else right(s))(left(s))
    if op == "==":
        if isinstance(node.right, ast.Literal) and isinstance(node.right.value, str):
            text = node.right.value
            return lambda s: (lambda a: a == text if type(a) is str else
                              equals(a, text, s.ctx))(left(s))
        return lambda s: equals(left(s), right(s), s.ctx)
    if op == "!=":
        if isinstance(node.right, ast.Literal) and isinstance(node.right.value, str):
            text = node.right.value
            return lambda s: (lambda a: a != text if type(a) is str else
                              not equals(a, text, s.ctx))(left(s))
        return lambda s: not equals(left(s), right(s), s.ctx)
    if op in ("<", ">", "<=", ">="):
        test = _COMPARISONS[op]

        fast = _FAST_COMPARE[op]

        def ordered(s: Scope) -> bool:
            a, b = left(s), right(s)
            if type(a) is type(b) and type(a) in _ORDERED:
                return bool(fast(a, b))
            result = compare(a, b, s.ctx)
            return result is not None and test(result)
        return ordered
    arith = _FAST_ARITH.get(op)
    if arith is not None:
        fast = arith

        def numeric(s: Scope) -> Any:
            a, b = left(s), right(s)
            if type(a) in _NUMBERS and type(b) in _NUMBERS:
                return fast(a, b)
            if op == "-" and type(a) is Date and type(b) is Date:  # a duration
                return Duration(0, a.ms - b.ms)
            return binary_arith(op, a, b)
        return numeric
    return lambda s: binary_arith(op, left(s), right(s))


_NUMBERS = frozenset({int, float})
_FAST_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
}


_ORDERED = frozenset({int, float, str})
_FAST_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}
_COMPARISONS: dict[str, Callable[[int], bool]] = {
    "<": lambda c: c < 0, ">": lambda c: c > 0, "<=": lambda c: c <= 0, ">=": lambda c: c >= 0,
}

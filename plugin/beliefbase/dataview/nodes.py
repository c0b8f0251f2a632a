"""The parsed query: frozen records for expressions, sources and commands.

Every node keeps the 1-based ``line`` and ``column`` where it starts in the query
text, so an evaluation error points at the expression that failed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Expr:
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Literal(Expr):
    value: Any


@dataclass(frozen=True, slots=True)
class DateWord(Expr):
    """``date(today)`` and friends: evaluated against the query's ``now``."""

    word: str


@dataclass(frozen=True, slots=True)
class Field(Expr):
    name: str


@dataclass(frozen=True, slots=True)
class Index(Expr):
    """``obj.name`` (``key`` a ``Literal`` string) or ``obj[key]``."""

    obj: Expr
    key: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class ListExpr(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class ObjectExpr(Expr):
    pairs: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class LambdaExpr(Expr):
    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: str  # + - * / % = != < > <= >= and or
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # ! or -
    operand: Expr


# -- sources (FROM) -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    pass


@dataclass(frozen=True, slots=True)
class TagSource(Source):
    tag: str  # with its leading '#'


@dataclass(frozen=True, slots=True)
class PathSource(Source):
    path: str  # a folder (recursive) or a file


@dataclass(frozen=True, slots=True)
class LinkSource(Source):
    target: str  # as written in [[...]]; "" for the current note
    outgoing: bool  # outgoing([[x]]): the notes x links to


@dataclass(frozen=True, slots=True)
class AndSource(Source):
    left: Source
    right: Source


@dataclass(frozen=True, slots=True)
class OrSource(Source):
    left: Source
    right: Source


@dataclass(frozen=True, slots=True)
class NotSource(Source):
    inner: Source


# -- commands -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Where(Command):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Sort(Command):
    keys: tuple[tuple[Expr, bool], ...]  # (expression, descending)


@dataclass(frozen=True, slots=True)
class GroupBy(Command):
    expr: Expr
    name: str | None


@dataclass(frozen=True, slots=True)
class Flatten(Command):
    expr: Expr
    name: str | None


@dataclass(frozen=True, slots=True)
class Limit(Command):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Column:
    expr: Expr
    header: str  # the AS name, or the expression as written


@dataclass(frozen=True, slots=True)
class Query:
    kind: str  # "table", "list", "task", "calendar"
    without_id: bool
    columns: tuple[Column, ...]  # TABLE's columns; LIST's one expression; CALENDAR's date
    source: Source | None
    commands: tuple[Command, ...]

"""``parse_query`` and ``parse_expression``: DQL text → ``nodes``, or a
``DataviewError`` with the line and column of the first thing that is wrong.

Nothing but ``DataviewError`` leaves this module, whatever the input (a property
test feeds it random text)."""

from __future__ import annotations

import functools
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.tree import Meta

from ..codecs.field_values import link_from_text
from . import nodes as n
from .dates import parse_duration, parse_iso
from .errors import DataviewError
from .grammar import GRAMMAR

#: a query longer than this is refused (a fence is a few lines; this is a guard)
MAX_QUERY_CHARS = 20_000
_MAX_DEPTH = 200  # brackets nested deeper than this are refused before parsing


@functools.cache
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=True, start=["start", "expr_start"])


def _pos(meta: Meta) -> tuple[int, int]:
    return (getattr(meta, "line", 1), getattr(meta, "column", 1))


def _tok_pos(tok: Token) -> tuple[int, int]:
    return (tok.line or 1, tok.column or 1)


def _unescape(text: str) -> str:
    """A DQL string literal's content: ``\\"`` and ``\\\\`` are the characters,
    ``\\n`` and ``\\t`` a newline and a tab; any other backslash stays (regexes)."""
    out: list[str] = []
    i = 0
    body = text[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({'"': '"', "\\": "\\", "n": "\n", "t": "\t"}.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


#: the inside of ``[[...]]`` as a ``Link`` (the codec's, shared with inline fields)
parse_link_text = link_from_text


class _Build(Transformer[Token, Any]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    # -- query ----------------------------------------------------------------------
    @v_args(meta=True)
    def start(self, meta: Meta, children: list[Any]) -> n.Query:
        kind, without_id, columns = children[0]
        source = None
        commands: list[n.Command] = []
        for child in children[1:]:
            if isinstance(child, n.Source):
                source = child
            elif isinstance(child, n.Command):
                commands.append(child)
        return n.Query(kind, without_id, tuple(columns), source, tuple(commands))

    def expr_start(self, children: list[Any]) -> n.Expr:
        return children[0]  # type: ignore[no-any-return]

    def table_query(self, children: list[Any]) -> tuple[str, bool, list[n.Column]]:
        without = any(c == "without" for c in children)
        columns = next((c for c in children if isinstance(c, list)), [])
        return ("table", without, columns)

    def list_query(self, children: list[Any]) -> tuple[str, bool, list[n.Column]]:
        without = any(c == "without" for c in children)
        exprs = [c for c in children if isinstance(c, n.Expr)]
        return ("list", without, [n.Column(e, self._source_text(e)) for e in exprs])

    def task_query(self, children: list[Any]) -> tuple[str, bool, list[n.Column]]:
        return ("task", False, [])

    def calendar_query(self, children: list[Any]) -> tuple[str, bool, list[n.Column]]:
        expr = children[1]
        return ("calendar", False, [n.Column(expr, self._source_text(expr))])

    def without_id(self, children: list[Any]) -> str:
        return "without"

    def table_columns(self, children: list[Any]) -> list[n.Column]:
        return list(children)

    @v_args(meta=True)
    def table_column(self, meta: Meta, children: list[Any]) -> n.Column:
        expr = children[0]
        header = children[2] if len(children) > 2 and children[2] is not None else None
        if header is None:
            header = self.text[meta.start_pos:meta.end_pos].strip()
        return n.Column(expr, header)

    def header(self, children: list[Token]) -> str:
        tok = children[0]
        return _unescape(str(tok)) if tok.type == "STRING" else str(tok)

    def from_clause(self, children: list[Any]) -> n.Source:
        return children[1]  # type: ignore[no-any-return]

    # -- sources --------------------------------------------------------------------
    def src_or(self, c: list[Any]) -> n.Source:
        return n.OrSource(c[0], c[2])

    def src_and(self, c: list[Any]) -> n.Source:
        return n.AndSource(c[0], c[2])

    def src_not(self, c: list[Any]) -> n.Source:
        return n.NotSource(c[1])

    def src_tag(self, c: list[Token]) -> n.Source:
        return n.TagSource(str(c[0]))

    def src_path(self, c: list[Token]) -> n.Source:
        return n.PathSource(_unescape(str(c[0])))

    def src_link(self, c: list[Token]) -> n.Source:
        return n.LinkSource(str(c[0])[2:-2], False)

    def src_outgoing(self, c: list[Token]) -> n.Source:
        return n.LinkSource(str(c[1])[2:-2], True)

    # -- commands -------------------------------------------------------------------
    def where(self, c: list[Any]) -> n.Command:
        return n.Where(*_tok_pos(c[0]), c[1])

    def sort(self, c: list[Any]) -> n.Command:
        return n.Sort(*_tok_pos(c[0]), tuple(c[1:]))

    def sort_key(self, c: list[Any]) -> tuple[n.Expr, bool]:
        return (c[0], len(c) > 1 and str(c[1]).lower().startswith("desc"))

    def direction(self, c: list[Token]) -> str:
        return str(c[0])

    def group_by(self, c: list[Any]) -> n.Command:
        name = str(c[4]) if len(c) > 4 and c[4] is not None else None
        return n.GroupBy(*_tok_pos(c[0]), c[2], name)

    def flatten(self, c: list[Any]) -> n.Command:
        name = str(c[3]) if len(c) > 3 and c[3] is not None else None
        return n.Flatten(*_tok_pos(c[0]), c[1], name)

    def limit(self, c: list[Any]) -> n.Command:
        return n.Limit(*_tok_pos(c[0]), c[1])

    # -- expressions ----------------------------------------------------------------
    def lambda_(self, c: list[Any]) -> n.Expr:
        head = str(c[0])
        inner = head[head.index("(") + 1:head.rindex(")")]
        params = tuple(p.strip() for p in inner.split(",") if p.strip())
        return n.LambdaExpr(*_tok_pos(c[0]), params, c[1])

    def binary(self, c: list[Any]) -> n.Expr:
        left, op, right = c
        name = str(op).lower()
        name = {"&": "and", "|": "or", "==": "="}.get(name, name)
        return n.Binary(left.line, left.column, name, left, right)

    def unary(self, c: list[Any]) -> n.Expr:
        return n.Unary(*_tok_pos(c[0]), str(c[0]), c[1])

    def dot(self, c: list[Any]) -> n.Expr:
        obj, name = c
        return n.Index(obj.line, obj.column, obj, n.Literal(*_tok_pos(name), str(name)))

    def index(self, c: list[Any]) -> n.Expr:
        obj, key = c
        return n.Index(obj.line, obj.column, obj, key)

    def call(self, c: list[Any]) -> n.Expr:
        name = c[0]
        args = tuple(a for a in c[1:] if a is not None)
        return n.Call(*_tok_pos(name), str(name).lower(), args)

    def number(self, c: list[Token]) -> n.Expr:
        text = str(c[0])
        value: float = float(text) if "." in text else int(text)
        return n.Literal(*_tok_pos(c[0]), value)

    def string(self, c: list[Token]) -> n.Expr:
        return n.Literal(*_tok_pos(c[0]), _unescape(str(c[0])))

    def true(self, c: list[Token]) -> n.Expr:
        return n.Literal(*_tok_pos(c[0]), True)

    def false(self, c: list[Token]) -> n.Expr:
        return n.Literal(*_tok_pos(c[0]), False)

    def null(self, c: list[Token]) -> n.Expr:
        return n.Literal(*_tok_pos(c[0]), None)

    def link(self, c: list[Token]) -> n.Expr:
        return n.Literal(*_tok_pos(c[0]), parse_link_text(str(c[0])[2:-2]))

    def embed(self, c: list[Token]) -> n.Expr:
        return n.Literal(*_tok_pos(c[0]), parse_link_text(str(c[0])[3:-2], embed=True))

    def date_lit(self, c: list[Token]) -> n.Expr:
        text = str(c[0])
        inner = text[text.index("(") + 1:-1].strip()
        line, col = _tok_pos(c[0])
        value = parse_iso(inner)
        if value is not None:
            return n.Literal(line, col, value)
        if inner[:1].isdigit():
            raise DataviewError(f"'{inner}' is not a valid date", line, col)
        return n.DateWord(line, col, inner.lower())

    def dur_lit(self, c: list[Token]) -> n.Expr:
        text = str(c[0])
        inner = text[text.index("(") + 1:-1]
        value = parse_duration(inner)
        if value is None:
            raise DataviewError(f"'{inner.strip()}' is not a valid duration", *_tok_pos(c[0]))
        return n.Literal(*_tok_pos(c[0]), value)

    def field(self, c: list[Token]) -> n.Expr:
        return n.Field(*_tok_pos(c[0]), str(c[0]))

    @v_args(meta=True)
    def list_(self, meta: Meta, c: list[Any]) -> n.Expr:
        return n.ListExpr(*_pos(meta), tuple(x for x in c if x is not None))

    @v_args(meta=True)
    def object_(self, meta: Meta, c: list[Any]) -> n.Expr:
        return n.ObjectExpr(*_pos(meta), tuple(x for x in c if x is not None))

    def pair(self, c: list[Any]) -> tuple[str, n.Expr]:
        key = str(c[0])
        if c[0].type == "STRING":
            key = _unescape(key)
        return (key, c[1])

    def _source_text(self, expr: n.Expr) -> str:
        lines = self.text.split("\n")
        line = lines[expr.line - 1] if 0 < expr.line <= len(lines) else ""
        return line[expr.column - 1:].strip()


def _check_depth(text: str) -> None:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
            if depth > _MAX_DEPTH:
                line = text.count("\n", 0, i) + 1
                column = i - (text.rfind("\n", 0, i) + 1) + 1
                raise DataviewError("brackets nested too deeply", line, column)
        elif ch in ")]}":
            depth = max(0, depth - 1)


def _describe(exc: UnexpectedInput, text: str) -> str:
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        return "the query ends too early"
    if isinstance(exc, UnexpectedToken):
        token = str(exc.token)
        return f"unexpected '{token if len(token) <= 40 else token[:39] + '…'}'"
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        return f"unexpected character {text[pos:pos + 1]!r}"
    return "syntax error"


def _parse(text: str, start: str) -> Any:
    if len(text) > MAX_QUERY_CHARS:
        raise DataviewError(f"a query longer than {MAX_QUERY_CHARS} characters", 1, 1)
    _check_depth(text)
    try:
        tree = _parser().parse(text, start=start)
        return _Build(text).transform(tree)
    except DataviewError:
        raise
    except VisitError as exc:
        if isinstance(exc.orig_exc, DataviewError):
            raise exc.orig_exc from None
        raise DataviewError(f"cannot read the query: {exc.orig_exc}", 1, 1) from None
    except UnexpectedInput as exc:
        line = max(1, getattr(exc, "line", 1) or 1)
        column = max(1, getattr(exc, "column", 1) or 1)
        if isinstance(exc, UnexpectedEOF) or (
            isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
        ):
            line = text.count("\n") + 1
            column = len(text.rsplit("\n", 1)[-1]) + 1
        raise DataviewError(_describe(exc, text), line, column) from None
    except (LarkError, RecursionError, ValueError) as exc:
        raise DataviewError(f"cannot read the query: {type(exc).__name__}", 1, 1) from None


@functools.lru_cache(maxsize=512)
def parse_query(text: str) -> n.Query:
    """A whole DQL query (```` ```dataview ```` fence content)."""
    if not text.strip():
        raise DataviewError("an empty query: start with TABLE, LIST, TASK or CALENDAR", 1, 1)
    result: n.Query = _parse(text, "start")
    return result


@functools.lru_cache(maxsize=512)
def parse_expression(text: str) -> n.Expr:
    """One expression (an inline query's ``= expr``)."""
    if not text.strip():
        raise DataviewError("an empty expression", 1, 1)
    result: n.Expr = _parse(text, "expr_start")
    return result

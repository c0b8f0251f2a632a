"""The expression grammar of Obsidian Bases and its parser (lark, LALR(1)).

``parse_expression(text)`` returns a frozen tree (``ast.py``) or raises
``ExprError`` with the 1-based line and column inside ``text``: never another
exception (``tests/bases/test_parser_property.py`` feeds it random text).
The tree is built while parsing (a lark ``Transformer`` called at each
reduction), so deep nesting costs no recursion here.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from . import ast
from .errors import ExprError
from .values import Regex

GRAMMAR = r"""
// The expression language of Obsidian Bases (filters, formulas, summaries).
// Precedence, loosest first: ||, &&, == !=, < > <= >=, + -, * / %, unary ! - +,
// then postfix member access, indexing and calls.  LALR(1); the contextual
// lexer tells a regex literal (/a+/i, where an operand may start) from division.

?start: expr

?expr: or_expr

?or_expr: and_expr
        | or_expr "||" and_expr              -> or_op

?and_expr: eq_expr
         | and_expr "&&" eq_expr             -> and_op

?eq_expr: cmp_expr
        | eq_expr EQ_OP cmp_expr             -> binop

?cmp_expr: add_expr
         | cmp_expr CMP_OP add_expr          -> binop

?add_expr: mul_expr
         | add_expr ADD_OP mul_expr          -> binop

?mul_expr: unary
         | mul_expr MUL_OP unary             -> binop

?unary: postfix
      | "!" unary                            -> not_op
      | ADD_OP unary                         -> sign

?postfix: atom
        | postfix "." NAME                   -> member
        | postfix "." NAME "(" [args] ")"    -> method
        | postfix "[" expr "]"               -> index
        | NAME "(" [args] ")"                -> call

args: expr ("," expr)* ","?

?atom: NUMBER                                -> number
     | STRING                                -> string
     | REGEX                                 -> regex
     | "true"                                -> true
     | "false"                               -> false
     | "null"                                -> null
     | NAME                                  -> name
     | "[" [args] "]"                        -> list_lit
     | "{" [pairs] "}"                       -> object_lit
     | "(" expr ")"

pairs: pair ("," pair)* ","?
pair: (STRING | NAME) ":" expr

EQ_OP: "==" | "!="
CMP_OP: "<=" | ">=" | "<" | ">"
ADD_OP: "+" | "-"
MUL_OP: "*" | "/" | "%"
NUMBER: /(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?/
STRING: /"(?:[^"\\\n]|\\.)*"/ | /'(?:[^'\\\n]|\\.)*'/
REGEX: /\/(?![*\/])(?:[^\/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/[a-z]*/
NAME: /[^\W\d][\w$]*/

%import common.WS
%ignore WS
"""

#: Longest expression accepted: a guard against pathological input, far above any base.
MAX_LENGTH = 10_000

_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(body: str) -> str:
    """JavaScript string escapes (``\\n``, ``\\u00e9``, ``\\"`` ...)."""

    def one(m: re.Match[str]) -> str:
        esc = m.group(1)
        if esc[0] in "ux" and len(esc) > 1:
            code = int(esc.strip("u{}x"), 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        return _SIMPLE.get(esc, esc)

    return _ESCAPE.sub(one, body)


class _Build(Transformer[Token, ast.Node]):
    """Lark callbacks: parse-tree rules -> ``ast`` nodes."""

    def number(self, items: list[Token]) -> ast.Node:
        text = str(items[0])
        value = float(text)
        return ast.Literal(int(value) if value.is_integer() and abs(value) < 2**53 else value)

    def string(self, items: list[Token]) -> ast.Node:
        return ast.Literal(_unescape(str(items[0])[1:-1]))

    def regex(self, items: list[Token]) -> ast.Node:
        text = str(items[0])
        end = text.rindex("/")
        try:
            return ast.Literal(Regex.make(text[1:end], text[end + 1:]))
        except ValueError as exc:
            raise ExprError(f"invalid regular expression {text}: {exc}",
                            items[0].line or 0, items[0].column or 0) from None

    def true(self, _: list[Any]) -> ast.Node:
        return ast.Literal(True)

    def false(self, _: list[Any]) -> ast.Node:
        return ast.Literal(False)

    def null(self, _: list[Any]) -> ast.Node:
        return ast.Literal(None)

    def name(self, items: list[Token]) -> ast.Node:
        return ast.Name(str(items[0]))

    def args(self, items: list[ast.Node]) -> tuple[ast.Node, ...]:
        return tuple(items)

    def list_lit(self, items: list[Any]) -> ast.Node:
        return ast.ListLit(items[0] or ())

    def pair(self, items: list[Any]) -> tuple[str, ast.Node]:
        key = items[0]
        text = str(key)
        return (_unescape(text[1:-1]) if key.type == "STRING" else text, items[1])

    def pairs(self, items: list[tuple[str, ast.Node]]) -> tuple[tuple[str, ast.Node], ...]:
        return tuple(items)

    def object_lit(self, items: list[Any]) -> ast.Node:
        return ast.ObjectLit(items[0] or ())

    def member(self, items: list[Any]) -> ast.Node:
        return ast.Member(items[0], str(items[1]))

    def method(self, items: list[Any]) -> ast.Node:
        return ast.Method(items[0], str(items[1]), items[2] or ())

    def index(self, items: list[Any]) -> ast.Node:
        return ast.Index(items[0], items[1])

    def call(self, items: list[Any]) -> ast.Node:
        return ast.Call(str(items[0]), items[1] or ())

    def not_op(self, items: list[Any]) -> ast.Node:
        return ast.Unary("!", items[0])

    def sign(self, items: list[Any]) -> ast.Node:
        op, operand = str(items[0]), items[1]
        if isinstance(operand, ast.Literal) and type(operand.value) in (int, float):
            return ast.Literal(-operand.value if op == "-" else operand.value)
        return ast.Unary(op, operand)

    def binop(self, items: list[Any]) -> ast.Node:
        return ast.Binary(str(items[1]), items[0], items[2])

    def and_op(self, items: list[Any]) -> ast.Node:
        return ast.Binary("&&", items[0], items[1])

    def or_op(self, items: list[Any]) -> ast.Node:
        return ast.Binary("||", items[0], items[1])


_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", transformer=_Build(),
               maybe_placeholders=True, propagate_positions=False)


@functools.lru_cache(maxsize=4096)
def parse_expression(text: str) -> ast.Node:
    """Parse one expression; ``ExprError`` (line, column inside ``text``) if it is not one."""
    if not isinstance(text, str):
        raise ExprError("an expression must be text")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise ExprError("empty expression", 1, 1)
    try:
        tree = _PARSER.parse(text)
    except ExprError:
        raise
    except UnexpectedEOF:
        lines = text.split("\n")
        raise ExprError("unexpected end of expression", len(lines), len(lines[-1]) + 1) from None
    except UnexpectedCharacters as exc:
        char = text[exc.pos_in_stream or 0]
        hint = " (compare with ==)" if char == "=" else ""
        raise ExprError(f"unexpected character {char!r}{hint}", exc.line, exc.column) from None
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None)
        shown = repr(str(token)) if token is not None and str(token) else "end of expression"
        raise ExprError(f"unexpected {shown}", exc.line if exc.line > 0 else 1,
                        exc.column if exc.column > 0 else 1) from None
    except (LarkError, RecursionError) as exc:
        raise ExprError(f"cannot parse expression: {exc}", 1, 1) from None
    if not isinstance(tree, ast.Node):  # a lone parenthesised tree cannot happen; be safe
        raise ExprError("cannot parse expression", 1, 1)
    return tree

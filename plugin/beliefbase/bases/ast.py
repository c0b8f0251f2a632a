"""The expression tree: frozen nodes the grammar's parser builds (``syntax.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every node."""


@dataclass(frozen=True, slots=True)
class Literal(Node):
    value: Any  # None, bool, int, float, str, or a values.Regex


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True)
class Member(Node):
    obj: Node
    name: str


@dataclass(frozen=True, slots=True)
class Index(Node):
    obj: Node
    key: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Method(Node):
    obj: Node
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # "!", "-", "+"
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str  # "+ - * / % == != < > <= >= && ||"
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ObjectLit(Node):
    pairs: tuple[tuple[str, Node], ...]


def walk(node: Node) -> list[Node]:
    """Every node of a tree, ``node`` first (iteratively: trees may be deep)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        out.append(cur)
        if isinstance(cur, (Member, Unary)):
            stack.append(cur.obj if isinstance(cur, Member) else cur.operand)
        elif isinstance(cur, Index):
            stack += [cur.obj, cur.key]
        elif isinstance(cur, Call):
            stack += cur.args
        elif isinstance(cur, Method):
            stack += [cur.obj, *cur.args]
        elif isinstance(cur, Binary):
            stack += [cur.left, cur.right]
        elif isinstance(cur, ListLit):
            stack += cur.items
        elif isinstance(cur, ObjectLit):
            stack += [v for _, v in cur.pairs]
    return out

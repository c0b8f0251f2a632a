"""Which tables a query can reach: the ones it names, or every one.

The engine loads tables on demand (``Loaded.require``), so a query must find
every table that could change its answer already loaded.  A table a query
reaches is one it names (a label or a relationship type), unless a pattern
could bind to any table:

* a relationship without a type (``-->``, ``-[r]->``, ``-[*1..2]-``) may be of
  every type, between nodes of every label;
* a node without a label that no relationship touches (``MATCH (n)``,
  ``MATCH (a:Note), (b)``) may be of every label.

A node without a label next to a typed relationship (``(t:Tag)<-[:tagged]-(n)``)
is fine: it can only be one of that type's ends, and loading a type loads the
node tables of its ends.  The test is on tokens, not a parse, and errs one way
only: when in doubt (``a - -b``, ``RETURN x, (y)``) it asks for every table, which
is what a query got before tables were loaded lazily.  Every word of the query
counts as a name (a variable called ``tag`` loads the ``Tag`` table): more
tables than needed, never fewer.
"""

from __future__ import annotations

from .sandbox import TOKEN

#: Tokens that end a node pattern on its left or start one on its right when a
#: relationship touches it: ``(a)-[..]->(b)``, ``(a)<-[..]-(b)``, ``(a)--(b)``.
_REL_SIDE = frozenset({"-", "<", ">"})


def reach(text: str) -> frozenset[str] | None:
    """The names (lower-cased) that ``text`` may mean as tables; ``None``: every table."""
    tokens = [(m.lastgroup or "", m.group()) for m in TOKEN.finditer(text)
              if m.lastgroup not in ("comment", "space", "string")]
    names: set[str] = set()
    for i, (kind, value) in enumerate(tokens):
        if kind == "word":
            names.add(value.lower())
        elif kind == "quoted":
            names.add(value[1:-1].replace("``", "`").lower())
        elif (value == "-" and _untyped_relationship(tokens, i)) or (
                value == "(" and _free_node(tokens, i)):
            return None
    return frozenset(names)


def _untyped_relationship(tokens: list[tuple[str, str]], i: int) -> bool:
    """Does the ``-`` at ``i`` open a relationship without a type (``--``, ``-[r]``)?"""
    after = tokens[i + 1][1] if i + 1 < len(tokens) else ""
    if after == "-":
        return True  # -- or --> or <--: any type (or arithmetic: every table, to be safe)
    if after != "[":
        return False
    j = i + 2
    if j < len(tokens) and tokens[j][0] in ("word", "quoted"):
        j += 1  # the relationship's variable
    return j >= len(tokens) or tokens[j][1] != ":"


def _free_node(tokens: list[tuple[str, str]], i: int) -> bool:
    """Is the ``(`` at ``i`` a node pattern without a label that no relationship touches?"""
    j = i + 1
    if j < len(tokens) and tokens[j][0] in ("word", "quoted"):
        j += 1  # the node's variable
    if j >= len(tokens) or tokens[j][1] not in (")", "{"):
        return False  # a label (`:`), or not a node pattern (`count(*)`, `(a + b)`)
    before = tokens[i - 1] if i else ("", "")
    if before[0] == "word" and before[1].upper() != "MATCH":
        return False  # a call (`count(n)`, `exists(n)`) or an expression after a keyword
    if before[1] in _REL_SIDE:
        return False
    close = _closing(tokens, i)
    return close + 1 >= len(tokens) or tokens[close + 1][1] not in _REL_SIDE


def _closing(tokens: list[tuple[str, str]], i: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``i`` (the last token if none)."""
    depth = 0
    for j in range(i, len(tokens)):
        value = tokens[j][1]
        if value in ("(", "[", "{"):
            depth += 1
        elif value in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1

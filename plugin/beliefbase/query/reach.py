"""Which tables a query can reach: the ones it names, or every one.

The engine loads tables on demand (``Loaded.require``), so a query must find
every table that could change its answer already loaded.  A table a query
reaches is one it names (a label or a relationship type), unless a pattern
could bind to any table:

* a relationship without a type (``-->``, ``-[r]->``, ``-[*1..2]-``) may be of
  every type, between nodes of every label;
* a node without a label that no relationship touches (``MATCH (n)``,
  ``MATCH (a:Note), (b)``) may be of every label.

A free node whose kind the query pins to ``Document`` (``MATCH (d) WHERE d.kind =
'Document'``, the documented way to find every document, or ``(d {kind:
'Document'})``) can only be a document: it reaches every label that holds documents
(``documents``), not the sections.  The pin counts only as a whole term of the
``WHERE`` right after its pattern, joined to the others by ``AND`` alone.

A node without a label next to a typed relationship (``(t:Tag)<-[:tagged]-(n)``)
is fine: it can only be one of that type's ends, and loading a type loads the
node tables of its ends (``any_end``: all of them).  When every node next to a
relationship has a label and no relationship has a length (``*``), a typed
relationship only joins labels the query names: only those pairs of the type
are needed (``(a:Note)-[:links_to]->(b:Note)`` leaves out the links to sections).

The test is on tokens, not a parse, and errs one way only: when in doubt
(``a - -b``, ``RETURN x, (y)``) it asks for every table, which is what a query
got before tables were loaded lazily.  Every word of the query
counts as a name (a variable called ``tag`` loads the ``Tag`` table): more
tables than needed, never fewer.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sandbox import TOKEN

#: Tokens that end a node pattern on its left or start one on its right when a
#: relationship touches it: ``(a)-[..]->(b)``, ``(a)<-[..]-(b)``, ``(a)--(b)``.
_REL_SIDE = frozenset({"-", "<", ">"})


@dataclass(frozen=True)
class Reach:
    """The tables a query may use: the ones among ``names`` (lower-cased words of the
    query); ``any_end``: a relationship may join a node of a label it does not name."""

    names: frozenset[str]
    any_end: bool
    documents: bool = False  # every label that holds documents


def reach(text: str) -> Reach | None:
    """What ``text`` may reach; ``None``: every table."""
    everything = [(m.lastgroup or "", m.group()) for m in TOKEN.finditer(text)
                  if m.lastgroup not in ("comment", "space")]
    places = [at for at, (kind, _) in enumerate(everything) if kind != "string"]
    tokens = [everything[at] for at in places]  # the tests below ignore strings
    names: set[str] = set()
    any_end = documents = False
    for i, (kind, value) in enumerate(tokens):
        if kind == "word":
            names.add(value.lower())
        elif kind == "quoted":
            names.add(value[1:-1].replace("``", "`").lower())
        elif value == "-" and _untyped_relationship(tokens, i):
            return None
        elif value == "(" and _free_node(tokens, i):
            if not _pinned_to_documents(everything, places[i]):
                return None
            documents = True
        elif value == "(" and _unlabelled_end(tokens, i):
            any_end = True
        elif value == "*" and _in_relationship(tokens, i):
            any_end = True  # a path of any length: its inner nodes have no label
    return Reach(frozenset(names), any_end, documents)


def _pinned_to_documents(tokens: list[tuple[str, str]], i: int) -> bool:
    """Is the free node whose ``(`` is at ``i`` (strings among ``tokens``) only a
    document: ``(d {kind: 'Document'})``, or ``d.kind = 'Document'`` a whole term of
    the ``WHERE`` of its pattern, with ``AND`` alone between the terms?"""
    if tokens[i + 1][0] not in ("word", "quoted"):
        return False  # `()`: nothing to pin
    var = tokens[i + 1]
    close = _closing(tokens, i)
    if tokens[i + 2][1] == "{" and tokens[close - 1][1] == "}":
        entries = _split(tokens, i + 3, close - 1, "")
        if any(entry in _PIN_ENTRY for entry in entries):
            return True
    where = _where(tokens, close + 1)
    if where is None:
        return False
    start, end = where
    top, _ = _top_level(tokens, start, end)
    if any(_keyword(tokens, j) in ("OR", "XOR", "CASE") for j in top) or any(
            _keyword(tokens, j) == "CASE" for j in range(start, end)):
        return False  # a term that AND alone does not join
    pin = [var, ("other", "."), ("word", "kind")]
    wanted = [[*pin, ("other", "="), doc] for doc in _DOCUMENT] + [
        [doc, ("other", "="), *pin] for doc in _DOCUMENT]
    return any(term in wanted for term in _split(tokens, start, end, "AND"))


#: ``'Document'`` as a string token, in either quotes.
_DOCUMENT = [("string", "'Document'"), ("string", '"Document"')]
#: ``kind: 'Document'`` as an entry of a property map.
_PIN_ENTRY = [[("word", "kind"), ("other", ":"), doc] for doc in _DOCUMENT]
#: Keywords that end a ``WHERE`` (or the search for the ``WHERE`` of a pattern).
_CLAUSES = frozenset({"MATCH", "OPTIONAL", "WITH", "RETURN", "UNWIND", "ORDER", "SKIP",
                      "LIMIT", "UNION", "WHERE", "CALL"})


def _keyword(tokens: list[tuple[str, str]], j: int) -> str:
    """The word at ``j`` upper-cased, if it is in a keyword's place (not a property,
    label or map key: after ``.`` or ``:``, before ``:``); else ``""``."""
    kind, value = tokens[j]
    if kind != "word" or (j and tokens[j - 1][1] in (".", ":")) or (
            j + 1 < len(tokens) and tokens[j + 1][1] == ":"):
        return ""
    return value.upper()


def _clause(tokens: list[tuple[str, str]], j: int) -> str:
    """The clause keyword at ``j`` (``WITH`` of ``STARTS WITH`` is none), else ``""``."""
    word = _keyword(tokens, j)
    if word == "WITH" and j and tokens[j - 1][1].upper() in ("STARTS", "ENDS"):
        return ""
    return word if word in _CLAUSES else ""


def _top_level(tokens: list[tuple[str, str]], start: int, end: int) -> tuple[list[int], int]:
    """The places in ``start..end`` outside any bracket opened there, and where that
    stretch ends (``end``, or a bracket closed that was not opened there)."""
    depth = 0
    found: list[int] = []
    for j in range(start, end):
        value = tokens[j][1]
        if value in ("(", "[", "{"):
            depth += 1
        elif value in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return found, j
        elif depth == 0:
            found.append(j)
    return found, end


def _split(tokens: list[tuple[str, str]], start: int, end: int, keyword: str) -> (
    list[list[tuple[str, str]]]
):
    """The tokens of ``start..end`` split at the top-level ``keyword`` (``""``: at ``,``)."""
    top, end = _top_level(tokens, start, end)
    cuts = [j for j in top if (_keyword(tokens, j) == keyword if keyword
                               else tokens[j][1] == ",")]
    bounds = [start - 1, *cuts, end]
    return [tokens[a + 1:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def _where(tokens: list[tuple[str, str]], start: int) -> tuple[int, int] | None:
    """Where the ``WHERE`` of the pattern that ends before ``start`` begins and ends."""
    top, stop = _top_level(tokens, start, len(tokens))
    for at, j in enumerate(top):
        word = _clause(tokens, j)
        if word == "WHERE":
            later = [k for k in top[at + 1:] if _clause(tokens, k)]
            return j + 1, later[0] if later else stop
        if word:
            return None
    return None


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


def _unlabelled(tokens: list[tuple[str, str]], i: int) -> bool:
    """Could the ``(`` at ``i`` open a node pattern without a label (``(n)``, ``()``,
    ``(n {title: 'x'})``)?  Not ``(n:Note)``, ``count(*)`` or ``(a + b)``."""
    j = i + 1
    if j < len(tokens) and tokens[j][0] in ("word", "quoted"):
        j += 1  # the node's variable
    return j < len(tokens) and tokens[j][1] in (")", "{")


def _touches_relationship(tokens: list[tuple[str, str]], i: int) -> bool:
    """Is the parenthesis at ``i`` next to a relationship, on either side?"""
    if i and tokens[i - 1][1] in _REL_SIDE:
        return True
    close = _closing(tokens, i)
    return close + 1 < len(tokens) and tokens[close + 1][1] in _REL_SIDE


def _unlabelled_end(tokens: list[tuple[str, str]], i: int) -> bool:
    """Is the ``(`` at ``i`` a node without a label at an end of a relationship?"""
    return _unlabelled(tokens, i) and _touches_relationship(tokens, i)


def _in_relationship(tokens: list[tuple[str, str]], i: int) -> bool:
    """Is the token at ``i`` inside the brackets of a relationship (``-[...]``)?"""
    for j in range(i - 1, -1, -1):
        value = tokens[j][1]
        if value == "[":
            return j > 0 and tokens[j - 1][1] == "-"
        if value in ("]", "(", ")"):
            return False
    return False


def _free_node(tokens: list[tuple[str, str]], i: int) -> bool:
    """Is the ``(`` at ``i`` a node pattern without a label that no relationship touches?"""
    if not _unlabelled(tokens, i):
        return False
    before = tokens[i - 1] if i else ("", "")
    if before[0] == "word" and before[1].upper() != "MATCH":
        return False  # a call (`count(n)`, `exists(n)`) or an expression after a keyword
    return not _touches_relationship(tokens, i)


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

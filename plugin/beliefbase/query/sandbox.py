"""Which queries may run: reading clauses only, one statement.

Notes come from many writers; a query is data, not a program.  Before a query
reaches the engine it is tokenized (strings, comments and backquoted names are
skipped, so ``WHERE n.title = 'DELETE'`` is fine) and refused when it holds a
keyword of a clause that writes (CREATE, MERGE, SET, DELETE, ...), reads files or
the network (COPY, LOAD FROM, INSTALL, ATTACH, ...), calls procedures (CALL), or
changes the session (USE, BEGIN, ...).  A word right after ``.`` or ``:``, or
right before ``:`` (a property, a label, a map key), is a name, not a keyword.
"""

from __future__ import annotations

import re

#: Keywords of every ladybug clause that is not a read (its grammar, Cypher.g4:
#: kU_CopyFrom/To, kU_Attach/Detach/Use, kU_Transaction, kU_Extension (INSTALL,
#: LOAD EXTENSION, UNINSTALL), kU_ExportDatabase/ImportDatabase, kU_Create*, kU_Drop,
#: kU_AlterTable, kU_StandaloneCall/CALL, kU_CreateMacro, oC_Updating*, LOAD FROM,
#: EXPLAIN/PROFILE).
REFUSED = frozenset({
    "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "ALTER", "RENAME",
    "COPY", "LOAD", "INSTALL", "UNINSTALL", "UPDATE", "ATTACH", "USE", "EXPORT", "IMPORT",
    "CALL", "MACRO", "BEGIN", "COMMIT", "ROLLBACK", "CHECKPOINT", "TRANSACTION", "EXPLAIN",
    "PROFILE", "FOREACH",
})

# One token: a comment, a string, a backquoted name, a word, or one other character.
TOKEN = re.compile(
    r"""
      (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    | (?P<string>'(?:[^'\\]|\\.)*(?:'|\Z)|"(?:[^"\\]|\\.)*(?:"|\Z))
    | (?P<quoted>`(?:[^`]|``)*(?:`|\Z))
    | (?P<word>[A-Za-z_][A-Za-z_0-9]*)
    | (?P<space>\s+)
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


class Refused(Exception):
    """A query that may not run; the message says why."""


def check(text: str) -> None:
    """Raise ``Refused`` unless ``text`` is one read-only statement."""
    tokens = [(m.lastgroup, m.group()) for m in TOKEN.finditer(text)
              if m.lastgroup not in ("comment", "space")]
    if not tokens:
        raise Refused("the query is empty")
    for i, (kind, value) in enumerate(tokens):
        if kind == "other" and value == ";" and any(k != "other" or v != ";"
                                                    for k, v in tokens[i + 1:]):
            raise Refused("only one statement may run: remove what follows `;`")
        if kind != "word" or value.upper() not in REFUSED:
            continue
        before = tokens[i - 1][1] if i else ""
        after = tokens[i + 1][1] if i + 1 < len(tokens) else ""
        if before in (".", ":") or after == ":":
            continue  # a property, label or map key named like a keyword
        raise Refused(f"`{value}` is not allowed: queries only read the graph "
                      "(no clause that writes, reads files or calls procedures)")


def has_order_by(text: str) -> bool:
    """Does the query order its rows itself (an ORDER BY outside strings and comments)?"""
    words = [m.group().upper() for m in TOKEN.finditer(text) if m.lastgroup == "word"]
    return any(a == "ORDER" and b == "BY" for a, b in zip(words, words[1:], strict=False))

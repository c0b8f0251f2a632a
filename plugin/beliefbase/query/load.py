"""The compiled graph -> an in-memory ladybug (Cypher) database, loaded in bulk.

Schema (SPEC §8, documented in docs/guide/queries.md):

* one node table per label: a document's label is its ``schema`` (``Note`` when it
  has none); every other node is labelled by its kind (``Section``, ``Tag``, ...);
* every node has ``bid``, ``kind``, ``title``, ``path``, ``url``, ``tags``,
  ``aliases``;
  a label's other columns are the frontmatter fields of its nodes, typed by what
  the values are (``BOOL``, ``INT64``, ``DOUBLE``, ``STRING``, ``STRING[]``); a field
  whose values disagree in type is a ``STRING`` column and gets one
  ``query-property-type`` diagnostic naming two of the files;
* one relationship table per edge type, between every pair of labels it joins,
  with ``file``, ``line``, ``weight_kind`` and ``display``.

Rows go in by ``COPY`` from CSV files written to a temporary folder (per-row
``CREATE`` took 47 s for 5,000 notes; ``COPY`` takes well under a second).  The
graph only has published notes: drafts are never loaded.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ladybug

from .. import diagnostics as diag
from ..graph.model import Edge, Graph, Node

#: The columns every node table has, in this order.  The key is ``_key``, a number
#: per node: the engine indexes and joins on it faster than on the BID text
#: (a third less CPU for 46,000 nodes and 110,000 edges); results leave it out.
BASE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("_key", "INT64"), ("bid", "STRING"), ("kind", "STRING"), ("title", "STRING"),
    ("path", "STRING"), ("url", "STRING"), ("tags", "STRING[]"), ("aliases", "STRING[]"))
_BASE_NAMES = {name for name, _ in BASE_COLUMNS}
#: The properties of every relationship.
REL_COLUMNS: tuple[tuple[str, str], ...] = (
    ("file", "STRING"), ("line", "INT64"), ("weight_kind", "STRING"), ("display", "STRING"))
#: Characters a list element cannot hold and stay a ``STRING[]`` element in CSV
#: (ladybug's list syntax has no escape for them).
_LIST_UNSAFE = set(",[]{}'\"\\\n\r")
#: The database's memory for pages; a 20,000-note graph needs far less.
_BUFFER_POOL = 512 * 2**20
_TYPE_WORDS = {"BOOL": "true/false", "INT64": "a whole number", "DOUBLE": "a number",
               "STRING": "text", "STRING[]": "a list of text", "JSON": "a structure"}


@dataclass
class Loaded:
    """A database holding one graph, and what its tables are."""

    database: ladybug.Database
    connection: ladybug.Connection
    labels: dict[str, dict[str, str]]  # label -> column -> type
    relations: dict[str, list[tuple[str, str]]]  # edge type -> (from label, to label)
    label_of: dict[str, str]  # node bid -> label
    keys: dict[str, int] = field(default_factory=dict)  # node bid -> _key
    diagnostics: list[diag.Diagnostic] = field(default_factory=list)


def label_of(node: Node) -> str:
    """A node's label: its schema for a document (``Note`` without one), else its kind."""
    if node.kind == "Document":
        return node.schema or "Note"
    return node.kind


def quote_name(name: str) -> str:
    """``name`` as a Cypher identifier (backquoted; a backquote in it doubled)."""
    return "`" + name.replace("`", "``") + "`"


def load(graph: Graph, display: Any = str) -> Loaded:
    """A new in-memory database with every node and edge of ``graph``.

    ``display`` turns a docs-relative path into the path diagnostics show.
    """
    database = ladybug.Database(None, buffer_pool_size=_BUFFER_POOL)
    connection = ladybug.Connection(database)
    labels, node_labels = _labels(graph)
    keys = {bid: n for n, bid in enumerate(graph.nodes)}
    diagnostics: list[diag.Diagnostic] = []
    columns = {label: _columns(label, nodes, display, diagnostics)
               for label, nodes in labels.items()}
    groups = _edge_groups(graph, node_labels, {label.lower() for label in labels})
    relations: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for rel_type, pair in groups:
        relations[rel_type].append(pair)
    with tempfile.TemporaryDirectory(prefix="beliefbase-query-") as tmp:
        folder = Path(tmp)
        for n, (label, nodes) in enumerate(labels.items()):
            cols = columns[label]
            spec = ", ".join(f"{quote_name(c)} {_ddl_type(t)}" for c, t in cols.items())
            connection.execute(f"CREATE NODE TABLE {quote_name(label)}({spec}, PRIMARY KEY(_key))")
            path = folder / f"n{n}.csv"
            lines = _write_csv(path, list(cols),
                               (_node_row(node, keys[node.bid], cols) for node in nodes))
            _copy(connection, label, path, serial=lines)
        for rel_type, pairs in relations.items():
            ends = ", ".join(f"FROM {quote_name(a)} TO {quote_name(b)}" for a, b in pairs)
            props = ", ".join(f"{c} {t}" for c, t in REL_COLUMNS)
            connection.execute(f"CREATE REL TABLE {quote_name(rel_type)}({ends}, {props})")
        for n, ((rel_type, (a, b)), edges) in enumerate(groups.items()):
            path = folder / f"r{n}.csv"
            lines = _write_csv(path, ["from", "to", *(c for c, _ in REL_COLUMNS)],
                               ([keys[e.source], keys[e.target], e.file, e.line,
                                 e.weight_kind, e.display] for e in edges))  # a StrEnum: its value
            _copy(connection, rel_type, path, serial=lines,
                  extra=f", from={_literal(a)}, to={_literal(b)}"
                  if len(relations[rel_type]) > 1 else "")
    return Loaded(database, connection, {label: dict(cols) for label, cols in columns.items()},
                  dict(relations), node_labels, keys, diagnostics)


def _labels(graph: Graph) -> tuple[dict[str, list[Node]], dict[str, str]]:
    """Nodes by label (labels differing only in case are one: the engine's names are
    case-insensitive; the first spelling by node order wins), and each node's label."""
    spelling: dict[str, str] = {}
    labels: dict[str, list[Node]] = {}
    node_labels: dict[str, str] = {}
    for node in graph.nodes.values():
        wanted = label_of(node)
        label = spelling.setdefault(wanted.lower(), wanted)
        labels.setdefault(label, []).append(node)
        node_labels[node.bid] = label
    return labels, node_labels


def _edge_groups(graph: Graph, node_labels: dict[str, str], taken: set[str]) -> (
    dict[tuple[str, tuple[str, str]], list[Edge]]
):
    """Edges by (type, (from label, to label)); an edge type named like a label (the
    engine has one namespace for both) is left out, as are edges to unknown nodes."""
    spelling: dict[str, str] = {}
    groups: dict[tuple[str, tuple[str, str]], list[Edge]] = defaultdict(list)
    for edge in graph.edges:
        a, b = node_labels.get(edge.source), node_labels.get(edge.target)
        if a is None or b is None or not edge.type or edge.type.lower() in taken:
            continue
        rel_type = spelling.setdefault(edge.type.lower(), edge.type)
        groups[(rel_type, (a, b))].append(edge)
    return dict(sorted(groups.items()))


def _columns(label: str, nodes: list[Node], display: Any,
             diagnostics: list[diag.Diagnostic]) -> dict[str, str]:
    """The columns of one label: the base ones, then each frontmatter field typed."""
    seen: dict[str, dict[str, str]] = {}  # column -> type -> first file with it
    spelling: dict[str, str] = {}
    for node in nodes:
        for key, value in node.properties.items():
            if not key or key.lower() in _BASE_NAMES or value is None:
                continue
            name = spelling.setdefault(key.lower(), key)
            if name != key:
                continue  # the same field spelled in another case: the first one wins
            seen.setdefault(name, {}).setdefault(_value_type(value), node.path or node.bid)
    columns = dict(BASE_COLUMNS)
    for name in sorted(seen):
        types = seen[name]
        kinds = set(types)
        if kinds == {"INT64", "DOUBLE"}:
            columns[name] = "DOUBLE"
        elif len(kinds) == 1:
            (only,) = kinds
            columns[name] = "STRING" if only == "JSON" else only
        else:
            columns[name] = "STRING"
            (t1, f1), (t2, f2) = list(types.items())[:2]
            diagnostics.append(diag.make(
                "query-property-type", display(f2), 1, 1,
                f"`{name}` of {label} is {_TYPE_WORDS[t2]} here but {_TYPE_WORDS[t1]} in "
                f"{display(f1)}: queries see it as text; give it one type in every note "
                f"of {label} to compare it as such"))
    return columns


def _value_type(value: Any) -> str:
    if isinstance(value, bool):
        return "BOOL"
    if isinstance(value, int):
        return "INT64" if -2**63 <= value < 2**63 else "JSON"
    if isinstance(value, float):
        return "DOUBLE"
    if isinstance(value, str):
        return "STRING"
    if isinstance(value, list) and all(_plain_element(v) for v in value):
        return "STRING[]"
    return "JSON"


def _plain_element(value: Any) -> bool:
    return (isinstance(value, str) and value != "" and value == value.strip()
            and not _LIST_UNSAFE.intersection(value))


def _ddl_type(column_type: str) -> str:
    return column_type


def _node_row(node: Node, key: int, columns: dict[str, str]) -> list[Any]:
    row: list[Any] = [key, node.bid, node.kind, node.title, node.path, node.url,
                      _list_text([t for t in node.tags if _plain_element(t)]),
                      _list_text([a for a in node.aliases if _plain_element(a)])]
    props = node.properties
    for name, column_type in list(columns.items())[len(BASE_COLUMNS):]:
        row.append(_cell(props.get(name), column_type))
    return row


def _cell(value: Any, column_type: str) -> Any:
    if value is None:
        return None
    if column_type == "STRING[]":
        return _list_text(value)
    if column_type == "BOOL":
        return "true" if value else "false"
    if column_type == "STRING":
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                               sort_keys=True)
    return value  # INT64 / DOUBLE: csv writes repr()


def _list_text(values: list[str]) -> str:
    return "[" + ",".join(values) + "]"


def _write_csv(path: Path, header: list[str], rows: Any) -> bool:
    """Write the CSV file; does a value hold a line break?"""
    records = list(rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(records)
    text = out.getvalue()
    path.write_text(text, encoding="utf-8")
    return text.count("\n") != len(records) + 1 or "\r" in text


def _copy(connection: ladybug.Connection, table: str, path: Path, *, serial: bool,
          extra: str = "") -> None:
    # the engine's parallel CSV reader refuses quoted fields with line breaks; the
    # serial one reads them (and is slower)
    connection.execute(f"COPY {quote_name(table)} FROM {_literal(str(path))} "
                       f"(header=true, escape='\"', parallel={'false' if serial else 'true'}"
                       f"{extra})")


def _literal(text: str) -> str:
    """``text`` as a Cypher string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"

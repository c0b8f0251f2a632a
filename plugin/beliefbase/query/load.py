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

Every table is made at once (``prepare``); rows go in later, table by table,
when a query can first reach them (``Loaded.require``, ``reach.reach``): sections
are most of a graph and few queries ask about them.  Rows go in by ``COPY`` from
CSV files written to a temporary folder (per-row ``CREATE`` took 47 s for 5,000
notes; ``COPY`` takes well under a second).  The graph only has published notes:
drafts are never loaded.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any

import ladybug

from .. import diagnostics as diag
from ..graph.model import Edge, Graph, Node
from .reach import Reach

#: The columns every node table has, in this order.  The key is ``_key``, a node's
#: place among the nodes of its label: the engine indexes and joins on it faster
#: than on the BID text (a third less CPU for 46,000 nodes and 110,000 edges);
#: results leave it out.
BASE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("_key", "INT64"), ("bid", "STRING"), ("kind", "STRING"), ("title", "STRING"),
    ("path", "STRING"), ("url", "STRING"), ("tags", "STRING[]"), ("aliases", "STRING[]"))
_BASE_NAMES = {name for name, _ in BASE_COLUMNS}
#: Frontmatter fields named like a built-in property (a result's node also has
#: ``label``) are columns under this prefix: ``kind: x`` is ``n.field_kind``.
RENAMED_PREFIX = "field_"
_CLASHING = (_BASE_NAMES - {"_key"}) | {"label"}
#: The properties of every relationship.
REL_COLUMNS: tuple[tuple[str, str], ...] = (
    ("file", "STRING"), ("line", "INT64"), ("weight_kind", "STRING"), ("display", "STRING"))
_SOURCE = attrgetter("source")
_TARGET = attrgetter("target")
#: The header of a relationship table's CSV file.
_REL_HEADER = ["from", "to", *(c for c, _ in REL_COLUMNS)]
#: Characters a list element cannot hold and stay a ``STRING[]`` element in CSV
#: (ladybug's list syntax has no escape for them).
_LIST_UNSAFE = set(",[]{}'\"\\\n\r")
# A list element that is one wikilink ("[[Ada]]", "[[Ada|the countess, first]]"):
# ladybug reads balanced brackets (and commas inside them) as one element.
_LIST_WIKILINK = re.compile(r"\[\[[^\[\]{}'\"\\\n\r]+\]\]")
#: The database's memory for pages; a 20,000-note graph needs far less.
_BUFFER_POOL = 512 * 2**20
_TYPE_WORDS = {"BOOL": "true/false", "INT64": "a whole number", "DOUBLE": "a number",
               "STRING": "text", "STRING[]": "a list of text", "JSON": "a structure"}


@dataclass
class Loaded:
    """A database for one graph: every table made at once, each filled on demand.

    ``prepare`` makes every node and relationship table, empty, always in the
    same order (so the engine binds every query against the schema of a full
    load, with the same errors, whatever the build asked first); ``require`` fills, by ``COPY``, the
    ones a query can reach, each once: a query about notes never pays for the
    graph's tens of thousands of sections.  ``load`` fills everything.
    """

    database: ladybug.Database
    connection: ladybug.Connection
    labels: dict[str, dict[str, str]]  # label -> column -> type
    relations: dict[str, list[tuple[str, str]]]  # edge type -> (from label, to label)
    label_of: dict[str, str]  # node bid -> label
    keys: dict[str, int] = field(default_factory=dict)  # node bid -> _key (within its label)
    diagnostics: list[diag.Diagnostic] = field(default_factory=list)
    _nodes: dict[str, list[Node]] = field(default_factory=dict)  # label -> its nodes
    _edges: dict[str, list[Edge]] = field(default_factory=dict)  # edge type -> its edges
    #: edge type -> the (from label, to label) of each of its edges
    _ends: dict[str, list[tuple[str | None, str | None]]] = field(default_factory=dict)
    _names: dict[str, str] = field(default_factory=dict)  # lower-cased name -> table
    #: edge type -> (from label, to label) -> its edges, made when the type is first filled
    _groups: dict[str, dict[tuple[str | None, str | None], list[Edge]]] = field(
        default_factory=dict)
    _filled: set[str] = field(default_factory=set)  # labels filled
    _filled_pairs: set[tuple[str, str, str]] = field(default_factory=set)  # (type, from, to)
    #: label -> column -> the frontmatter field it holds, where they differ (``field_kind``)
    renamed: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def tables(self) -> frozenset[str]:
        """The tables filled so far: labels, and edge types with at least one pair."""
        return frozenset(self._filled | {rel_type for rel_type, _, _ in self._filled_pairs})

    def require(self, reach: Reach | None) -> None:
        """Fill the tables ``reach`` names (``None``: every table).

        A label named is filled; an edge type named is filled with the pairs of
        labels it joins (all of them when ``reach.any_end``, else those between
        labels it names, or all when it names none of them), and so are the
        labels at their ends.
        """
        if reach is None:
            labels = set(self._nodes)
            pairs = [(t, pair) for t, groups in self.relations.items() for pair in groups]
        else:
            named = {self._names[n] for n in reach.names if n in self._names}
            labels = {t for t in named if t in self._nodes}
            pairs = []
            for rel_type in (t for t in self.relations if t in named):
                groups = self.relations[rel_type]
                inside = [(a, b) for a, b in groups if a in labels and b in labels]
                pairs += [(rel_type, pair) for pair in
                          (groups if reach.any_end or not inside else inside)]
        labels.update(end for _, pair in pairs for end in pair)
        labels -= self._filled
        pairs = [(t, (a, b)) for t, (a, b) in pairs if (t, a, b) not in self._filled_pairs]
        if not labels and not pairs:
            return
        with tempfile.TemporaryDirectory(prefix="beliefbase-query-") as tmp:
            folder = Path(tmp)
            for label in (label for label in self._nodes if label in labels):
                cols = self.labels[label]
                path = folder / f"n{len(self._filled)}.csv"
                _copy(self.connection, label, path, serial=_write_csv(
                    path, list(cols), _node_rows(self._nodes[label], cols,
                                                 self.renamed.get(label, {}))))
                self._filled.add(label)
            keys = self.keys
            for rel_type, (a, b) in pairs:
                path = folder / f"r{len(self._filled_pairs)}.csv"
                rows = [(keys[e.source], keys[e.target], e.file, e.line, e.weight_kind,
                         e.display) for e in self._grouped(rel_type)[(a, b)]]
                _copy(self.connection, rel_type, path,
                      serial=_write_csv(path, _REL_HEADER, rows),
                      extra=f", from={_literal(a)}, to={_literal(b)}"
                      if len(self.relations[rel_type]) > 1 else "")
                self._filled_pairs.add((rel_type, a, b))

    def _grouped(self, rel_type: str) -> dict[tuple[str | None, str | None], list[Edge]]:
        """The edges of ``rel_type`` by (from label, to label)."""
        found = self._groups.get(rel_type)
        if found is None:
            found = self._groups[rel_type] = defaultdict(list)
            for edge, ends in zip(self._edges[rel_type], self._ends[rel_type], strict=True):
                found[ends].append(edge)
        return found


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
    loaded = prepare(graph, display)
    loaded.require(None)
    return loaded


def prepare(graph: Graph, display: Any = str) -> Loaded:
    """A new in-memory database with every table of ``graph``, all empty (see
    ``Loaded.require``)."""
    database = ladybug.Database(None, buffer_pool_size=_BUFFER_POOL)
    connection = ladybug.Connection(database)
    labels, node_labels, keys = _labels(graph)
    diagnostics: list[diag.Diagnostic] = []
    renamed: dict[str, dict[str, str]] = {}
    columns = {label: _columns(label, nodes, display, diagnostics, renamed)
               for label, nodes in labels.items()}
    edges = _edge_types(graph, {label.lower() for label in labels})
    ends = {rel_type: list(_ends(type_edges, node_labels))
            for rel_type, type_edges in edges.items()}
    pairs = {rel_type: sorted((a, b) for a, b in set(type_ends) if a is not None and b is not None)
             for rel_type, type_ends in ends.items()}
    pairs = {rel_type: found for rel_type, found in pairs.items() if found}
    for label, cols in columns.items():
        spec = ", ".join(f"{quote_name(c)} {c_type}" for c, c_type in cols.items())
        connection.execute(f"CREATE NODE TABLE {quote_name(label)}({spec}, PRIMARY KEY(_key))")
    props = ", ".join(f"{c} {t}" for c, t in REL_COLUMNS)
    for rel_type, groups in pairs.items():
        between = ", ".join(f"FROM {quote_name(a)} TO {quote_name(b)}" for a, b in groups)
        connection.execute(f"CREATE REL TABLE {quote_name(rel_type)}({between}, {props})")
    names = {label.lower(): label for label in labels}
    names.update((rel_type.lower(), rel_type) for rel_type in edges)
    return Loaded(database, connection, columns, pairs, node_labels, keys, diagnostics,
                  labels, edges, ends, names, renamed={k: v for k, v in renamed.items() if v})


def _labels(graph: Graph) -> tuple[dict[str, list[Node]], dict[str, str], dict[str, int]]:
    """Nodes by label (labels differing only in case are one: the engine's names are
    case-insensitive; the first spelling by node order wins), each node's label, and
    its key: its place among the nodes of its label."""
    spelling: dict[str, str] = {}  # lower-cased label -> its first spelling
    known: dict[str, str] = {}  # a label as wanted -> its spelling (one lower() per label)
    labels: dict[str, list[Node]] = {}
    node_labels: dict[str, str] = {}
    keys: dict[str, int] = {}
    for node in graph.nodes.values():
        kind = node.kind  # label_of, inline: this runs over every node of the graph
        wanted = (node.schema or "Note") if kind == "Document" else kind
        label = known.get(wanted)
        if label is None:
            label = known[wanted] = spelling.setdefault(wanted.lower(), wanted)
        nodes = labels.setdefault(label, [])
        keys[node.bid] = len(nodes)
        nodes.append(node)
        node_labels[node.bid] = label
    return labels, node_labels, keys


def _edge_types(graph: Graph, taken: set[str]) -> dict[str, list[Edge]]:
    """Edges by type, sorted (types differing only in case are one, the first spelling
    wins).  An edge type named like a label (the engine has one namespace for both) is
    left out, as are edges without a type."""
    by_type: dict[str, list[Edge]] = defaultdict(list)
    for edge in graph.edges:
        by_type[edge.type].append(edge)
    spelling: dict[str, str] = {}
    merged: dict[str, list[Edge]] = {}
    for edge_type, edges in by_type.items():
        if not edge_type or edge_type.lower() in taken:
            continue
        merged.setdefault(spelling.setdefault(edge_type.lower(), edge_type), []).extend(edges)
    return dict(sorted(merged.items()))


def _ends(edges: list[Edge], node_labels: dict[str, str]) -> (
    Iterator[tuple[str | None, str | None]]
):
    """The (from label, to label) of each edge (``None`` for a node not in the graph),
    without a Python-level loop: this runs over every edge of the graph."""
    get = node_labels.get
    return zip(map(get, map(_SOURCE, edges)), map(get, map(_TARGET, edges)), strict=True)


def _columns(label: str, nodes: list[Node], display: Any,
             diagnostics: list[diag.Diagnostic],
             renamed: dict[str, dict[str, str]]) -> dict[str, str]:
    """The columns of one label: the base ones, then each frontmatter field typed (a
    field named like a built-in property under ``RENAMED_PREFIX``, in ``renamed``)."""
    seen: dict[str, dict[str, str]] = {}  # column -> type -> first file with it
    spelling: dict[str, str] = {}
    clashes: dict[str, list[str]] = {}  # renamed column -> the files with the field
    for node in nodes:
        if not node.properties:
            continue
        for key, value in node.properties.items():
            if not key or key == "_key" or value is None:
                continue
            name = spelling.setdefault(key.lower(), key)
            if name != key:
                continue  # the same field spelled in another case: the first one wins
            if name.lower() in _CLASHING:
                column = RENAMED_PREFIX + name
                renamed.setdefault(label, {})[column] = name
                clashes.setdefault(column, []).append(node.path or node.bid)
                name = column
            seen.setdefault(name, {}).setdefault(_value_type(value), node.path or node.bid)
    for column, files in clashes.items():
        field_name = renamed[label][column]
        shown = ", ".join(display(f) for f in files[:3]) + (
            f" and {len(files) - 3} more" if len(files) > 3 else "")
        diagnostics.append(diag.make(
            "query-property-renamed", display(files[0]), 1, 1,
            f"`{field_name}` of {label} ({shown}) is named like the built-in property "
            f"`{field_name.lower()}`: queries see this field as `{column}` "
            f"(n.{column}); rename the field to query it by its own name"))
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
    if isinstance(value, list | tuple) and all(_plain_element(v) for v in value):
        return "STRING[]"
    return "JSON"


def _plain_element(value: Any) -> bool:
    return (isinstance(value, str) and value != "" and value == value.strip()
            and (not _LIST_UNSAFE.intersection(value)
                 or _LIST_WIKILINK.fullmatch(value) is not None))


def _node_rows(nodes: list[Node], columns: dict[str, str],
               renamed: dict[str, str]) -> list[tuple[Any, ...]]:
    """The CSV rows of one label's nodes; ``_key`` is a node's place in ``nodes``;
    ``renamed``: the field each renamed column holds."""
    extra = list(columns.items())[len(BASE_COLUMNS):]
    rows = [(key, node.bid, node.kind, node.title, node.path, node.url,
             _plain_list(node.tags), _plain_list(node.aliases))
            for key, node in enumerate(nodes)]
    if not extra:
        return rows
    fields = [(renamed.get(name, name), column_type) for name, column_type in extra]
    return [(*row, *(_cell(node.properties.get(name), column_type)
                     for name, column_type in fields))
            for row, node in zip(rows, nodes, strict=True)]


def _plain_list(values: tuple[str, ...]) -> str:
    """A list of text as a ``STRING[]`` cell, without the elements it cannot hold."""
    if not values:
        return "[]"  # most nodes (every section and block): no per-element work
    return _list_text([v for v in values if _plain_element(v)])


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


def _list_text(values: Sequence[str]) -> str:
    return "[" + ",".join(values) + "]"


def _write_csv(path: Path, header: list[str], rows: Any) -> bool:
    """Write the CSV file; does a value hold a line break?"""
    records = rows if isinstance(rows, list) else list(rows)
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

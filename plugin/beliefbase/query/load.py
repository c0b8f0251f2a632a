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

Node tables are made at once (``prepare``); a relationship table is made, and rows
go in, table by table, when a query can first reach them (``Loaded.require``,
``reach.reach``): sections are most of a graph and few queries ask about them.
Rows go in by ``COPY`` from CSV files written to a temporary folder (per-row
``CREATE`` took 47 s for 5,000 notes; ``COPY`` takes well under a second), each
file written a column at a time, in C (``_csv_text``).  The engine itself
(``ladybug``) is imported by the first query: a build without one never loads it.
The graph only has published notes: drafts are never loaded.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import and_, attrgetter, eq
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import diagnostics as diag
from ..graph.model import Edge, Graph, Node
from .reach import Reach

if TYPE_CHECKING:  # imported by ``prepare``: only a build with a query pays for the engine
    import ladybug

#: The columns every node table has, in this order.  The key is ``_key``, a node's
#: place among the nodes of the graph: the engine indexes and joins on it faster
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
_TYPE = attrgetter("type")
_KIND = attrgetter("kind")
_TAGS = attrgetter("tags")
_ALIASES = attrgetter("aliases")
#: A node's base columns after ``_key``, and an edge's properties, as one tuple each.
_NODE_TEXT = attrgetter("bid", "kind", "title", "path", "url")
#: The header of a relationship table's CSV file.
_REL_HEADER = ["from", "to", *(c for c, _ in REL_COLUMNS)]
#: Characters a list element cannot hold and stay a ``STRING[]`` element in CSV
#: (ladybug's list syntax has no escape for them).
_LIST_UNSAFE = set(",[]{}'\"\\\n\r")
# A list element that is one wikilink ("[[Ada]]", "[[Ada|the countess, first]]"):
# ladybug reads balanced brackets (and commas inside them) as one element.
_LIST_WIKILINK = re.compile(r"\[\[[^\[\]{}'\"\\\n\r]+\]\]")
# A CSV cell holding a delimiter, a quote or a line break is written quoted.
_CSV_SPECIAL = re.compile(r'[,"\n\r]')
#: ``_EMPTY.get(value, value)``: ``None`` as an empty cell, any text as itself (in C).
_EMPTY: dict[Any, str] = {None: ""}
#: The database's memory for pages; a 20,000-note graph needs far less.
_BUFFER_POOL = 512 * 2**20
_TYPE_WORDS = {"BOOL": "true/false", "INT64": "a whole number", "DOUBLE": "a number",
               "STRING": "text", "STRING[]": "a list of text", "JSON": "a structure"}


@dataclass
class Relation:
    """One edge type: its edges (places in the graph's edge list) and their ends."""

    edges: list[int]  # the type's edges, in graph order
    sources: list[int | None]  # the _key of each one's source (None: not in the graph)
    targets: list[int | None]
    from_labels: list[str | None]  # the label of each one's source
    to_labels: list[str | None]
    pairs: list[tuple[str, str]]  # the (from label, to label) it joins, sorted

    def group(self, pair: tuple[str, str]) -> Sequence[int]:
        """The places in ``edges`` of the edges between ``pair`` (a pass in C)."""
        if len(self.pairs) == 1 and None not in self.sources and None not in self.targets:
            return range(len(self.edges))  # the usual case: one pair, every edge
        a, b = pair
        return list(compress(range(len(self.edges)), map(
            and_, map(eq, self.from_labels, repeat(a)), map(eq, self.to_labels, repeat(b)))))


@dataclass
class Loaded:
    """A database for one graph: every table made at once, each filled on demand.

    ``prepare`` makes every node and relationship table, empty, always in the
    same order (the engine binds every query against the schema of a full load,
    with the same errors, whatever the build asked first; and the order tables
    are made in is the order it scans them in, which decides the rows a ``LIMIT``
    without ``ORDER BY`` keeps); ``require`` fills, by ``COPY``, the ones a query
    can reach, each once: a query about notes never pays for the graph's tens of
    thousands of sections.  ``load`` fills everything.
    """

    database: ladybug.Database
    connection: ladybug.Connection
    labels: dict[str, dict[str, str]]  # label -> column -> type
    relations: dict[str, Relation]  # edge type -> its edges, those with a table only
    keys: dict[str, int] = field(default_factory=dict)  # node bid -> _key
    diagnostics: list[diag.Diagnostic] = field(default_factory=list)
    _graph_nodes: list[Node] = field(default_factory=list)  # the graph's nodes, by _key
    _graph_edges: Sequence[Edge] = ()
    _nodes: dict[str, list[int]] = field(default_factory=dict)  # label -> its nodes' _keys
    _names: dict[str, str] = field(default_factory=dict)  # lower-cased name -> table
    _documents: frozenset[str] = frozenset()  # the labels that hold a document
    _filled: set[str] = field(default_factory=set)  # labels filled
    _filled_pairs: set[tuple[str, str, str]] = field(default_factory=set)  # (type, from, to)
    #: label -> column -> the frontmatter field it holds, where they differ (``field_kind``)
    renamed: dict[str, dict[str, str]] = field(default_factory=dict)
    #: label -> what typing its columns reported (``diagnostics``, by label: ``update.py``)
    label_diagnostics: dict[str, list[diag.Diagnostic]] = field(default_factory=dict)
    label_at: list[str] = field(default_factory=list)  # each node's label, by _key
    display: Any = str  # a docs-relative path -> as diagnostics show it

    @property
    def tables(self) -> frozenset[str]:
        """The tables filled so far: labels, and edge types with at least one pair."""
        return frozenset(self._filled | {rel_type for rel_type, _, _ in self._filled_pairs})

    def require(self, reach: Reach | None) -> None:
        """Fill the tables ``reach`` names (``None``: every table).

        A label named is filled; an edge type named is filled with the pairs of
        labels it joins (all of them when ``reach.any_end``, else those between
        labels it names, or all when it names none of them), and so are the
        labels at their ends; ``reach.documents``: every label holding a document.
        """
        if reach is None:
            labels = set(self._nodes)
            pairs = [(t, pair) for t, rel in self.relations.items() for pair in rel.pairs]
        else:
            named = {self._names[n] for n in reach.names if n in self._names}
            labels = {t for t in named if t in self._nodes}
            if reach.documents:
                labels |= self._documents
            pairs = []
            for rel_type in (t for t in self.relations if t in named):
                groups = self.relations[rel_type].pairs
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
                path = folder / f"n{len(self._filled)}.csv"
                _copy(self.connection, label, path, serial=_write_csv(
                    path, list(self.labels[label]), self._node_columns(label)))
                self._filled.add(label)
            for rel_type, (a, b) in pairs:
                self.copy_pair(folder, rel_type, (a, b))

    def copy_pair(self, folder: Path, rel_type: str, pair: tuple[str, str]) -> None:
        """Fill the edges of ``rel_type`` between ``pair`` by ``COPY`` (a file in ``folder``)."""
        path = folder / f"r{len(self._filled_pairs)}.csv"
        rel = self.relations[rel_type]
        a, b = pair
        _copy(self.connection, rel_type, path,
              serial=_write_csv(path, _REL_HEADER, self._rel_columns(rel, pair)),
              extra=f", from={_literal(a)}, to={_literal(b)}" if len(rel.pairs) > 1 else "")
        self._filled_pairs.add((rel_type, a, b))

    def _node_columns(self, label: str) -> list[Sequence[Any]]:
        """The CSV columns of one label's nodes (see ``BASE_COLUMNS``), each made in one go."""
        keys = self._nodes[label]
        nodes = list(map(self._graph_nodes.__getitem__, keys))
        lists = _ListCells()  # most nodes (every section) have no tags: one conversion
        text: list[Sequence[Any]] = list(zip(*map(_NODE_TEXT, nodes), strict=True))
        columns: list[Sequence[Any]] = [keys, *text]
        columns.append(list(map(lists.__getitem__, map(_TAGS, nodes))))
        columns.append(list(map(lists.__getitem__, map(_ALIASES, nodes))))
        renamed = self.renamed.get(label, {})  # column -> the field it holds (``field_kind``)
        for name, column_type in list(self.labels[label].items())[len(BASE_COLUMNS):]:
            field_name = renamed.get(name, name)
            columns.append([_cell(node.properties.get(field_name), column_type)
                            for node in nodes])
        return columns

    def _rel_columns(self, rel: Relation, pair: tuple[str, str]) -> list[Sequence[Any]]:
        """The CSV columns of the edges of ``rel`` between ``pair`` (``_REL_HEADER``)."""
        places = rel.group(pair)
        edges = list(map(self._graph_edges.__getitem__, map(rel.edges.__getitem__, places)))
        return [list(map(rel.sources.__getitem__, places)),
                list(map(rel.targets.__getitem__, places)),
                *(list(map(attrgetter(name), edges)) for name, _ in REL_COLUMNS)]


class _ListCells(dict[tuple[str, ...], str]):
    """A list of text -> its ``STRING[]`` cell; each distinct list converted once."""

    def __missing__(self, values: tuple[str, ...]) -> str:
        cell = self[values] = _plain_list(values)
        return cell


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
    import ladybug  # noqa: PLC0415 - here: a build without a query never loads the engine

    database = ladybug.Database(None, buffer_pool_size=_BUFFER_POOL)
    connection = ladybug.Connection(database)
    nodes = list(graph.nodes.values())
    label_at = _label_at(nodes)
    documents = frozenset(compress(label_at, map(eq, map(_KIND, nodes), repeat("Document"))))
    bids = list(graph.nodes)
    keys = dict(zip(bids, range(len(bids)), strict=True))
    labels: dict[str, list[int]] = {label: [] for label in dict.fromkeys(label_at)}
    for key, label in enumerate(label_at):
        labels[label].append(key)
    renamed: dict[str, dict[str, str]] = {}
    by_label: dict[str, list[diag.Diagnostic]] = {label: [] for label in labels}
    columns = {label: _columns(label, list(map(nodes.__getitem__, label_keys)), display,
                               by_label[label], renamed)
               for label, label_keys in labels.items()}
    diagnostics = [found for label in labels for found in by_label[label]]
    relations = _relations(graph.edges, keys, label_at, {label.lower() for label in labels})
    for label, cols in columns.items():
        spec = ", ".join(f"{quote_name(c)} {c_type}" for c, c_type in cols.items())
        connection.execute(f"CREATE NODE TABLE {quote_name(label)}({spec}, PRIMARY KEY(_key))")
    props = ", ".join(f"{c} {t}" for c, t in REL_COLUMNS)
    for rel_type, rel in relations.items():
        if rel.pairs:
            between = ", ".join(f"FROM {quote_name(a)} TO {quote_name(b)}" for a, b in rel.pairs)
            connection.execute(f"CREATE REL TABLE {quote_name(rel_type)}({between}, {props})")
    names = {label.lower(): label for label in labels}
    names.update((rel_type.lower(), rel_type) for rel_type in relations)
    return Loaded(database, connection, columns,
                  {t: rel for t, rel in relations.items() if rel.pairs},
                  keys, diagnostics,
                  nodes, graph.edges, labels, names, documents,
                  renamed={k: v for k, v in renamed.items() if v},
                  label_diagnostics=by_label, label_at=label_at, display=display)


def _label_at(nodes: list[Node]) -> list[str]:
    """Each node's label (``label_of``, inline: this runs over every node of the graph).

    Labels differing only in case are one (the engine's names are case-insensitive):
    the first spelling by node order wins."""
    wanted = [(node.schema or "Note") if node.kind == "Document" else node.kind
              for node in nodes]
    spelling: dict[str, str] = {}
    first = {label: spelling.setdefault(label.lower(), label) for label in dict.fromkeys(wanted)}
    if all(label == spelled for label, spelled in first.items()):
        return wanted
    return list(map(first.__getitem__, wanted))


def _relations(edges: Sequence[Edge], keys: dict[str, int], label_at: list[str],
               taken: set[str]) -> dict[str, Relation]:
    """Edges by type, sorted by type (types differing only in case are one, the first
    spelling wins).  An edge type named like a label (the engine has one namespace for
    both) is left out, as are edges without a type.

    Each edge's ends are looked up once, by a ``map`` over every edge (the lookups
    are most of the cost); one loop sorts the edges by type."""
    types = list(map(_TYPE, edges))
    all_sources = list(map(keys.get, map(_SOURCE, edges)))
    all_targets = list(map(keys.get, map(_TARGET, edges)))
    by_type: dict[str, list[int]] = {}
    for place, edge_type in enumerate(types):
        found_places = by_type.get(edge_type)
        if found_places is None:
            found_places = by_type[edge_type] = []
        found_places.append(place)
    spelling: dict[str, list[str]] = {}
    for edge_type in by_type:
        if edge_type and edge_type.lower() not in taken:
            spelling.setdefault(edge_type.lower(), []).append(edge_type)
    found: dict[str, Relation] = {}
    for spelled in spelling.values():
        places = [p for t in spelled for p in by_type[t]]
        sources = list(map(all_sources.__getitem__, places))
        targets = list(map(all_targets.__getitem__, places))
        from_labels, to_labels = _labels(sources, label_at), _labels(targets, label_at)
        pairs = sorted((a, b) for a, b in set(zip(from_labels, to_labels, strict=True))
                       if a is not None and b is not None)
        found[spelled[0]] = Relation(places, sources, targets, from_labels, to_labels, pairs)
    return dict(sorted(found.items()))


def _labels(keys: list[int | None], label_at: list[str]) -> list[str | None]:
    """The label of each node ``_key`` (``None`` for ``None``: a node not in the graph)."""
    if None in keys:
        return [None if key is None else label_at[key] for key in keys]
    return list(map(label_at.__getitem__, keys))  # type: ignore[arg-type]


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


def _write_csv(path: Path, header: list[str], columns: Sequence[Sequence[Any]]) -> bool:
    """Write the CSV file of ``columns``; does a value hold a line break?

    A column at a time, in C (a ``join`` finds whether a column needs quotes, a
    ``join`` per table): a ``csv.writer`` turning each cell into text took three
    times as long, and these files hold every node and edge of the graph."""
    cells = [_column_cells(column) for column in columns]
    text = "\n".join([",".join(header),
                      *map(",".join, zip(*(c for c, _ in cells), strict=True))]) + "\n"
    path.write_text(text, encoding="utf-8")
    return any(broken for _, broken in cells)


def _column_cells(column: Sequence[Any]) -> tuple[Sequence[str], bool]:
    """One column's values as CSV cells (``None`` empty, read back as null; when a cell
    holds a delimiter, a quote or a line break, every non-empty cell of the column
    quoted, its quotes doubled); does one hold a line break?"""
    kinds = set(map(type, column))
    texts = {kind for kind in kinds if issubclass(kind, str)}  # a StrEnum joins as its text
    if kinds == texts:
        cells: Sequence[str] = column
    elif kinds == {int}:
        return list(map(str, column)), False
    elif kinds == texts | {type(None)}:
        cells = list(map(_EMPTY.get, column, column))
    else:
        cells = ["" if value is None else value if type(value) is str else str(value)
                 for value in column]
    joined = "".join(cells)
    if not _CSV_SPECIAL.search(joined):
        return cells, False
    quoted = list(map('"{}"'.format, map(str.replace, cells, repeat('"'), repeat('""'))))
    for place in compress(range(len(cells)), map(eq, cells, repeat(""))):
        quoted[place] = ""  # empty, not a quoted empty text: the engine reads null
    return quoted, "\n" in joined or "\r" in joined


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

"""A save's changes applied to the last build's database, not a new one loaded.

Under ``mkdocs serve`` the database of one build is kept for the next
(``KeptDatabase``).  ``update(loaded, old, new)`` turns the database of graph
``old`` into one that answers every query as ``load(new)`` would, from the
differences of the two graphs, or says it cannot (False: the caller loads a new
one).  It can when the nodes are the same ones in the same order with the same
labels and every table keeps its columns and what typing them reported (an
edit of a note's fields, text or links, not a new note or heading):

* a changed node's row is updated in place (``SET``), so every table keeps the
  order of a fresh load (the order a ``LIMIT`` without ``ORDER BY``, ties of an
  ``ORDER BY`` and ``collect`` follow);
* the edges of a type between two labels that changed are deleted and copied
  again, in graph order (as a fresh load copies them).

Tables no query filled yet are left empty: they are filled from the new graph
when a query first reaches them (``Loaded.require``).
"""

from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import dataclass
from itertools import compress, repeat
from operator import eq
from pathlib import Path
from typing import Any

from ..graph.model import Graph, Node
from .load import (
    BASE_COLUMNS,
    Loaded,
    _cell,
    _columns,
    _label_at,
    _plain_element,
    _relations,
    quote_name,
)

log = logging.getLogger(__name__)


@dataclass
class KeptDatabase:
    """The database of the last build under ``mkdocs serve``, and its graph."""

    graph: Graph | None = None
    loaded: Loaded | None = None
    pid: int = 0  # the process that made it (a forked worker never uses it)
    updates: int = 0  # builds that updated it rather than loading a new one

    def take(self, graph: Graph, display: Any) -> Loaded | None:
        """The kept database made to answer for ``graph``, or None (none kept, or the
        change is one ``update`` cannot make: it is let go)."""
        loaded, old = self.loaded, self.graph
        if loaded is None or old is None or self.pid != os.getpid():
            return None
        self.graph = None  # while it changes: an update that fails leaves none kept
        try:
            same = display("") == loaded.display("") and (
                old is graph or update(loaded, old, graph))
        except Exception:  # noqa: BLE001 - the engine's errors: a new database answers
            log.debug("updating the query database failed: loading it again", exc_info=True)
            same = False
        if same:
            self.graph = graph
            loaded.display = display
            self.updates += old is not graph
            return loaded
        self.forget()
        return None

    def keep(self, graph: Graph, loaded: Loaded) -> None:
        if self.loaded is not None and self.loaded is not loaded:
            self.forget()
        self.graph, self.loaded, self.pid = graph, loaded, os.getpid()

    def forget(self) -> None:
        """Let the database go now (each maps a large reserve of memory)."""
        loaded, self.loaded, self.graph = self.loaded, None, None
        if loaded is not None and self.pid == os.getpid():
            loaded.connection.close()
            loaded.database.close()


def update(loaded: Loaded, old: Graph, new: Graph) -> bool:
    """Make ``loaded``, the database of ``old``, answer as one of ``new`` would; False
    (``loaded`` unchanged) when the change is not one it makes (see the module doc)."""
    old_nodes = loaded._graph_nodes
    new_nodes = list(new.nodes.values())
    if len(old_nodes) != len(new_nodes) or list(old.nodes) != list(new.nodes):
        return False
    changed = [key for key, a, b in zip(range(len(new_nodes)), old_nodes, new_nodes,
                                        strict=True) if a is not b and a != b]
    label_at = loaded.label_at
    if changed and _label_at(new_nodes) != label_at:
        return False
    labels = {label_at[key] for key in changed}
    for label in labels:
        renamed: dict[str, dict[str, str]] = {}
        found: list[Any] = []
        nodes = list(map(new_nodes.__getitem__, loaded._nodes[label]))
        columns = _columns(label, nodes, loaded.display, found, renamed)
        if (columns != loaded.labels[label] or renamed.get(label, {}) !=
                loaded.renamed.get(label, {}) or found != loaded.label_diagnostics[label]):
            return False
    edges_changed = old.edges is not new.edges and list(old.edges) != list(new.edges)
    relations = loaded.relations
    if edges_changed:
        taken = {label.lower() for label in loaded._nodes}
        relations = {t: rel for t, rel in
                     _relations(new.edges, loaded.keys, label_at, taken).items() if rel.pairs}
        if {t: r.pairs for t, r in relations.items()} != {
                t: r.pairs for t, r in loaded.relations.items()}:
            return False
    connection = loaded.connection
    connection.set_query_timeout(0)
    for key in changed:
        if label_at[key] in loaded._filled:
            _set_node(loaded, key, new_nodes[key])
    stale: list[tuple[str, tuple[str, str]]] = []
    if edges_changed:
        for rel_type, a, b in sorted(loaded._filled_pairs):
            before, after = loaded.relations[rel_type], relations[rel_type]
            if ([old.edges[before.edges[p]] for p in before.group((a, b))]
                    != [new.edges[after.edges[p]] for p in after.group((a, b))]):
                stale.append((rel_type, (a, b)))
    loaded._graph_nodes = new_nodes
    loaded._graph_edges = new.edges
    loaded.relations = relations
    loaded._documents = frozenset(compress(label_at, map(eq, (n.kind for n in new_nodes),
                                                         repeat("Document"))))
    if stale:
        with tempfile.TemporaryDirectory(prefix="beliefbase-query-") as tmp:
            for rel_type, (a, b) in stale:
                connection.execute(f"MATCH (:{quote_name(a)})-[r:{quote_name(rel_type)}]->"
                                   f"(:{quote_name(b)}) DELETE r")
                loaded._filled_pairs.discard((rel_type, a, b))
                loaded.copy_pair(Path(tmp), rel_type, (a, b))
    return True


def _set_node(loaded: Loaded, key: int, node: Node) -> None:
    """Write ``node``'s columns over the row of ``key`` (its place stays)."""
    label = loaded.label_at[key]
    columns = list(loaded.labels[label].items())
    renamed = loaded.renamed.get(label, {})
    values: dict[str, Any] = {
        "bid": node.bid, "kind": node.kind, "title": node.title, "path": node.path,
        "url": node.url, "tags": _plain_list(node.tags), "aliases": _plain_list(node.aliases)}
    for name, column_type in columns[len(BASE_COLUMNS):]:
        values[name] = _value(node.properties.get(renamed.get(name, name)), column_type)
    params = {f"p{i}": _null_empty(values[name]) for i, (name, _) in enumerate(columns[1:])}
    sets = ", ".join(f"n.{quote_name(name)} = $p{i}" for i, (name, _) in enumerate(columns[1:]))
    loaded.connection.execute(
        f"MATCH (n:{quote_name(label)}) WHERE n._key = $key SET {sets}",
        {"key": key, **params})


def _plain_list(values: tuple[str, ...]) -> list[str]:
    return [v for v in values if _plain_element(v)]


def _value(value: Any, column_type: str) -> Any:
    """A field's value as the column holds it after a ``COPY`` (``load._cell``)."""
    if value is None:
        return None
    if column_type == "STRING[]":
        return list(value)
    if column_type == "BOOL":
        return bool(value)
    if column_type == "DOUBLE":
        return float(value)
    if column_type == "STRING":
        return _cell(value, column_type)
    return value


def _null_empty(value: Any) -> Any:
    """An empty text is null, as an empty CSV cell is."""
    return None if value == "" else value

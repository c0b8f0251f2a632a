"""Running queries: once per build per distinct text, rows as plain Python values.

``QueryEngine`` holds one graph; its database is made on the first query (a
build with no query never makes one) and each table is filled the first time a
query can reach it (``reach``): every text runs at most once (memo).
A result is deterministic: rows are sorted when the query has no ORDER BY.
Nodes come back as dicts with ``bid``, ``label``, ``kind``, ``title``, ``url``,
``path``, ``tags``, ``aliases`` and their frontmatter fields (``None`` fields left out);
relationships as dicts with ``type``, ``file``, ``line``, ``weight_kind``.
Failures (refused clause, syntax, unknown label or property, time or row
limit) are results too, with ``error`` set to the engine's message.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import diagnostics as diag
from ..graph.model import Graph
from .load import Loaded, prepare
from .reach import reach
from .sandbox import Refused, check, has_order_by
from .update import KeptDatabase

#: Defaults of the options ``query_timeout`` (seconds) and ``query_max_rows``.
DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_ROWS = 1000


@dataclass(frozen=True)
class QueryResult:
    """What one query returned (or why it failed)."""

    columns: tuple[str, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    error: str | None = None

    @property
    def is_nodes(self) -> bool:
        """One column of nodes: a list of things rather than a table of values."""
        return len(self.columns) == 1 and bool(self.rows) and all(
            is_node(row[0]) for row in self.rows)

    @property
    def schema(self) -> str | None:
        """The label every node of a node result shares (None if mixed or rows)."""
        if not self.is_nodes:
            return None
        labels = {row[0]["label"] for row in self.rows}
        return labels.pop() if len(labels) == 1 else None

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def is_node(value: Any) -> bool:
    return isinstance(value, dict) and "bid" in value and "label" in value


class QueryEngine:
    """One graph's database, its memo, and the limits every query runs under."""

    def __init__(self, graph: Graph, *, timeout: float = DEFAULT_TIMEOUT,
                 max_rows: int = DEFAULT_MAX_ROWS,
                 display: Callable[[str], str] = str,
                 kept: KeptDatabase | None = None) -> None:
        self.graph = graph
        #: under ``mkdocs serve``, the last build's database: updated, not loaded again
        self.kept = kept
        self.timeout = timeout
        self.max_rows = max_rows
        self.display = display
        self._loaded: Loaded | None = None
        self._pid = 0  # the process the database was made or taken in
        self._memo: dict[str, QueryResult] = {}

    @property
    def loaded(self) -> Loaded:
        if self._loaded is not None and self._pid != os.getpid():
            # a forked worker (``render_ahead``): the engine's threads stayed behind,
            # the database is not this process's to use (nor to update)
            self._loaded, self.kept = None, None
        if self._loaded is None:
            self._pid = os.getpid()
            kept = self.kept
            if kept is not None:
                self._loaded = kept.take(self.graph, self.display)
            if self._loaded is None:
                self._loaded = prepare(self.graph, self.display)
                if kept is not None:
                    kept.keep(self.graph, self._loaded)
        return self._loaded

    @property
    def diagnostics(self) -> list[diag.Diagnostic]:
        """What loading found (empty until a query ran)."""
        return list(self._loaded.diagnostics) if self._loaded is not None else []

    def run(self, text: str) -> QueryResult:
        """The result of ``text`` (run once per engine; later calls get the memo)."""
        text = text.strip()
        found = self._memo.get(text)
        if found is None:
            found = self._memo[text] = self._run(text)
        return found

    def _run(self, text: str) -> QueryResult:
        try:
            check(text)
        except Refused as refused:
            return QueryResult(error=str(refused))
        loaded = self.loaded
        connection = loaded.connection
        try:
            # filling tables is the build's cost, not the query's: no time limit (0)
            connection.set_query_timeout(0)
            loaded.require(reach(text))
            connection.set_query_timeout(max(1, int(self.timeout * 1000)))
            result = connection.execute(text)
            if isinstance(result, list):  # several statements: check() lets none through
                return QueryResult(error="only one statement may run")
            columns = tuple(result.get_column_names())
            rows: list[tuple[Any, ...]] = []
            while result.has_next():
                if len(rows) >= self.max_rows:
                    return QueryResult(error=f"the query returns more than {self.max_rows} rows "
                                       "(option query_max_rows): add a LIMIT or a WHERE")
                rows.append(tuple(plain(v) for v in result.get_next()))
        except Exception as error:  # noqa: BLE001 - the engine raises RuntimeError and others
            return QueryResult(error=engine_message(error, self.timeout))
        if len(rows) > 1 and not has_order_by(text):
            rows.sort(key=sort_key)
        return QueryResult(columns, tuple(rows))


def engine_message(error: Exception, timeout: float) -> str:
    text = str(error).strip() or type(error).__name__
    if "interrupted" in text.lower() or "timeout" in text.lower():
        return f"the query ran longer than {timeout:g} s (option query_timeout): {text}"
    return text


def plain(value: Any) -> Any:
    """An engine value as plain Python (nodes and relationships as dicts)."""
    if isinstance(value, dict):
        if "_LABEL" in value and "_SRC" not in value and "bid" in value:
            node = {k: plain(v) for k, v in value.items()
                    if not k.startswith("_") and v is not None}
            node["label"] = value["_LABEL"]  # over a frontmatter field of that name
            return node
        if "_LABEL" in value and "_SRC" in value:
            rel = {"type": value["_LABEL"]}
            rel.update((k, plain(v)) for k, v in value.items()
                       if not k.startswith("_") and v is not None)
            return rel
        if "_NODES" in value:  # a path
            return {"nodes": [plain(n) for n in value["_NODES"]],
                    "relationships": [plain(r) for r in value.get("_RELS", [])]}
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def sort_key(row: tuple[Any, ...]) -> str:
    """A total order on rows of any values (the engine's own order is not stable)."""
    return json.dumps(row, sort_keys=True, default=json_default, ensure_ascii=False)


def json_default(value: Any) -> Any:
    if isinstance(value, dt.date | dt.datetime | dt.time | dt.timedelta):
        return value.isoformat() if not isinstance(value, dt.timedelta) else str(value)
    return str(value)

"""``run``: a DQL query over a ``DataviewIndex``, to a frozen ``DataviewResult``.

The query's source (``FROM``) picks pages (or, for ``TASK``, their tasks) in
path order; the commands then run in the order written, each on the rows the
previous one left: ``WHERE`` filters, ``SORT`` orders (stable, several keys),
``LIMIT`` cuts, ``FLATTEN`` makes a row per list element, ``GROUP BY`` makes a
row per distinct key (groups in key order) holding ``key`` and ``rows``.
A row whose expression fails is dropped, as in Dataview; when every row fails
the query fails with the first error.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..frozen import FrozenDict
from . import nodes as n
from .errors import DataviewError
from .evaluate import Evaluator, Fn, Reads
from .index import DataviewIndex, ResolveLink
from .items import ListItem
from .parser import parse_expression, parse_query
from .records import PageRecord, records_from_files
from .values import Link, group_key, order_key, sort_key, type_name

if TYPE_CHECKING:
    from ..compile.compiled import Compiled
    from ..compile.vault_files import VaultFiles

CALENDAR_NOTE = "A calendar is shown as a list by date."


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One row: ``id`` is the page's link, a group's key, or None (``WITHOUT ID``);
    ``values`` the columns (TABLE), the one extra value (LIST, empty when none) or
    the date (CALENDAR)."""

    id: Any
    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class TaskEntry:
    """A task in a TASK result: its note's path and the item (with its children,
    all of them shown, as Dataview shows a matching task's subtasks)."""

    path: str
    item: ListItem


@dataclass(frozen=True, slots=True)
class TaskGroup:
    """The tasks of a TASK result under one group key (``key`` None and
    ``grouped`` False when the query has no GROUP BY)."""

    key: Any
    grouped: bool
    tasks: tuple[TaskEntry, ...]


@dataclass(frozen=True, slots=True)
class DataviewResult:
    """What a query gives, for the views to render.

    ``kind`` is ``table``, ``list``, ``task`` or ``calendar``; ``headers`` the
    table's column headers, the id column's first (``File`` or ``Group``) unless
    ``show_id`` is False; ``rows`` for table, list and calendar; ``tasks`` for
    task; ``note`` a line the view shows under the result (the calendar's)."""

    kind: str
    headers: tuple[str, ...]
    rows: tuple[ResultRow, ...]
    tasks: tuple[TaskGroup, ...]
    show_id: bool
    grouped: bool
    note: str | None = None

    @property
    def count(self) -> int:
        """The number of results (a table's ``File (3)``); tasks count top-level."""
        if self.kind == "task":
            return sum(len(g.tasks) for g in self.tasks)
        return len(self.rows)


class Layered(Mapping[str, Any]):
    """A task's row: its own fields over its page's, read-only, without copying."""

    __slots__ = ("_base", "_top")
    _MISSING = object()

    def __init__(self, top: Mapping[str, Any], base: Mapping[str, Any]) -> None:
        self._top = top
        self._base = base

    def get(self, key: str, default: Any = None) -> Any:
        value = self._top.get(key, Layered._MISSING)
        return self._base.get(key, default) if value is Layered._MISSING else value

    def __getitem__(self, key: str) -> Any:
        value = self.get(key, Layered._MISSING)
        if value is Layered._MISSING:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        yield from self._top
        yield from (k for k in self._base if k not in self._top)

    def __len__(self) -> int:
        return len(self._top) + sum(1 for k in self._base if k not in self._top)


@dataclass(frozen=True, slots=True)
class _Work:
    row: Mapping[str, Any]
    id: Any
    entry: TaskEntry | None = None
    members: tuple[_Work, ...] | None = None  # a group's rows


def build_index(records: Iterable[PageRecord],
                resolve_link: ResolveLink | None = None) -> DataviewIndex:
    """The index every query of a build reads (build it once); ``resolve_link``: the
    compile's resolver (``compile.vault_links.VaultLinks.resolve``)."""
    return DataviewIndex(records, resolve_link)


def index_from_compiled(compiled: Compiled, read_text: Callable[[str], str]) -> DataviewIndex:
    """The index of every published note of ``compiled`` (``index_from_files``)."""
    return index_from_files(compiled.vault_files(), read_text)


def index_from_files(files: VaultFiles, read_text: Callable[[str], str]) -> DataviewIndex:
    """The index of the build's shared file records (``VaultFiles``, which Bases reads
    too), its links resolved by the compile's resolver (``VaultFiles.resolve``)."""
    return DataviewIndex(records_from_files(files, read_text), files.resolve)


def _as_index(records: Iterable[PageRecord] | DataviewIndex) -> DataviewIndex:
    return records if isinstance(records, DataviewIndex) else DataviewIndex(records)


def _this_row(index: DataviewIndex, this_path: str | None) -> Mapping[str, Any]:
    if this_path is None:
        return FrozenDict()
    row = index.rows.get(this_path)
    if row is not None:
        return row
    name = this_path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return FrozenDict({"file": FrozenDict({"path": this_path, "name": name,
                                           "link": Link(this_path)})})


def _evaluator(index: DataviewIndex, this_path: str | None, now: dt.datetime | None) -> Evaluator:
    # links a query writes (``[[x]]``, ``link("x")``) are written in the page holding it
    reads = index.reads

    def page_of(link: Link) -> Mapping[str, Any] | None:
        if reads is not None:
            reads.other = True
        return index.page_of(link, this_path)

    return Evaluator(page_of, _this_row(index, this_path),
                     now or dt.datetime.now().replace(microsecond=0),
                     lambda link: index.normalize(link, this_path), reads)


def evaluate_inline(expr_text: str, records: Iterable[PageRecord] | DataviewIndex,
                    this_path: str | None, *, now: dt.datetime | None = None) -> Any:
    """An inline query's value (`` `= expr` ``), evaluated on the page holding it."""
    index = _as_index(records)
    ev = _evaluator(index, this_path, now)
    fn = ev.compile(parse_expression(expr_text))
    return _guard(lambda: fn(ev.this, None))


def _guard(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except DataviewError:
        raise
    except (RecursionError, ArithmeticError, ValueError, TypeError, IndexError, KeyError,
            AttributeError, MemoryError) as exc:
        raise DataviewError(f"cannot evaluate: {type(exc).__name__}: {exc}") from None


def run(query_text: str, records: Iterable[PageRecord] | DataviewIndex,
        this_path: str | None = None, *, now: dt.datetime | None = None,
        reads: Reads | None = None) -> DataviewResult:
    """Run one DQL query.  ``records`` is the whole vault (build a
    ``DataviewIndex`` once and pass it for every query); ``this_path`` the vault
    path of the note holding the query (``this``, ``[[]]``); ``now`` the time
    ``date(now)``/``date(today)`` mean (default: the clock).  Raises
    ``DataviewError`` (with line and column inside the query) and nothing else.
    ``reads``: told what the query read besides its source's pages' rows (``Reads``)."""
    query = parse_query(query_text)
    index = _as_index(records)
    index.reads = reads
    try:
        ev = _evaluator(index, this_path, now)
        return _run(query, index, ev, this_path)
    except DataviewError:
        raise
    except RecursionError:
        raise DataviewError("the query nests too deeply to evaluate") from None
    except (ArithmeticError, ValueError, TypeError, IndexError, KeyError, AttributeError,
            MemoryError) as exc:  # a value no rule foresaw: an error box, not a crash
        raise DataviewError(f"cannot evaluate: {type(exc).__name__}: {exc}") from None
    finally:
        index.reads = None


def _run(query: n.Query, index: DataviewIndex, ev: Evaluator,
         this_path: str | None) -> DataviewResult:
    pages = source_pages(query, index, this_path)
    if index.reads is not None:
        index.reads.source = frozenset(pages)
        if query.source is not None and _reads_links(query.source):
            index.reads.other = True  # which pages it gives depends on other pages' links
    work: list[_Work]
    if query.kind == "task":
        work = []
        for path in pages:
            work.extend(_task_work(index, path))
    else:
        page_rows, links = index.rows, index.links
        work = [_Work(page_rows[p], links[p]) for p in pages]
    grouped = False
    for command in query.commands:
        work, grouped = _apply(command, work, ev, grouped)
    if query.kind == "task":
        return _task_result(work, grouped)
    columns = [ev.compile(c.expr) for c in query.columns]
    if query.kind == "calendar":
        return _calendar_result(work, columns[0])
    rows = _rows(work, columns, query)
    # LIST WITHOUT ID with no expression still shows the links (as Dataview does)
    show_id = not query.without_id or (query.kind == "list" and not columns)
    headers: tuple[str, ...] = ()
    if query.kind == "table":
        headers = tuple(c.header for c in query.columns)
        if show_id:
            headers = ("Group" if grouped else "File", *headers)
    return DataviewResult(query.kind, headers, tuple(rows), (), show_id, grouped)


def _task_work(index: DataviewIndex, path: str) -> tuple[_Work, ...]:
    """The tasks of the page at ``path``, each its own fields over its page's (kept
    in the index's ``task_rows`` once a TASK query made them)."""
    made = index.task_rows
    work = made.get(path)
    if work is None:
        page = index.task_base[path]
        work = made[path] = tuple(_Work(Layered(obj, page), None, TaskEntry(path, item))
                                  for item, obj in index.items_of(path) if item.task)
    return work


def _rows(work: list[_Work], columns: list[Fn], query: n.Query) -> list[ResultRow]:
    out: list[ResultRow] = []
    first: DataviewError | None = None
    for w in work:
        try:
            values = tuple(f(w.row, None) for f in columns)
        except DataviewError as exc:
            first = first or exc
            continue
        out.append(ResultRow(w.id, values))
    if first is not None and not out:
        raise first
    return out


def _calendar_result(work: list[_Work], date_of: Fn) -> DataviewResult:
    dated: list[ResultRow] = []
    first: DataviewError | None = None
    for w in work:
        try:
            value = date_of(w.row, None)
        except DataviewError as exc:
            first = first or exc
            continue
        if isinstance(value, dt.datetime):
            dated.append(ResultRow(w.id, (value,)))
    if first is not None and not dated and work:
        raise first
    dated.sort(key=lambda r: (r.values[0], r.id.path if isinstance(r.id, Link) else ""))
    return DataviewResult("calendar", (), tuple(dated), (), True, False, CALENDAR_NOTE)


def _task_result(work: list[_Work], grouped: bool) -> DataviewResult:
    def nest(entries: list[TaskEntry]) -> tuple[TaskEntry, ...]:
        # a task whose ancestor is in the result shows under it, not again
        lines: dict[str, set[int]] = {}
        for e in entries:
            lines.setdefault(e.path, set()).add(e.item.line)
        parents: dict[tuple[str, int], int | None] = {}
        for e in entries:
            for item in e.item.walk():
                for child in item.children:
                    parents[(e.path, child.line)] = item.line
        out = []
        for e in entries:
            parent = e.item.parent
            hidden = False
            while parent is not None:
                if parent in lines[e.path]:
                    hidden = True
                    break
                parent = parents.get((e.path, parent))
            if not hidden:
                out.append(e)
        return tuple(out)

    if grouped:
        groups = tuple(
            TaskGroup(w.id, True, nest(_entries(w))) for w in work
        )
    else:
        groups = (TaskGroup(None, False, nest([w.entry for w in work if w.entry])),)
    return DataviewResult("task", (), (), groups, True, grouped)


def _entries(w: _Work) -> list[TaskEntry]:
    if w.entry is not None:
        return [w.entry]
    out: list[TaskEntry] = []
    for m in w.members or ():
        out.extend(_entries(m))
    return out


# -- sources --------------------------------------------------------------------------


def _select(source: n.Source, index: DataviewIndex, this_path: str | None) -> list[str]:
    return sorted(_source(source, index, this_path))


def source_pages(query: n.Query, index: DataviewIndex, this_path: str | None) -> list[str]:
    """The paths of the pages ``query``'s ``FROM`` gives (every page without one), in
    the order it reads them."""
    return _select(query.source, index, this_path) if query.source else list(index.rows)


def _reads_links(source: n.Source) -> bool:
    """Does ``source`` name pages by their links (``[[x]]``, ``outgoing([[x]])``)?"""
    if isinstance(source, n.LinkSource):
        return True
    if isinstance(source, n.AndSource | n.OrSource):
        return _reads_links(source.left) or _reads_links(source.right)
    if isinstance(source, n.NotSource):
        return _reads_links(source.inner)
    return False


def _source(source: n.Source, index: DataviewIndex, this_path: str | None) -> set[str]:
    if isinstance(source, n.TagSource):
        return set(index.tag_pages.get(source.tag.lower(), ()))
    if isinstance(source, n.PathSource):
        folder = source.path.strip("/")
        if not folder:
            return set(index.rows)
        inside = {p for p in index.rows if p.startswith(folder + "/")}
        if inside:
            return inside
        hit = index.file_at(folder)
        return {hit} if hit else set()
    if isinstance(source, n.LinkSource):
        target = source.target.strip()
        path = this_path if target in ("", "#") else index.resolve(target.split("#")[0].split(
            "|")[0], this_path)
        if source.outgoing:
            if path is None:
                return set()
            return {p for p in index.outlinks.get(path, ()) if p in index.rows}
        if path is None:
            return {p for p, outs in index.outlinks.items() if target in outs}
        return {p for p, outs in index.outlinks.items() if path in outs}
    if isinstance(source, n.AndSource):
        return _source(source.left, index, this_path) & _source(source.right, index, this_path)
    if isinstance(source, n.OrSource):
        return _source(source.left, index, this_path) | _source(source.right, index, this_path)
    if isinstance(source, n.NotSource):
        return set(index.rows) - _source(source.inner, index, this_path)
    return set()


# -- commands -------------------------------------------------------------------------


def _apply(command: n.Command, work: list[_Work], ev: Evaluator,
           grouped: bool) -> tuple[list[_Work], bool]:
    if isinstance(command, n.Where):
        test = ev.compile(command.expr)
        from .values import truthy

        return _where(work, test, truthy), grouped
    if isinstance(command, n.Sort):
        return _sort(work, [(ev.compile(e), desc) for e, desc in command.keys]), grouped
    if isinstance(command, n.Limit):
        count = ev.compile(command.expr)(FrozenDict(), None)
        if not isinstance(count, int | float) or isinstance(count, bool) or count < 0:
            raise DataviewError(f"LIMIT needs a number of rows, got {type_name(count)}",
                                command.line, command.column)
        return work[:int(count)], grouped
    if isinstance(command, n.Flatten):
        value_of = ev.compile(command.expr)
        name = command.name or _default_name(command.expr)

        def flatten(w: _Work) -> list[_Work]:
            value = value_of(w.row, None)
            values = value if isinstance(value, tuple | list) else (value,)
            return [_Work(FrozenDict({**w.row, name: v}), w.id, w.entry, w.members)
                    for v in values]
        return _each(work, flatten), grouped
    if isinstance(command, n.GroupBy):
        return _group(work, ev.compile(command.expr), command.name), True
    raise DataviewError("unknown command", command.line, command.column)


def _default_name(expr: n.Expr) -> str:
    if isinstance(expr, n.Field):
        return expr.name
    parts: list[str] = []
    while isinstance(expr, n.Index) and isinstance(expr.key, n.Literal):
        parts.append(str(expr.key.value))
        expr = expr.obj
    if isinstance(expr, n.Field):
        return ".".join([expr.name, *reversed(parts)])
    return "value"


def _where(work: list[_Work], test: Fn, truthy: Callable[[Any], bool]) -> list[_Work]:
    """The rows ``test`` holds for (``_each`` without a list per row: WHERE runs on
    every page of a query without FROM)."""
    out: list[_Work] = []
    first: DataviewError | None = None
    for w in work:
        try:
            if truthy(test(w.row, None)):
                out.append(w)
        except DataviewError as exc:
            first = first or exc
    if first is not None and not out:
        raise first
    return out


def _each(work: list[_Work], step: Callable[[_Work], list[_Work]]) -> list[_Work]:
    out: list[_Work] = []
    first: DataviewError | None = None
    for w in work:
        try:
            out.extend(step(w))
        except DataviewError as exc:
            first = first or exc
    if first is not None and not out:
        raise first
    return out


def _sort(work: list[_Work], keys: list[tuple[Fn, bool]]) -> list[_Work]:
    """Stable: the last key first, then each earlier one (``reverse`` keeps ties
    in order), on keys Python compares natively."""
    decorated = [(tuple(order_key(f(w.row, None)) for f, _ in keys), w) for w in work]
    for i in range(len(keys) - 1, -1, -1):
        decorated.sort(key=lambda d, i=i: d[0][i], reverse=keys[i][1])  # type: ignore[misc]
    return [w for _, w in decorated]


def _group(work: list[_Work], key_of: Fn, name: str | None) -> list[_Work]:
    by_key: dict[Any, tuple[Any, list[_Work]]] = {}
    first: DataviewError | None = None
    for w in work:
        try:
            key = key_of(w.row, None)
        except DataviewError as exc:
            first = first or exc
            continue
        by_key.setdefault(group_key(key), (key, []))[1].append(w)
    if first is not None and not by_key:
        raise first
    groups = sorted(by_key.values(), key=lambda g: sort_key(g[0]))
    out: list[_Work] = []
    for key, members in groups:
        row = {"key": key, "rows": tuple(m.row for m in members)}
        if name:
            row[name] = key
        out.append(_Work(FrozenDict(row), key, None, tuple(members)))
    return out

"""``evaluate``: one view of a base over the vault's records -> a frozen ``ViewResult``.

Order (what Obsidian and other renderers do): formulas per row (lazily, each
computed once per row when something reads it) -> the base's filters -> the
view's filters -> sort (the view's keys, on top of file name then path, so
ties are stable) -> groupBy (groups in key order) -> limit (over the grouped
order) -> cells of the rows shown -> summaries (of the shown rows; per group too).
Evaluation errors never escape: a failing filter drops the row, a failing cell
holds an ``ErrorValue``, and each failing expression is reported once in
``ViewResult.errors`` with its line in the base.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from .context import Context, Fn, Reads, RecordSet, Scope
from .errors import BASE_ERROR, BaseError, ExprError
from .evaluator import FILE_FIELDS, get_member
from .model import DEFAULT_SUMMARIES, Base, Expr, Filter, FilterGroup, SortKey, View
from .ops import is_empty, key_of, sort_key
from .summaries import summarize
from .values import ErrorValue, FileRecord, Image, Link, truthy

#: The columns of a view without ``order``.
DEFAULT_ORDER = ("file.name",)


@dataclass(frozen=True, slots=True)
class Column:
    id: str  # normalised property id (note.x, file.x, formula.x)
    header: str  # properties.<id>.displayName, else the property's name


@dataclass(frozen=True, slots=True)
class Row:
    record: FileRecord
    cells: tuple[Any, ...]  # typed values, one per column (``format_value`` shows them)
    image: Any = None  # cards: the value of the view's ``image`` property


@dataclass(frozen=True, slots=True)
class Summary:
    column: str  # property id
    name: str  # Average, Sum ... or the custom summary's name
    value: Any


@dataclass(frozen=True, slots=True)
class Group:
    key: Any  # the groupBy value (typed; None for rows without one)
    rows: tuple[Row, ...]
    summaries: tuple[Summary, ...]


@dataclass(frozen=True, slots=True)
class ViewResult:
    """What a renderer needs for one view."""

    view: View | None
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]  # every shown row, in order (groups concatenated)
    groups: tuple[Group, ...]  # empty without groupBy
    summaries: tuple[Summary, ...]
    total: int  # rows that matched the filters, before ``limit``
    errors: tuple[BaseError, ...]

    @property
    def ok(self) -> bool:
        return not any(e.level == "error" for e in self.errors)


def property_getter(prop: str) -> Fn:
    """A property id (``note.x``, ``file.x``, ``formula.x``) as a row function."""
    kind, _, name = prop.partition(".")
    if kind == "formula":
        return lambda s: s.formula(name)
    if kind == "file":
        if name in FILE_FIELDS:
            return attrgetter(f"record.{name}")
        return lambda s: get_member(s.record, name, s)
    return lambda s: s.record.properties.get(name)


class _Run:
    """One ``evaluate`` call: the context and the errors met, once per expression."""

    def __init__(self, base: Base, ctx: Context) -> None:
        self.base = base
        self.ctx = ctx
        self.errors: dict[tuple[int, int], BaseError] = {}

    def report(self, expr: Expr | None, message: str) -> None:
        line, column = (expr.line, expr.column) if expr is not None else (1, 1)
        key = (line, column)  # once per expression: its first failure
        if key not in self.errors and len(self.errors) < 50:
            self.errors[key] = BaseError(message, self.base.path, line, column, BASE_ERROR)

    def value(self, fn: Fn, scope: Scope, expr: Expr | None, what: str) -> Any:
        try:
            return fn(scope)
        except ExprError as exc:
            self.report(expr, f"{what}: {exc.message}")
        except (ArithmeticError, ValueError, TypeError, RecursionError, KeyError,
                IndexError, AttributeError) as exc:
            self.report(expr, f"{what}: {type(exc).__name__}: {exc}")
        return ErrorValue("error")

    def passes(self, filt: Filter, scope: Scope) -> bool:
        if isinstance(filt, FilterGroup):
            if filt.op == "and":
                return all(self.passes(f, scope) for f in filt.items)
            if filt.op == "or":
                return any(self.passes(f, scope) for f in filt.items)
            return not any(self.passes(f, scope) for f in filt.items)
        result = self.value(filt.fn, scope, filt, "filter")
        return not isinstance(result, ErrorValue) and truthy(result)

    def filter(self, filt: Filter, scopes: list[Scope]) -> list[Scope]:
        """The rows ``filt`` keeps: one compiled predicate per row; a row where it
        raises is tested again leaf by leaf (``passes``), which reports the error."""
        test = _predicate(filt)
        kept = []
        for scope in scopes:
            try:
                ok = test(scope)
            except Exception:  # noqa: BLE001 - re-evaluated below, which reports it
                ok = self.passes(filt, scope)
            if ok:
                kept.append(scope)
        return kept

    def formula_expr(self, prop: str) -> Expr | None:
        return self.base.formulas.get(prop[8:]) if prop.startswith("formula.") else None


def _predicate(filt: Filter) -> Callable[[Scope], bool]:
    """A filter as one closure (and: all, or: any, not: none of its items)."""
    if not isinstance(filt, FilterGroup):
        fn = filt.fn
        return lambda s: _truthy(fn(s))
    tests = tuple(_predicate(f) for f in filt.items)
    if filt.op == "and":
        if len(tests) == 1:
            return tests[0]
        if len(tests) == 2:
            first, second = tests
            return lambda s: first(s) and second(s)
        return lambda s: all(t(s) for t in tests)
    if filt.op == "or":
        return lambda s: any(t(s) for t in tests)
    return lambda s: not any(t(s) for t in tests)


def _truthy(value: Any) -> bool:
    return value is True or (value is not False and value is not None and truthy(value))


def evaluate(base: Base, view_name: str | None, records: RecordSet | Iterable[FileRecord],
             this: FileRecord | None = None, *, now: _dt.datetime | None = None,
             reads: Reads | None = None, only: Collection[str] | None = None) -> ViewResult:
    """Evaluate one view (``None``: the first) of ``base`` over ``records``.

    Args:
        base: from ``parse_base``.
        view_name: the view's name (``![[X.base#name]]``), or ``None`` for the first.
        records: every file the base may show (a ``RecordSet`` to reuse its index).
        this: the base's own file, or the note that embeds it.
        now: the moment ``now()``/``today()`` mean (default: the current UTC time);
            pass the build's time so all pages agree.
        reads: told what the evaluation read besides each row's record, and which
            records its filters let through (``Reads``).
        only: the paths of the records to consider (the others are left out before
            the filters, as if absent; links still reach every record).
    """
    record_set = records if isinstance(records, RecordSet) else RecordSet(records)
    view = base.view(view_name)
    if not base.ok:
        return ViewResult(view, (), (), (), (), 0, base.errors)
    if view is None and (view_name is not None):
        error = BaseError(f"no view named {view_name!r}", base.path, 1, 1, BASE_ERROR)
        return ViewResult(None, (), (), (), (), 0, (*base.errors, error))
    moment = now or _dt.datetime.now(_dt.UTC).replace(tzinfo=None)
    ctx = Context(record_set, this, moment, {k: v.fn for k, v in base.formulas.items()},
                  seed=base.path, reads=reads)
    run = _Run(base, ctx)
    scopes = [Scope(r, ctx) for r in record_set.records if only is None or r.path in only]
    for filt in (base.filters, view.filters if view else None):
        if filt is not None:
            scopes = run.filter(filt, scopes)
    if reads is not None:
        reads.passed = frozenset(s.record.path for s in scopes)
    scopes = _sort(run, scopes, view.sort if view else ())
    groups_of = _group(run, scopes, view.group_by) if view and view.group_by else None
    total = len(scopes)
    limit = view.limit if view else None
    order = (view.order if view and view.order else DEFAULT_ORDER)
    columns = tuple(Column(p, base.display_name(p)) for p in order)
    getters = [(property_getter(p), run.formula_expr(p), p) for p in order]
    image = property_getter(view.image) if view and view.image else None

    plain_getters = [g for g, _, _ in getters]

    def make_row(scope: Scope) -> Row:
        try:  # the common case: no cell fails, one try for the row
            cells = tuple([v if type(v) in _PLAIN else resolve_links(v, ctx)
                           for v in [g(scope) for g in plain_getters]])
        except Exception:  # noqa: BLE001 - again cell by cell, which reports it
            cells = tuple(_resolved(run.value(g, scope, e, p), ctx) for g, e, p in getters)
        shown = resolve_links(run.value(image, scope, None, "image"), ctx) if image else None
        return Row(scope.record, cells, shown)

    view_summaries = view.summaries if view else {}
    groups: list[Group] = []
    rows: list[Row] = []
    if groups_of is None:
        rows = [make_row(s) for s in (scopes if limit is None else scopes[:limit])]
    else:
        remaining = limit
        for key, members in groups_of:
            if remaining is not None:
                members = members[:remaining]
                remaining -= len(members)
            if not members:
                continue
            group_rows = [make_row(s) for s in members]
            rows.extend(group_rows)
            groups.append(Group(key, tuple(group_rows),
                                _summaries(run, columns, group_rows, view_summaries)))
    summaries = _summaries(run, columns, rows, view_summaries)
    return ViewResult(view, columns, tuple(rows), tuple(groups), summaries, total,
                      (*base.errors, *run.errors.values()))


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _resolved(value: Any, ctx: Context) -> Any:
    return value if type(value) in _PLAIN else resolve_links(value, ctx)


def resolve_links(value: Any, ctx: Context) -> Any:
    """``value`` with every link's ``path`` filled in (the renderer needs no resolver)."""
    if isinstance(value, Link):
        if value.path is None and not value.is_external:
            path = ctx.link_path(value)
            return Link(value.target, value.display, path) if path else value
        return value
    if isinstance(value, tuple):
        return tuple(resolve_links(v, ctx) for v in value)
    if isinstance(value, Image) and value.link is not None:
        return Image(value.src, resolve_links(value.link, ctx))
    return value


def _sort(run: _Run, scopes: list[Scope], keys: Sequence[SortKey]) -> list[Scope]:
    """Stable sorts, the last key first: empty values last in either direction."""
    scopes.sort(key=lambda s: (s.record.name.casefold(), s.record.path))
    for key in reversed(keys):
        getter = property_getter(key.property)
        expr = run.formula_expr(key.property)
        valued = [(run.value(getter, s, expr, key.property), s) for s in scopes]
        present = [(v, s) for v, s in valued if not _blank(v)]
        missing = [s for v, s in valued if _blank(v)]
        present.sort(key=lambda pair: sort_key(pair[0]), reverse=key.descending)
        scopes = [s for _, s in present] + missing
    return scopes


def _blank(value: Any) -> bool:
    return isinstance(value, ErrorValue) or is_empty(value)


def _group(run: _Run, scopes: list[Scope],
           key: SortKey) -> list[tuple[Any, list[Scope]]]:
    """Rows by their ``groupBy`` value; groups ordered by that value, empty last."""
    getter = property_getter(key.property)
    expr = run.formula_expr(key.property)
    groups: dict[Any, tuple[Any, list[Scope]]] = {}
    for scope in scopes:
        value = run.value(getter, scope, expr, key.property)
        if isinstance(value, ErrorValue):
            value = None
        hashed = key_of(value, run.ctx) if not is_empty(value) else ("empty",)
        groups.setdefault(hashed, (None if is_empty(value) else value, []))[1].append(scope)
    present = [g for g in groups.values() if g[0] is not None]
    missing = [g for g in groups.values() if g[0] is None]
    present.sort(key=lambda g: sort_key(g[0]), reverse=key.descending)
    return present + missing


_LABELS = {name.casefold(): name for name in DEFAULT_SUMMARIES}


def _summaries(run: _Run, columns: tuple[Column, ...], rows: list[Row],
               wanted: Any) -> tuple[Summary, ...]:
    out: list[Summary] = []
    for index, column in enumerate(columns):
        name = wanted.get(column.id)
        if name is None:
            continue
        values = [c for c in (r.cells[index] for r in rows) if not isinstance(c, ErrorValue)]
        custom = run.base.summaries
        try:
            value = summarize(name, values, run.ctx, dict(custom))
        except ExprError as exc:
            run.report(custom.get(name), f"summary {name}: {exc.message}")
            value = ErrorValue("error")
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
            run.report(custom.get(name), f"summary {name}: {exc}")
            value = ErrorValue("error")
        label = name if name in custom else _LABELS.get(name.casefold(), name)
        out.append(Summary(column.id, label, value))
    return tuple(out)

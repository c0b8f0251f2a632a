"""A base: its YAML read into frozen records (``parse_base``), every expression
parsed and compiled once, every problem a ``BaseError`` with its line.

Schema (Obsidian's "Bases syntax"): ``filters`` (a string or ``and``/``or``/``not``
lists, nested), ``formulas`` (name -> expression), ``properties`` (id ->
``displayName``), ``summaries`` (name -> expression over ``values``), ``views``
(``type``, ``name``, ``filters``, ``order``, ``sort``, ``groupBy``, ``limit``,
``summaries``; cards ``image``, ``imageFit``, ``imageAspectRatio``).  Unknown keys
are kept in ``View.raw`` and otherwise ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..codecs.base import view_name
from ..frozen import FrozenDict
from . import ast
from . import yamltree as yt
from .context import Fn
from .errors import BASE_ERROR, BASE_VIEW_FALLBACK, BaseError, ExprError
from .evaluator import compile_expression, formula_refs
from .syntax import parse_expression
from .values import to_value

#: The layouts the engine renders itself; any other type renders as a table.
LAYOUTS = ("table", "cards", "list")
#: The default summaries of a table column (Bases syntax, "Summaries").
DEFAULT_SUMMARIES = ("Average", "Min", "Max", "Sum", "Range", "Median", "Stddev",
                     "Earliest", "Latest", "Checked", "Unchecked", "Empty", "Filled",
                     "Unique")


@dataclass(frozen=True, slots=True)
class Expr:
    """One expression of the base, where it is written, compiled."""

    source: str
    line: int
    column: int
    node: ast.Node = field(compare=False, repr=False)
    fn: Fn = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class FilterGroup:
    """``and`` (all true), ``or`` (any true) or ``not`` (none true) of filters."""

    op: str
    items: tuple[Filter, ...]


Filter = Expr | FilterGroup


@dataclass(frozen=True, slots=True)
class SortKey:
    property: str  # a normalised property id: note.x, file.x, formula.x
    descending: bool = False


@dataclass(frozen=True, slots=True)
class View:
    """One entry of ``views``."""

    type: str  # as written: table, cards, list, map, a plugin's id
    name: str
    layout: str  # what renders it: table, cards or list
    note: str | None  # why a view renders as a table, when it does
    filters: Filter | None
    order: tuple[str, ...]  # normalised property ids, in column order
    sort: tuple[SortKey, ...]
    group_by: SortKey | None
    limit: int | None
    summaries: FrozenDict[str, str]  # property id -> summary name
    image: str | None  # cards: the cover image's property id
    image_fit: str | None  # cards: "cover" or "contain"
    image_aspect_ratio: float | None  # cards
    line: int
    raw: FrozenDict[str, Any] = field(compare=False, repr=False)  # every key, as YAML says


@dataclass(frozen=True, slots=True)
class Base:
    """A parsed base.  ``errors`` hold every problem; ``ok`` is False when one is
    an error (the renderer then shows an error box instead of the views)."""

    path: str
    filters: Filter | None
    formulas: FrozenDict[str, Expr]
    display_names: FrozenDict[str, str]  # normalised property id -> header
    summaries: FrozenDict[str, Expr]  # custom summaries
    views: tuple[View, ...]
    errors: tuple[BaseError, ...]

    @property
    def ok(self) -> bool:
        return not any(e.level == "error" for e in self.errors)

    def view(self, name: str | None) -> View | None:
        """The view called ``name`` (``![[X.base#name]]``), or the first for ``None``."""
        if name is None:
            return self.views[0] if self.views else None
        for view in self.views:
            if view.name == name:
                return view
        folded = name.strip().casefold()
        return next((v for v in self.views if v.name.strip().casefold() == folded), None)

    def display_name(self, prop: str) -> str:
        """A column header: ``properties.<id>.displayName``, else the property's name."""
        prop = normalize_property(prop)
        if prop in self.display_names:
            return self.display_names[prop]
        kind, _, name = prop.partition(".")
        return f"file {name}" if kind == "file" else name


def normalize_property(prop: str) -> str:
    """``status`` and ``note.status`` are one property; ``file.x``/``formula.x`` stay."""
    prop = prop.strip()
    if prop.startswith(("note.", "file.", "formula.")):
        return prop
    return f"note.{prop}"


class _Reader:
    """Reads one base's tree, collecting errors instead of stopping at the first."""

    def __init__(self, path: str, first_line: int) -> None:
        self.path = path
        self.offset = first_line - 1
        self.errors: list[BaseError] = []

    def error(self, message: str, line: int, column: int = 1, code: str = BASE_ERROR,
              level: str = "error") -> None:
        self.errors.append(BaseError(message, self.path, line + self.offset, column, code,
                                     level))

    def expr(self, node: Any, what: str) -> Expr | None:
        if not isinstance(node, yt.Scalar) or node.value is None:
            line = getattr(node, "line", 1)
            self.error(f"{what} must be an expression (text)", line)
            return None
        text = node.text
        try:
            tree = parse_expression(text)
            fn = compile_expression(tree)
        except ExprError as exc:
            line, column = node.line, node.column
            if exc.line > 1 or node.block:
                line, column = node.line + max(exc.line, 1) - 1, max(exc.column, 1)
            elif exc.column:
                column = node.column + exc.column - 1
            self.error(f"{what}: {exc.message}", line, column)
            return None
        return Expr(text, node.line + self.offset, node.column, tree, fn)

    def filters(self, node: Any, what: str) -> Filter | None:
        if node is None:
            return None
        if isinstance(node, yt.Scalar):
            return self.expr(node, what)
        if isinstance(node, yt.Mapping):
            keys = [k for k, _ in node.items if k in ("and", "or", "not")]
            if len(keys) != 1 or len(node.items) != 1:
                self.error(f"{what}: a filter group has exactly one of and, or, not", node.line)
                return None
            op, items = node.items[0]
            children = items.items if isinstance(items, yt.Sequence) else (items,)
            parsed = [self.filters(child, what) for child in children]
            return FilterGroup(op, tuple(p for p in parsed if p is not None))
        self.error(f"{what}: a filter is an expression or an and/or/not group",
                   getattr(node, "line", 1))
        return None

    def mapping(self, node: Any, what: str) -> tuple[tuple[str, Any], ...]:
        if node is None:
            return ()
        if not isinstance(node, yt.Mapping):
            self.error(f"{what} must be a mapping", getattr(node, "line", 1))
            return ()
        return node.items


def _plain(node: Any) -> Any:
    """A tree's plain value (for ``View.raw``)."""
    if isinstance(node, yt.Scalar):
        return to_value(node.value)
    if isinstance(node, yt.Mapping):
        return FrozenDict({k: _plain(v) for k, v in node.items})
    if isinstance(node, yt.Sequence):
        return tuple(_plain(v) for v in node.items)
    return None


def _text(node: Any) -> str | None:
    if isinstance(node, yt.Scalar) and node.value is not None:
        return node.text
    return None


def parse_base(yaml_text: str, source_path: str, *, first_line: int = 1) -> Base:
    """Read a ``.base`` file or a ```` ```base ```` block; never raises.

    Args:
        yaml_text: the YAML.
        source_path: the file it is in, for error locations.
        first_line: the file line of the YAML's first line (a fence's body).
    """
    reader = _Reader(source_path, first_line)
    try:
        tree = yt.load(yaml_text)
    except ExprError as exc:
        reader.error(exc.message, max(exc.line, 1), max(exc.column, 1))
        return Base(source_path, None, FrozenDict(), FrozenDict(), FrozenDict(), (),
                    tuple(reader.errors))
    if tree is None:
        tree = yt.Mapping((), 1)
    if not isinstance(tree, yt.Mapping):
        reader.error("a base is a YAML mapping (filters, formulas, properties, views)",
                     getattr(tree, "line", 1))
        return Base(source_path, None, FrozenDict(), FrozenDict(), FrozenDict(), (),
                    tuple(reader.errors))
    formulas: dict[str, Expr] = {}
    declared = reader.mapping(tree.get("formulas"), "formulas")
    for name, node in declared:
        expr = reader.expr(node, f"formula {name}")
        if expr is not None:
            formulas[name] = expr
    _check_formulas(reader, formulas, {name for name, _ in declared})
    display: dict[str, str] = {}
    for prop, node in reader.mapping(tree.get("properties"), "properties"):
        if isinstance(node, yt.Mapping) and _text(node.get("displayName")) is not None:
            display[normalize_property(prop)] = str(_text(node.get("displayName")))
    summaries: dict[str, Expr] = {}
    for name, node in reader.mapping(tree.get("summaries"), "summaries"):
        expr = reader.expr(node, f"summary {name}")
        if expr is not None:
            summaries[name] = expr
    filters = reader.filters(tree.get("filters"), "filters")
    views = _views(reader, tree.get("views"), {name for name, _ in declared}, summaries)
    return Base(source_path, filters, FrozenDict(formulas), FrozenDict(display),
                FrozenDict(summaries), views, tuple(reader.errors))


def _check_formulas(reader: _Reader, formulas: dict[str, Expr], declared: set[str]) -> None:
    """Unknown formulas and cycles among formulas are errors (at the formula's line);
    a formula that is declared but failed to parse has its own error already."""
    deps = {name: formula_refs(expr.node) for name, expr in formulas.items()}
    for name, refs in deps.items():
        for ref in sorted(refs - declared):
            expr = formulas[name]
            reader.error(f"formula {name}: no formula named {ref!r}", expr.line - reader.offset,
                         expr.column)
    state: dict[str, int] = {}  # 1 visiting, 2 done
    for start in sorted(deps):
        stack: list[tuple[str, list[str]]] = [(start, sorted(deps[start] & deps.keys()))]
        path = [start]
        if state.get(start):
            continue
        state[start] = 1
        while stack:
            node, todo = stack[-1]
            if not todo:
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            nxt = todo.pop()
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                expr = formulas[nxt]
                reader.error("formula cycle: " + " -> ".join(f"formula.{c}" for c in cycle),
                             expr.line - reader.offset, expr.column)
                continue
            if not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, sorted(deps[nxt] & deps.keys())))


def _views(reader: _Reader, node: Any, formulas: set[str],
           summaries: dict[str, Expr]) -> tuple[View, ...]:
    if node is None:
        return ()
    if not isinstance(node, yt.Sequence):
        reader.error("views must be a list", getattr(node, "line", 1))
        return ()
    views: list[View] = []
    for index, item in enumerate(node.items):
        if not isinstance(item, yt.Mapping):
            reader.error("a view must be a mapping (type, name, ...)", getattr(item, "line", 1))
            continue
        views.append(_view(reader, item, index, formulas, summaries))
    return tuple(views)


def _view(reader: _Reader, node: yt.Mapping, index: int, formulas: set[str],
          summaries: dict[str, Expr]) -> View:
    kind = (_text(node.get("type")) or "table").strip()
    name = view_name(_text(node.get("name")), index)
    layout, note = kind, None
    if kind not in LAYOUTS:
        layout = "table"
        note = (f"The {kind!r} view of Obsidian needs the app (or a plugin); "
                "shown here as a table.")
        reader.error(f"view {name!r}: {note}", node.line, code=BASE_VIEW_FALLBACK,
                     level="info")
    order = tuple(normalize_property(p) for p in _strings(reader, node.get("order"), "order"))
    for prop in order:
        _check_property(reader, prop, formulas, node.line, f"view {name!r}")
    sort = tuple(k for k in (_sort_key(reader, s) for s in _items(node.get("sort"))) if k)
    group_by = _sort_key(reader, node.get("groupBy")) if node.get("groupBy") else None
    for key in (*sort, *([group_by] if group_by else [])):
        _check_property(reader, key.property, formulas, node.line, f"view {name!r}")
    limit = _limit(reader, node.get("limit"))
    view_summaries: dict[str, str] = {}
    for prop, value in reader.mapping(node.get("summaries"), f"view {name!r} summaries"):
        text = _text(value)
        if text is None:
            continue
        if text not in summaries and text.casefold() not in _DEFAULT_FOLDED:
            reader.error(f"view {name!r}: unknown summary {text!r}", value.line)
            continue
        view_summaries[normalize_property(prop)] = text
    image = _text(node.get("image"))
    ratio = node.get("imageAspectRatio")
    ratio_value = ratio.value if isinstance(ratio, yt.Scalar) else None
    return View(
        type=kind, name=name, layout=layout, note=note,
        filters=reader.filters(node.get("filters"), f"view {name!r} filters"),
        order=order, sort=sort, group_by=group_by, limit=limit,
        summaries=FrozenDict(view_summaries),
        image=normalize_property(image) if image else None,
        image_fit=_text(node.get("imageFit")),
        image_aspect_ratio=float(ratio_value) if isinstance(ratio_value, (int, float))
        and not isinstance(ratio_value, bool) else None,
        line=node.line + reader.offset,
        raw=_plain(node),
    )


_DEFAULT_FOLDED = {s.casefold() for s in DEFAULT_SUMMARIES}


def _items(node: Any) -> tuple[Any, ...]:
    if node is None:
        return ()
    return node.items if isinstance(node, yt.Sequence) else (node,)


def _strings(reader: _Reader, node: Any, what: str) -> list[str]:
    out = []
    for item in _items(node):
        text = _text(item)
        if text is None:
            reader.error(f"{what}: a property name is text", getattr(item, "line", 1))
        else:
            out.append(text)
    return out


def _sort_key(reader: _Reader, node: Any) -> SortKey | None:
    if isinstance(node, yt.Scalar) and node.value is not None:
        return SortKey(normalize_property(node.text))
    if not isinstance(node, yt.Mapping) or _text(node.get("property")) is None:
        reader.error("sort and groupBy need a property", getattr(node, "line", 1))
        return None
    direction = (_text(node.get("direction")) or "ASC").strip().upper()
    return SortKey(normalize_property(str(_text(node.get("property")))), direction == "DESC")


def _limit(reader: _Reader, node: Any) -> int | None:
    if node is None:
        return None
    value = node.value if isinstance(node, yt.Scalar) else None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        reader.error("limit must be a whole number", getattr(node, "line", 1))
        return None
    return value


def _check_property(reader: _Reader, prop: str, formulas: set[str], line: int,
                    what: str) -> None:
    if prop.startswith("formula.") and prop[8:] not in formulas:
        reader.error(f"{what}: no formula named {prop[8:]!r}", line)

"""``DataviewIndex``: the rows queries read, built once from ``PageRecord``s.

Each page becomes a read-only object: its frontmatter (strings holding a
``[[link]]`` or an ISO date typed as Dataview types them), its inline fields
(a key given twice holds a list), the sanitised key twins, and ``file`` with the
implicit fields.  Links are resolved to vault paths by ``resolve_link`` (the
compile's resolver, relative to the note a link is written in: a value's link
goes where the page's link goes), or, for records made without a compile, by
path, path without ``.md`` or note name (the shortest path wins a tie); and
``file.inlinks`` is the reverse of every page's outlinks.  Build it once per
compile and run every query of the site against it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ..codecs.datetimes import DATAVIEW_DATES, naive
from ..frozen import FrozenDict
from ..ids import tag_parents
from .dates import date_only, parse_iso
from .inline_fields import sanitize_key
from .items import ListItem, all_items
from .records import PageRecord
from .values import MAX_NESTING, Link

_DAY_IN_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})|(\d{4})(\d{2})(\d{2})")
_LINK_TEXT = re.compile(r"!?\[\[([^\[\]\n]*)\]\]")
#: (link target, the path of the note it is written in or None) -> a vault path or None
ResolveLink = Callable[[str, str | None], str | None]


def _file_name(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def _day_from_name(name: str) -> dt.datetime | None:
    m = _DAY_IN_NAME.search(name)
    if not m:
        return None
    y, mo, d = (m.group(1), m.group(2), m.group(3)) if m.group(1) else m.group(4, 5, 6)
    try:
        return dt.datetime(int(y), int(mo), int(d))
    except ValueError:
        return None


class DataviewIndex:
    """Every page's row, by vault path, and the lookups sources need."""

    def __init__(self, records: Iterable[PageRecord],
                 resolve_link: ResolveLink | None = None) -> None:
        self.resolve_link = resolve_link
        self.records: tuple[PageRecord, ...] = tuple(sorted(records, key=lambda r: r.path))
        self.by_path: dict[str, PageRecord] = {r.path: r for r in self.records}
        self._index_names()
        self.outlinks: dict[str, tuple[str, ...]] = {
            r.path: self._outlinks_of(r) for r in self.records}
        self._index_links()
        self.tag_pages: dict[str, set[str]] = {}
        self._index_tags()
        self.rows: dict[str, FrozenDict[str, Any]] = {}
        #: each page's ``file.link`` (a result row's id)
        self.links: dict[str, Link] = {}
        #: what a task inherits from its page: the page's row without the fields
        #: written on list items (a task has only its own)
        self.task_base: dict[str, FrozenDict[str, Any]] = {}
        #: a page's list items with their objects (``items_of``), made on first use
        self._items: dict[str, tuple[tuple[ListItem, FrozenDict[str, Any]], ...]] = {}
        #: a page's tasks as TASK rows (the engine's, made on its first TASK query)
        self.task_rows: dict[str, tuple[Any, ...]] = {}
        for r in self.records:
            self.rows[r.path] = self._page_row(r)
        #: what the query being run read (``engine.run(reads=)``), else None
        self.reads: Any = None

    def _index_names(self) -> None:
        """The lookups of ``resolve`` without a compile's resolver."""
        self._exact: dict[str, str] = {}
        self._suffix_cache: dict[str, str | None] = {}
        self._names: dict[str, list[str]] = {}
        for r in self.records:
            lower = r.path.lower()
            self._exact.setdefault(lower, r.path)
            if lower.endswith(".md"):
                self._exact.setdefault(lower[:-3], r.path)
            self._names.setdefault(_file_name(r.path).lower(), []).append(r.path)
        for paths in self._names.values():
            paths.sort(key=lambda p: (p.count("/"), len(p), p))

    def _outlinks_of(self, r: PageRecord) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self._outlink(t, r.path) for t in r.outlinks))

    def _index_links(self) -> None:
        """``inlinks``: the reverse of every page's ``outlinks``."""
        inlinks: dict[str, set[str]] = {}
        for path, targets in self.outlinks.items():
            for t in targets:
                if t in self.by_path:
                    inlinks.setdefault(t, set()).add(path)
        self.inlinks: dict[str, tuple[str, ...]] = {p: tuple(sorted(s)) for p, s in
                                                    inlinks.items()}

    def _index_tags(self) -> None:
        self.tag_pages = {}
        for r in self.records:
            for tag in expand_tags(r.tags):
                self.tag_pages.setdefault(tag.lower(), set()).add(r.path)

    def update(self, records: Iterable[PageRecord], resolve_link: ResolveLink | None,
               same_names: bool) -> None:
        """Make this index the one ``DataviewIndex(records, resolve_link)`` would be,
        in place (``mkdocs serve``: the rows' ``file`` objects refer to it), making
        again only what a changed record changes.  A record that is the same object
        as this index's keeps its row and outlinks when ``same_names`` (every link
        resolves as before: ``VaultFiles.same_names``); else every row is made again.
        The lazily made list items and TASK rows of every page made again are dropped.
        """
        old = self.by_path
        self.resolve_link = resolve_link
        self.records = tuple(sorted(records, key=lambda r: r.path))
        self.by_path = {r.path: r for r in self.records}
        same_paths = same_names and old.keys() == self.by_path.keys()
        kept = {r.path for r in self.records if same_paths and old.get(r.path) is r}
        if not same_paths:
            self._index_names()
        old_outlinks, old_rows = self.outlinks, self.rows
        self.outlinks = {r.path: old_outlinks[r.path] if r.path in kept
                         else self._outlinks_of(r) for r in self.records}
        if not same_paths or any(self.outlinks[p] != old_outlinks.get(p)
                                 for p in self.by_path.keys() - kept):
            self._index_links()
        if not same_paths or any(old.get(p) is None or old[p].tags != self.by_path[p].tags
                                 for p in self.by_path.keys() - kept):
            self._index_tags()
        links, task_base = self.links, self.task_base
        self.rows, self.links, self.task_base = {}, {}, {}
        for r in self.records:
            if r.path in kept:
                self.rows[r.path] = old_rows[r.path]
                self.links[r.path] = links[r.path]
                self.task_base[r.path] = task_base[r.path]
            else:
                self.rows[r.path] = self._page_row(r)
        self._items = {p: v for p, v in self._items.items() if p in kept}
        self.task_rows = {p: v for p, v in self.task_rows.items() if p in kept}

    def release(self) -> None:
        """Drop the rows at the end of a build: each row's ``file`` refers back to
        the index, a cycle only the collector would free otherwise."""
        self.rows = {}
        self.task_base = {}
        self._items = {}
        self.task_rows = {}

    def items_of(self, path: str) -> tuple[tuple[ListItem, FrozenDict[str, Any]], ...]:
        """Every list item of the page at ``path`` with its object (``file.lists``),
        in source order; made the first time a query reads them (most read none)."""
        made = self._items.get(path)
        if made is None:
            record = self.by_path.get(path)
            made = self._item_objects(record) if record is not None and record.items else ()
            self._items[path] = made
        return made

    # -- links ------------------------------------------------------------------------
    def _outlink(self, target: str, source: str) -> str:
        """An outlink's path: a record from the compile holds the compile's answer."""
        if self.resolve_link is not None and target in self.by_path:
            return target
        return self.resolve(target, source) or target

    def resolve(self, target: str, source: str | None = None) -> str | None:
        """The vault path a link target written in the note at ``source`` names, or None."""
        if self.resolve_link is not None:
            if target in self.by_path:  # a link already resolved (``file.link``)
                return target
            return self.resolve_link(target, source) if target.strip() else None
        text = target.strip()
        if not text:
            return None
        if text in self.by_path:
            return text
        hit = self._exact.get(text.lower())
        if hit:
            return hit
        if "/" not in text:
            paths = self._names.get(_file_name(text + ".md").lower())
            return paths[0] if paths else None
        # a partial path, as Obsidian reads one: the shortest path ending with it
        if text not in self._suffix_cache:
            tail = "/" + text.lower().lstrip("/")
            hits = [p for p in self.by_path if p.lower().endswith((tail, tail + ".md"))]
            hits.sort(key=lambda p: (p.count("/"), len(p), p))
            self._suffix_cache[text] = hits[0] if hits else None
        return self._suffix_cache[text]

    def file_at(self, path: str) -> str | None:
        """The note at a vault path written with or without ``.md`` (a FROM source)."""
        if path in self.by_path:
            return path
        return path + ".md" if path + ".md" in self.by_path else None

    def normalize(self, link: Link, source: str | None = None) -> Link:
        """``link`` (written in the note at ``source``) with the path it resolves to."""
        path = self.resolve(link.path, source)
        return link.with_path(path) if path and path != link.path else link

    def page_of(self, link: Link, source: str | None = None) -> FrozenDict[str, Any] | None:
        path = link.path if link.path in self.rows else self.resolve(link.path, source)
        return self.rows.get(path) if path else None

    # -- rows -------------------------------------------------------------------------
    def _value(self, value: Any, source: str, depth: int = 0,
               memo: dict[int, Any] | None = None) -> Any:
        """A frontmatter or field value typed and its links resolved; a container met
        again is converted once (``memo``, by identity: YAML aliases share values, and
        an alias bomb converted reference by reference is exponential)."""
        if depth > MAX_NESTING:
            return None
        if isinstance(value, list | tuple | Mapping) and not isinstance(value, str):
            memo = {} if memo is None else memo
            if id(value) not in memo:
                memo[id(value)] = self._container(value, source, depth, memo)
            return memo[id(value)]
        if isinstance(value, Link):
            return self.normalize(value, source)
        if isinstance(value, str):
            m = _LINK_TEXT.fullmatch(value.strip())
            if m:
                from .parser import parse_link_text

                return self.normalize(parse_link_text(m.group(1), value.strip().startswith("!")),
                                      source)
            date = parse_iso(value) if value[:1].isdigit() else None
            return date if date is not None else value
        if isinstance(value, dt.datetime):
            return naive(value, DATAVIEW_DATES)
        if isinstance(value, dt.date):
            return dt.datetime(value.year, value.month, value.day)
        return value

    def _container(self, value: Any, source: str, depth: int, memo: dict[int, Any]) -> Any:
        if isinstance(value, Mapping):
            return FrozenDict({str(k): self._value(v, source, depth + 1, memo)
                               for k, v in value.items()})
        return tuple(self._value(v, source, depth + 1, memo) for v in value)

    def _page_row(self, r: PageRecord) -> FrozenDict[str, Any]:
        fields: dict[str, list[Any]] = {}
        base: dict[str, list[Any]] = {}
        item_lines = {i.line for i in all_items(r.items)}

        def add(key: str, value: Any, on_item: bool) -> None:
            twin = sanitize_key(key)
            for target in (fields,) if on_item else (fields, base):
                target.setdefault(key, []).append(value)
                if twin and twin != key:
                    target.setdefault(twin, []).append(value)

        for key, value in r.frontmatter.items():
            add(str(key), self._value(value, r.path), False)
        for f in r.inline_fields:
            add(f.key, self._value(f.value, r.path), f.line in item_lines)
        for item in all_items(r.items):  # a task's 📅 date is a page field too
            for name, date in item.shorthands:
                add(name, date, True)
        row: dict[str, Any] = {k: v[0] if len(v) == 1 else tuple(v) for k, v in fields.items()}
        name = _file_name(r.path)
        day = _day_from_name(name)
        if day is None:
            for key in ("date", "Date"):
                if isinstance(row.get(key), dt.datetime):
                    day = date_only(row[key])
                    break
        link = Link(r.path)
        self.links[r.path] = link
        file = {
            "name": name,
            "folder": r.path.rsplit("/", 1)[0] if "/" in r.path else "",
            "path": r.path,
            "ext": r.path.rsplit(".", 1)[-1] if "." in r.path.rsplit("/", 1)[-1] else "",
            "link": link,
            "size": r.size,
            "ctime": r.ctime,
            "cday": date_only(r.ctime) if r.ctime else None,
            "mtime": r.mtime,
            "mday": date_only(r.mtime) if r.mtime else None,
            "tags": tuple(expand_tags(r.tags)),
            "etags": r.tags,
            "aliases": r.aliases,
            "frontmatter": r.frontmatter,
            "day": day,
            "starred": r.starred,
        }
        row["file"] = FileObject(file, self, r.path)
        frozen = FrozenDict(row)
        if base == fields:  # no field written on a list item: the page's row itself
            self.task_base[r.path] = frozen
            return frozen
        task_base = {k: v[0] if len(v) == 1 else tuple(v) for k, v in base.items()}
        task_base["file"] = row["file"]
        self.task_base[r.path] = FrozenDict(task_base)
        return frozen

    def _item_objects(self, r: PageRecord) -> tuple[tuple[ListItem, FrozenDict[str, Any]], ...]:
        made: dict[int, FrozenDict[str, Any]] = {}
        for root in r.items:
            self._item_object(r, root, made)
        return tuple((item, made[id(item)]) for item in all_items(r.items))

    def _item_object(self, r: PageRecord, item: ListItem,
                     made: dict[int, FrozenDict[str, Any]]) -> FrozenDict[str, Any]:
        """A list item's object and its children's (a method, not a closure calling
        itself: that would be a cycle holding the index)."""
        children = tuple(self._item_object(r, c, made) for c in item.children)
        section = Link(r.path, None, item.section, False, "header") if item.section else \
            Link(r.path)
        obj: dict[str, Any] = {}
        for f in item.fields:
            value = self._value(f.value, r.path)
            obj.setdefault(f.key, value)
            twin = sanitize_key(f.key)
            if twin and twin != f.key:
                obj.setdefault(twin, value)
        for name, date in item.shorthands:
            obj.setdefault(name, date)
        obj.update({
            "status": item.status,
            "checked": item.checked,
            "completed": item.completed,
            "fullyCompleted": item.fully_completed,
            "text": item.text,
            "visual": item.text,
            "line": item.line - 1,
            "lineCount": item.line_count,
            "position": FrozenDict({"start": FrozenDict({"line": item.line - 1}),
                                    "end": FrozenDict({"line": item.line + item.line_count
                                                       - 2})}),
            "path": r.path,
            "section": section,
            "tags": item.tags,
            "outlinks": tuple(Link(self.resolve(t, r.path) or t) for t in item.outlinks),
            "link": Link(r.path, None, item.block_id, False, "block") if item.block_id
            else section,
            "children": children,
            "task": item.task,
            "annotated": bool(item.fields),
            "parent": item.parent - 1 if item.parent is not None else None,
            "blockId": item.block_id,
            "symbol": item.symbol,
        })
        frozen = FrozenDict(obj)
        made[id(item)] = frozen
        return frozen


_FILE_KEYS = ("name", "folder", "path", "ext", "link", "size", "ctime", "cday", "mtime",
              "mday", "tags", "etags", "inlinks", "outlinks", "aliases", "tasks", "lists",
              "frontmatter", "day", "starred")
_LAZY_KEYS = ("inlinks", "outlinks", "tasks", "lists")


class FileObject(Mapping[str, Any]):
    """A page's ``file`` object, read-only: its fields, with ``inlinks`` and
    ``outlinks`` (links made from the index's paths) and ``tasks`` and ``lists``
    (from the page's list items, ``items_of``) made only when a query reads them:
    most queries read none, and a vault's links and items are most of its size."""

    __slots__ = ("_fields", "_index", "_path")
    _MISSING = object()

    def __init__(self, fields: dict[str, Any], index: DataviewIndex, path: str) -> None:
        self._fields = fields
        self._index = index
        self._path = path

    def get(self, key: str, default: Any = None) -> Any:
        value = self._fields.get(key, FileObject._MISSING)
        if value is not FileObject._MISSING:
            return value
        if key in ("inlinks", "outlinks") and self._index.reads is not None:
            self._index.reads.other = True  # other pages' links, or their paths
        if key == "inlinks":
            return tuple(Link(p) for p in self._index.inlinks.get(self._path, ()))
        if key == "outlinks":
            return tuple(Link(p) for p in self._index.outlinks.get(self._path, ()))
        if key == "lists":
            return tuple(obj for _, obj in self._index.items_of(self._path))
        if key == "tasks":
            return tuple(obj for item, obj in self._index.items_of(self._path) if item.task)
        return default

    def __getitem__(self, key: str) -> Any:
        value = self.get(key, FileObject._MISSING)
        if value is FileObject._MISSING:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._fields or key in _LAZY_KEYS

    def __iter__(self) -> Iterator[str]:
        return iter(_FILE_KEYS)

    def __len__(self) -> int:
        return len(_FILE_KEYS)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FileObject):
            return self._path == other._path and self._index is other._index
        return Mapping.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]  # as a FrozenDict's

    def __repr__(self) -> str:
        return f"FileObject({self._path!r})"


def expand_tags(tags: Iterable[str]) -> list[str]:
    """``#a/b/c`` → ``#a``, ``#a/b``, ``#a/b/c`` (each once, in order)."""
    return list(dict.fromkeys("#" + key for tag in tags for key in tag_parents(tag)))

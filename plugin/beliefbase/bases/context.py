"""What an evaluation reads: the vault's records (``RecordSet``), ``this``, the
clock, the base's formulas (``Context``), and one row being evaluated (``Scope``)."""

from __future__ import annotations

import datetime as _dt
import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ExprError
from .values import Date, FileRecord, Link, ThisRef, parse_link_text

#: A compiled expression: a function of the row it is evaluated for.
Fn = Callable[["Scope"], Any]
#: (link target, the path of the file it is written in or None) -> the vault path it
#: names or None: the compile's resolver (``compile.vault_links.VaultLinks.resolve``)
ResolveLink = Callable[[str, str | None], str | None]


class RecordSet:
    """The files a base queries, indexed for link resolution.

    Build it once per compile and pass it to every ``evaluate``: records are
    ordered by path.  A link target finds a file as ``resolve_link`` says (the
    compile's resolver, relative to the file the link is written in: what the
    note's own link points to); without one (records made by hand, not from a
    compile) by exact path, by path without ``.md``, then by file name or base
    name, case-insensitively, the alphabetically first path winning.
    """

    __caches__ = ("_memo", "_names")

    def __init__(self, records: Iterable[FileRecord],
                 resolve_link: ResolveLink | None = None) -> None:
        self.resolve_link = resolve_link
        self.records: tuple[FileRecord, ...] = tuple(sorted(records, key=lambda r: r.path))
        self.by_path: dict[str, FileRecord] = {r.path: r for r in self.records}
        self._names: dict[str, FileRecord] | None = None  # made on first use
        self._memo: dict[str, FileRecord | None] = {}

    @property
    def _keys(self) -> dict[str, FileRecord]:
        """The records by lower-case name, base name, path and path without ``.md``
        (``resolve`` without the compile's resolver; made when first asked)."""
        if self._names is None:
            self._names = {}
            for record in reversed(self.records):  # the first path wins
                stem = record.path.removesuffix(".md")
                for key in (record.name, record.basename):
                    self._names[key.lower()] = record
                self._names[record.path.lower()] = record
                self._names[stem.lower()] = record
        return self._names

    def resolve(self, target: str, source: str | None = None) -> FileRecord | None:
        """The record a link target (``Note``, ``folder/Note.md``, ``[[Note#h|x]]``)
        written in the file at ``source`` names."""
        if self.resolve_link is not None:
            path = self.resolve_link(target, source)
            return self.by_path.get(path) if path is not None else None
        if target in self._memo:
            return self._memo[target]
        text = parse_link_text(target).target if "[" in target else target
        text = text.split("#", 1)[0].split("|", 1)[0].strip().lstrip("/")
        found = self.by_path.get(text) or self._keys.get(text.lower())
        if found is None and "/" in text:
            found = self._keys.get(posixpath.basename(text).lower())
            if found is not None and not found.path.lower().removesuffix(".md").endswith(
                    text.lower().removesuffix(".md")):
                found = None
        self._memo[target] = found
        return found

    def link_path(self, link: Link, source: str | None = None) -> str | None:
        if link.path is not None:
            return link.path
        if link.is_external:
            return None
        found = self.resolve(link.target, source)
        return found.path if found is not None else None

    def record_of(self, link: Link, source: str | None = None) -> FileRecord | None:
        path = self.link_path(link, source)
        return self.by_path.get(path) if path is not None else None


_EMPTY = FileRecord(path="")


@dataclass
class Reads:
    """What one evaluation read besides each row's own record (``evaluate(reads=)``):
    the records it reached through links (``record_of``, ``resolve``), whether it read
    the clock or ``this``, and the paths of the records its filters let through."""

    records: set[str] = field(default_factory=set)
    now: bool = False
    this: bool = False
    passed: frozenset[str] = frozenset()


class Context:
    """One evaluation: records, ``this``, the moment ``now()`` means, formulas."""

    def __init__(self, records: RecordSet, this: FileRecord | None, now: _dt.datetime,
                 formulas: Mapping[str, Fn], seed: str = "",
                 reads: Reads | None = None) -> None:
        self.records = records
        self._this = this
        self._this_ref = ThisRef(this) if this is not None else None
        #: links made by the query (``link("x")``, text compared with a link) are
        #: written in the base's file or the note embedding it
        self.source = this.path if this is not None and this.path else None
        self._now = Date(now.replace(tzinfo=None), True)
        self._today = Date(_dt.datetime(now.year, now.month, now.day), False)
        self.formulas = formulas
        self.seed = seed
        self._this_scope: Scope | None = None
        self.reads = reads

    # -- what it reads besides the row (each noted in ``reads``) --------------------------

    @property
    def this(self) -> FileRecord | None:
        if self.reads is not None:
            self.reads.this = True
        return self._this

    @property
    def this_ref(self) -> ThisRef | None:
        if self.reads is not None:
            self.reads.this = True
        return self._this_ref

    @property
    def now(self) -> Date:
        if self.reads is not None:
            self.reads.now = True
        return self._now

    @property
    def today(self) -> Date:
        if self.reads is not None:
            self.reads.now = True
        return self._today

    def _read(self, found: FileRecord | None) -> FileRecord | None:
        if self.reads is not None:
            self.reads.records.add(found.path if found is not None else "")
        return found

    def link_path(self, link: Link) -> str | None:
        return self.records.link_path(link, self.source)

    def resolve(self, target: str) -> FileRecord | None:
        return self._read(self.records.resolve(target, self.source))

    def record_of(self, link: Link) -> FileRecord | None:
        return self._read(self.records.record_of(link, self.source))

    def scope(self, record: FileRecord | None) -> Scope:
        return Scope(record or _EMPTY, self)

    def this_scope(self) -> Scope:
        """The row of ``this`` (``this.formula.x`` evaluates formulas for it)."""
        if self.reads is not None:
            self.reads.this = True
        if self._this_scope is None:
            self._this_scope = Scope(self._this or _EMPTY, self)
        return self._this_scope


_PENDING = object()


class Scope:
    """One row: its record, its formula values (memoised), lambda variables."""

    __slots__ = ("record", "ctx", "cache", "locals")

    def __init__(self, record: FileRecord, ctx: Context,
                 cache: dict[str, Any] | None = None,
                 locals_: dict[str, Any] | None = None) -> None:
        self.record = record
        self.ctx = ctx
        self.cache: dict[str, Any] = {} if cache is None else cache
        self.locals = locals_

    def child(self, locals_: dict[str, Any]) -> Scope:
        """A scope for a lambda argument (``value``, ``index``, ``acc``) of this row."""
        merged = dict(self.locals) if self.locals else {}
        merged.update(locals_)
        return Scope(self.record, self.ctx, self.cache, merged)

    def formula(self, name: str) -> Any:
        cached = self.cache.get(name, _PENDING)
        if cached is _PENDING:
            if name in self.cache:
                raise ExprError(f"formula.{name} refers to itself (a cycle)")
            fn = self.ctx.formulas.get(name)
            if fn is None:
                raise ExprError(f"no formula named {name!r}")
            self.cache[name] = _PENDING
            try:  # formulas never see a lambda's value/index/acc
                cached = fn(self if self.locals is None else
                            Scope(self.record, self.ctx, self.cache))
            except BaseException:
                del self.cache[name]
                raise
            self.cache[name] = cached
        return cached

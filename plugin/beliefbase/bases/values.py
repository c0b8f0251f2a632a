"""The values an expression computes with, and the file records it reads.

Plain Python stands for the JavaScript-like primitives: ``None`` (null),
``bool``, ``int``/``float`` (number), ``str``, ``tuple`` (list) and ``Mapping``
(object).  The rest are frozen classes here: ``Date``, ``Duration``, ``Link``,
``Regex``, ``Html``, ``Image``, ``Icon``, ``ErrorValue`` and ``FileRecord``
(a file of the vault, what ``file`` and ``this.file`` are).
"""

from __future__ import annotations

import datetime as _dt
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import regex

from ..codecs.datetimes import BASES_DATES, naive
from ..codecs.field_values import js_number_text
from ..frozen import FrozenDict
from ..ids import tag_parents

EPOCH = _dt.datetime(1970, 1, 1)
MS_PER_DAY = 86_400_000


@dataclass(frozen=True, slots=True, order=True)
class Date:
    """A date, or a date and time (``has_time``); naive, read as UTC."""

    dt: _dt.datetime
    has_time: bool = field(default=False, compare=False)
    #: milliseconds since 1970-01-01 (what ``number()`` gives; date arithmetic uses it)
    ms: float = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        delta = self.dt - EPOCH
        object.__setattr__(self, "ms", (delta.days * 86_400 + delta.seconds) * 1000
                           + delta.microseconds / 1000)


@dataclass(frozen=True, slots=True)
class Duration:
    """A span: calendar months (``"1M"``, ``"1y"``) plus milliseconds."""

    months: int = 0
    ms: float = 0.0

    @property
    def total_ms(self) -> float:
        """Milliseconds, a month counted as 30 days (for comparisons and ``number()``)."""
        return self.months * 30 * MS_PER_DAY + self.ms


@dataclass(frozen=True, slots=True)
class Link:
    """A link value: ``[[target|display]]`` in frontmatter, ``link()``, ``file.asLink()``.

    ``path`` is the vault path of the file it resolves to (``None``: not resolved
    yet, or to nothing; the engine resolves against the records it is given).
    """

    target: str
    display: Any = None
    path: str | None = None

    @property
    def is_external(self) -> bool:
        return bool(_URL.match(self.target))


_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True, slots=True)
class Regex:
    """A regular expression literal ``/source/flags`` (JavaScript syntax, run by ``re``)."""

    source: str
    flags: str
    #: compiled by the ``regex`` module: its searches take a time limit (``REGEX_TIMEOUT``),
    #: so a base's pattern cannot stall a build (a note's query is data)
    compiled: Any = field(compare=False, repr=False)

    @classmethod
    def make(cls, source: str, flags: str = "") -> Regex:
        bad = set(flags) - set("gimsuyd")
        if bad:
            raise ValueError(f"unknown flag {''.join(sorted(bad))!r}")
        pyflags = (regex.I if "i" in flags else 0) | (regex.M if "m" in flags else 0) | (
            regex.S if "s" in flags else 0)
        pattern = re.sub(r"\(\?<([A-Za-z_]\w*)>", r"(?P<\1>", source)
        pattern = re.sub(r"\\k<([A-Za-z_]\w*)>", r"(?P=\1)", pattern)
        try:
            compiled = regex.compile(pattern, pyflags)
        except (regex.error, OverflowError, RecursionError) as exc:
            raise ValueError(str(exc)) from None
        return cls(source, flags, compiled)

    @property
    def is_global(self) -> bool:
        return "g" in self.flags


@dataclass(frozen=True, slots=True)
class Html:
    """``html(s)``: shown as escaped text, never as markup (queries are data)."""

    text: str


@dataclass(frozen=True, slots=True)
class Image:
    """``image(x)``: a local file (``link``) or a URL / colour (``src``)."""

    src: str
    link: Link | None = None


@dataclass(frozen=True, slots=True)
class Icon:
    """``icon(name)``: a Lucide icon name."""

    name: str


@dataclass(frozen=True, slots=True)
class ErrorValue:
    """A cell whose expression failed for this row."""

    message: str


@dataclass(frozen=True, slots=True, eq=False)
class FileRecord:
    """One file of the vault as Bases sees it (``file.*`` and its note properties).

    ``properties`` hold engine values (``to_value``): wikilinks are ``Link``s,
    YAML dates ``Date``s, lists tuples.  ``tags`` are without ``#``, nested ones
    as written (``book/fiction``); ``links``, ``embeds`` and ``backlinks`` are
    ``Link``s with their target's ``path`` when resolved.  Equality is identity:
    the engine compares files by ``path``.
    """

    path: str
    size: int = 0
    ctime: Date | None = None
    mtime: Date | None = None
    tags: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    embeds: tuple[Link, ...] = ()
    backlinks: tuple[Link, ...] = ()
    properties: Mapping[str, Any] = field(default_factory=FrozenDict)
    name: str = field(init=False)
    basename: str = field(init=False)
    folder: str = field(init=False)
    ext: str = field(init=False)
    #: every tag and its parents (``a/b`` -> ``a/b``, ``a``), lower case: for ``hasTag``
    tag_keys: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        name = posixpath.basename(self.path)
        base, dot, ext = name.rpartition(".")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "basename", base if dot else name)
        object.__setattr__(self, "ext", ext if dot else "")
        object.__setattr__(self, "folder", posixpath.dirname(self.path))
        object.__setattr__(self, "tag_keys", frozenset(
            key for tag in self.tags for key in tag_parents(tag.lower())))


def make_record(path: str, properties: Mapping[str, Any] | None = None, *,
                size: int = 0, ctime: Any = None, mtime: Any = None,
                tags: Iterable[str] = (), links: Iterable[Any] = (),
                embeds: Iterable[Any] = (), backlinks: Iterable[Any] = ()) -> FileRecord:
    """A ``FileRecord`` from plain data (YAML values, link targets as text or ``Link``)."""

    def as_links(items: Iterable[Any]) -> tuple[Link, ...]:
        return tuple(i if isinstance(i, Link) else parse_link_text(str(i)) for i in items)

    return FileRecord(
        path=path, size=size,
        ctime=_as_date(ctime), mtime=_as_date(mtime),
        tags=tuple(t.lstrip("#") for t in tags),
        links=as_links(links), embeds=as_links(embeds), backlinks=as_links(backlinks),
        properties=FrozenDict({str(k): to_value(v) for k, v in (properties or {}).items()}),
    )


def _as_date(value: Any) -> Date | None:
    converted = to_value(value)
    return converted if isinstance(converted, Date) else None


_WIKILINK = re.compile(r"^\s*!?\[\[([^\[\]]+)\]\]\s*$")
_MDLINK = re.compile(r"^\s*\[([^\[\]]*)\]\(([^()\s]+)\)\s*$")


def parse_link_text(text: str) -> Link:
    """``[[target#h|display]]``, ``[display](target)`` or a bare target -> ``Link``."""
    m = _WIKILINK.match(text)
    if m:
        target, _, display = m.group(1).partition("|")
        return Link(target.strip(), display.strip() or None)
    m = _MDLINK.match(text)
    if m:
        return Link(m.group(2), m.group(1) or None)
    return Link(text.strip())


def to_value(raw: Any, _memo: dict[int, Any] | None = None) -> Any:
    """A YAML/Python value -> an engine value (wikilink strings become ``Link``s).

    A container met again is converted once (``_memo``, by identity): YAML aliases
    share values, and an alias bomb converted reference by reference is exponential.
    """
    if raw is None or isinstance(raw, (bool, int, float)):
        return raw
    if isinstance(raw, str):
        return parse_link_text(raw) if _WIKILINK.match(raw) or _MDLINK.match(raw) else raw
    if isinstance(raw, _dt.datetime):
        return Date(naive(raw, BASES_DATES), True)
    if isinstance(raw, _dt.date):
        return Date(_dt.datetime(raw.year, raw.month, raw.day), False)
    if isinstance(raw, (list, tuple, set, frozenset, Mapping)):
        memo = {} if _memo is None else _memo
        if id(raw) in memo:
            return memo[id(raw)]
        memo[id(raw)] = converted = _container(raw, memo)
        return converted
    if isinstance(raw, (Date, Duration, Link, Regex, Html, Image, Icon, FileRecord)):
        return raw
    return str(raw)


def _container(raw: Any, memo: dict[int, Any]) -> Any:
    if isinstance(raw, Mapping):
        return FrozenDict({str(k): to_value(v, memo) for k, v in raw.items()})
    items = sorted(raw, key=str) if isinstance(raw, (set, frozenset)) else raw
    converted = tuple(to_value(v, memo) for v in items)
    if type(raw) is tuple and all(a is b for a, b in zip(converted, raw, strict=True)):
        return raw  # nothing changed: the value itself (the compile's, shared)
    return converted


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def type_name(value: Any) -> str:
    """The Bases type of a value, as ``isType()`` names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, tuple):
        return "list"
    if isinstance(value, Mapping):
        return "object"
    return _TYPE_NAMES.get(type(value), "unknown")


_TYPE_NAMES: dict[type, str] = {
    Date: "date", Duration: "duration", Link: "link", Regex: "regexp", Html: "html",
    Image: "image", Icon: "icon", FileRecord: "file", ErrorValue: "error",
}


def truthy(value: Any) -> bool:
    """JavaScript truthiness: null, false, 0, NaN and "" are false, all else true."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, (int, float)):
        return value == value and value != 0
    if isinstance(value, str):
        return value != ""
    return not isinstance(value, ErrorValue)


number_text = js_number_text  # JavaScript's String(n) (codecs/field_values.py)


@dataclass(frozen=True, slots=True, eq=False)
class ThisRef:
    """``this``: the base's own file or the note embedding it (``this.file``,
    ``this.x``, ``this.formula.x``); equal to that file in comparisons."""

    record: FileRecord

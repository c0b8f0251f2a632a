"""The typed values of a Dataview inline field, as the codec reads them: numbers,
booleans, dates (``datetime``; a date without time is midnight), ``Duration``,
``Link`` and text, or a tuple of those.

They live with the codec, below the graph and the Dataview engine, because the
compile records every inline field of a note typed (``codecs.inline_fields``);
``dataview.values`` and ``dataview.dates`` build the rest of Dataview's value
rules on them.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from decimal import Decimal

from .datetimes import DATAVIEW_DATES, DATAVIEW_DURATIONS, parse_datetime, parse_duration_parts

DURATION_UNITS = ("years", "months", "weeks", "days", "hours", "minutes", "seconds",
                  "milliseconds")
#: milliseconds per unit; months and years are "casual" (30 and 365 days), as
#: Luxon converts them when a duration is compared or shifted without a date
_MS = {
    "years": 365 * 86_400_000.0,
    "months": 30 * 86_400_000.0,
    "weeks": 7 * 86_400_000.0,
    "days": 86_400_000.0,
    "hours": 3_600_000.0,
    "minutes": 60_000.0,
    "seconds": 1000.0,
    "milliseconds": 1.0,
}
_SINGULAR = {u: u[:-1] for u in DURATION_UNITS}


@dataclass(frozen=True, slots=True)
class Duration:
    """A span of time kept in the units it was written in (``dur(1 week)`` stays
    one week), like Luxon's ``Duration``."""

    years: float = 0
    months: float = 0
    weeks: float = 0
    days: float = 0
    hours: float = 0
    minutes: float = 0
    seconds: float = 0
    milliseconds: float = 0

    def parts(self) -> tuple[float, ...]:
        return tuple(getattr(self, u) for u in DURATION_UNITS)

    def total_ms(self) -> float:
        return float(sum(getattr(self, u) * _MS[u] for u in DURATION_UNITS))

    def as_unit(self, unit: str) -> float:
        """The whole duration in one unit (``dur(1 day 6 hours).hours`` is 30)."""
        value = self.total_ms() / _MS[unit]
        return int(value) if value == int(value) else value

    def scaled(self, factor: float) -> Duration:
        return Duration(*(_num(p * factor) for p in self.parts()))

    def plus(self, other: Duration, sign: int = 1) -> Duration:
        return Duration(*(_num(a + sign * b) for a, b in zip(self.parts(), other.parts(),
                                                              strict=True)))

    def is_zero(self) -> bool:
        return not any(self.parts())

    def human(self) -> str:
        """``3 days, 4 hours`` (Luxon's ``toHuman`` in English); zero is ``0 seconds``."""
        out = []
        for unit in DURATION_UNITS:
            value = _num(getattr(self, unit))
            if value:
                name = _SINGULAR[unit] if value == 1 else unit
                out.append(f"{_number_text(value)} {name}")
        return ", ".join(out) if out else "0 seconds"


@dataclass(frozen=True, slots=True)
class Link:
    """A link to a note (``path`` as written, or the vault path once resolved),
    maybe to a heading or block (``subpath``), with display text."""

    path: str
    display: str | None = None
    subpath: str | None = None
    embed: bool = False
    kind: str = "file"  # "file", "header" or "block"

    def with_path(self, path: str) -> Link:
        return Link(path, self.display, self.subpath, self.embed, self.kind)

    def file_name(self) -> str:
        """The last path segment without its extension: what Dataview shows."""
        name = self.path.rsplit("/", 1)[-1]
        return name[:-3] if name.lower().endswith(".md") else name

    def text(self) -> str:
        if self.display is not None:
            return self.display
        if self.subpath and self.kind == "header":
            return f"{self.file_name()} > {self.subpath}"
        return self.file_name()

    def markdown(self) -> str:
        target = self.path + (f"#{'^' if self.kind == 'block' else ''}{self.subpath}"
                              if self.subpath else "")
        shown = f"|{self.display}" if self.display is not None else ""
        return f"{'!' if self.embed else ''}[[{target}{shown}]]"


def _num(value: float) -> float:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _number_text(value: float) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return js_number_text(value)


def js_number_text(value: float) -> str:
    """A number as JavaScript's ``String(n)`` writes it (``3``, ``0.1``, ``1e+21``):
    how Dataview and Obsidian's Bases, both JavaScript, show a number."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text and 1e-7 <= abs(value) < 1e21:  # JavaScript writes these in full
        return format(Decimal(text), "f")
    if "e" in text:
        mantissa, exp = text.split("e")
        sign = "-" if exp.startswith("-") else "+"
        return f"{mantissa}e{sign}{exp.lstrip('+-').lstrip('0') or '0'}"
    return text


def parse_iso(text: str) -> dt.datetime | None:
    """``2021-04-18``, ``2021-04``, ``2021-04-18T04:19:35.000+06:30`` → a date (the
    time as written, its offset dropped: ``codecs.datetimes.DATAVIEW_DATES``); None
    when ``text`` is not (entirely) one."""
    parsed = parse_datetime(text, DATAVIEW_DATES)
    return parsed[0] if parsed is not None else None


def parse_duration(text: str) -> Duration | None:
    """``3 days``, ``6hr4min``, ``1 s, 2 m, 3 h``, ``9 yrs 8 min`` → a duration; None
    when ``text`` is not (entirely) one (``codecs.datetimes``)."""
    found = parse_duration_parts(text, DATAVIEW_DURATIONS)
    if found is None:
        return None
    parts: dict[str, float] = {}
    for unit, amount in found:
        parts[unit] = parts.get(unit, 0) + (int(amount) if amount.is_integer() else amount)
    return Duration(**parts)


def link_from_text(inner: str, embed: bool = False) -> Link:
    """The inside of ``[[...]]``: ``path#heading|display``, ``path#^block``."""
    display = None
    if "|" in inner:
        inner, display = inner.split("|", 1)
        display = display.strip()
    path, _, sub = inner.partition("#")
    path = path.strip()
    subpath = sub.strip() or None
    kind = "file"
    if subpath:
        kind = "block" if subpath.startswith("^") else "header"
        subpath = subpath.lstrip("^")
    return Link(path, display, subpath, embed, kind)

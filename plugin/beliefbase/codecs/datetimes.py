"""One reader of date and duration text for the vault's query languages.

Obsidian Bases (``bases.dates``), Dataview (``dataview.dates``) and the inline
fields the codec reads (``codecs.field_values``) all read ``2025-05-27``,
``2025-05-27T14:05:00+02:00``, ``3 days`` or ``1d 4h`` here.  What the two
languages document differently is an explicit option, nothing else:

* ``DateSyntax.utc_offset``: a time written with a UTC offset.  Dataview keeps
  the time as written in that offset (its literals: ``date(2021-04-18T04:19:35
  .000+06:30)`` is 04:19 of that day; Luxon's ``setZone``); Bases reads the moment
  the text names (JavaScript's ``Date``) and keeps it in UTC, the build's zone.
* ``DateSyntax.iso_only``: Dataview reads ISO 8601 as Luxon does (4-digit year,
  2-digit fields, ``YYYY-MM`` alone is a month's first day, ``T`` or one space);
  Bases' ``date()`` reads its documented ``YYYY-MM-DD HH:mm:ss`` loosely, as
  Moment does (1- or 2-digit fields, a signed year, ``,`` before a fraction,
  spaces around the offset).
* ``DurationSyntax.month_letter``: Bases' units are ``y M w d h m s`` (``M``:
  months, ``m``: minutes); Dataview's are case-insensitive (``m``, ``M``: minutes,
  ``mo``: months).

Both languages take the same unit names otherwise (``ms``/``msec``, ``s``/``sec``,
``min``, ``h``/``hr``, ``d``/``day``, ``w``/``wk``, ``mo``/``month``, ``y``/``yr``
and their plurals), a sign before each amount and parts separated by spaces or
commas (``1 s, 2 m``, ``6hr4min``).  Dates are naive ``datetime``s: no result
depends on the machine's time zone.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache
from typing import Literal


@dataclass(frozen=True, slots=True)
class DateSyntax:
    """How a language reads date text (see the module doc)."""

    utc_offset: Literal["to_utc", "keep_wall_clock"]
    iso_only: bool


@dataclass(frozen=True, slots=True)
class DurationSyntax:
    month_letter: bool  # "M" is months and "m" minutes (else units ignore case)


BASES_DATES = DateSyntax(utc_offset="to_utc", iso_only=False)
DATAVIEW_DATES = DateSyntax(utc_offset="keep_wall_clock", iso_only=True)
BASES_DURATIONS = DurationSyntax(month_letter=True)
DATAVIEW_DURATIONS = DurationSyntax(month_letter=False)

_OFFSET = r"(?P<tz>Z|[+-]\d{2}:?\d{2})"


@cache
def _date_pattern(iso_only: bool) -> re.Pattern[str]:
    if iso_only:
        return re.compile(
            r"(?P<y>\d{4})-(?P<mo>\d{2})(?:-(?P<d>\d{2})"
            r"(?:[T ](?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.(?P<frac>\d{1,9}))?)?)?"
            + _OFFSET + r"?)?")
    return re.compile(
        r"(?P<y>[+-]?\d{4,6})-(?P<mo>\d{1,2})-(?P<d>\d{1,2})"
        r"(?:[T\s]+(?P<h>\d{1,2}):(?P<mi>\d{2})"
        r"(?::(?P<s>\d{2})(?:[.,](?P<frac>\d{1,9}))?)?)?"
        r"\s*" + _OFFSET + "?")


def parse_datetime(text: str, syntax: DateSyntax) -> tuple[dt.datetime, bool] | None:
    """``text`` (entirely) as a date: (the naive date and time, whether a time of day
    was written), or None."""
    m = _date_pattern(syntax.iso_only).fullmatch(text.strip())
    if not m:
        return None
    try:
        value = dt.datetime(int(m["y"]), int(m["mo"]), int(m["d"] or 1), int(m["h"] or 0),
                            int(m["mi"] or 0), int(m["s"] or 0),
                            int((m["frac"] or "0")[:6].ljust(6, "0")))
    except (ValueError, OverflowError):
        return None
    tz = m["tz"]
    if tz and tz != "Z" and syntax.utc_offset == "to_utc":
        digits = tz[1:].replace(":", "")
        offset = dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        try:
            value = value - offset if tz[0] == "+" else value + offset
        except OverflowError:
            return None
    return value, m["h"] is not None


def naive(value: dt.datetime, syntax: DateSyntax) -> dt.datetime:
    """A YAML date-time with an offset as the language reads its text (``utc_offset``)."""
    if value.tzinfo is None:
        return value
    if syntax.utc_offset == "to_utc":
        return value.astimezone(dt.UTC).replace(tzinfo=None)
    return value.replace(tzinfo=None)


#: every unit's names (as both languages read them) -> the unit
_UNIT_NAMES = {
    "milliseconds": ("ms", "msec", "msecs", "millisecond", "milliseconds"),
    "seconds": ("s", "sec", "secs", "second", "seconds"),
    "minutes": ("m", "min", "mins", "minute", "minutes"),
    "hours": ("h", "hr", "hrs", "hour", "hours"),
    "days": ("d", "day", "days"),
    "weeks": ("w", "wk", "wks", "week", "weeks"),
    "months": ("mo", "month", "months"),
    "years": ("y", "yr", "yrs", "year", "years"),
}
UNIT_OF = {name: unit for unit, names in _UNIT_NAMES.items() for name in names}
_SPACE = re.compile(r"\s")
_PART = re.compile(r"\s*([+-]?\s*\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*,?")


def parse_duration_parts(text: str, syntax: DurationSyntax) -> list[tuple[str, float]] | None:
    """``3 days``, ``1d 4h``, ``-2 weeks``, ``1 s, 2 m`` -> [(unit, amount), ...] in the
    order written (units: ``years`` ... ``milliseconds``); None when ``text`` is not
    (entirely) a duration."""
    text = text.strip()
    if not text:
        return None
    parts: list[tuple[str, float]] = []
    pos = 0
    while pos < len(text):
        m = _PART.match(text, pos)
        if not m or m.end() == pos:
            return None
        name = m[2]
        unit = "months" if syntax.month_letter and name == "M" else (
            UNIT_OF.get(name) or UNIT_OF.get(name.lower()))
        if unit is None:
            return None
        parts.append((unit, float(_SPACE.sub("", m[1]))))
        pos = m.end()
    return parts

"""Dates and durations: parsing (``date()``, ``"1M"``), calendar arithmetic,
Moment.js formatting (``format()``) and ``relative()``."""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from typing import Any

from ..codecs.datetimes import (
    BASES_DATES,
    BASES_DURATIONS,
    parse_datetime,
    parse_duration_parts,
)
from .values import EPOCH, MS_PER_DAY, Date, Duration

_UNIT_MS = {"weeks": 7 * MS_PER_DAY, "days": MS_PER_DAY, "hours": 3_600_000,
            "minutes": 60_000, "seconds": 1000, "milliseconds": 1}


def parse_date(text: str) -> Date | None:
    """``YYYY-MM-DD``, ``YYYY-MM-DD HH:mm[:ss[.SSS]]``, ISO 8601 with ``T`` and zone
    (the moment, in UTC: ``codecs.datetimes.BASES_DATES``)."""
    parsed = parse_datetime(text, BASES_DATES)
    return Date(*parsed) if parsed is not None else None


def parse_duration(text: str) -> Duration | None:
    """``"1M"``, ``"2h"``, ``"1 week"``, ``"-3d"``, ``"1d 4h"`` -> ``Duration``
    (``codecs.datetimes.BASES_DURATIONS``: ``M`` is months, ``m`` minutes)."""
    parts = parse_duration_parts(text, BASES_DURATIONS)
    if parts is None:
        return None
    months, ms = 0, 0.0
    for unit, amount in parts:
        if unit == "years":
            months += round(amount * 12)
        elif unit == "months":
            months += round(amount)
        else:
            ms += amount * _UNIT_MS[unit]
    return Duration(months, ms)


def add_duration(date: Date, duration: Duration, sign: int = 1) -> Date:
    """``date ± duration``: months on the calendar (31 Jan + 1M = 28/29 Feb), then time."""
    value = date.dt
    if duration.months:
        total = value.year * 12 + value.month - 1 + sign * duration.months
        year, month = divmod(total, 12)
        if not 1 <= year <= 9999:
            raise OverflowError("date out of range")
        day = min(value.day, calendar.monthrange(year, month + 1)[1])
        value = value.replace(year=year, month=month + 1, day=day)
    if duration.ms:
        value = value + _dt.timedelta(milliseconds=sign * duration.ms)
    has_time = date.has_time or duration.ms % MS_PER_DAY != 0
    return Date(value, has_time)


def from_ms(ms: float, has_time: bool = True) -> Date:
    return Date(EPOCH + _dt.timedelta(milliseconds=ms), has_time)


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_TOKEN = re.compile(r"""
    \[(?P<lit>[^\]]*)\]                      # [escaped text]
  | (?P<tok>YYYY|YY|Q|MMMM|MMM|MM|M|Do|DDDD|DDD|DD|D|dddd|ddd|dd|d|E|e|WW|W|ww|w
     |HH|H|hh|h|kk|k|mm|m|ss|s|SSS|SS|S|A|a|X|x|ZZ|Z)
""", re.X)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _token(tok: str, v: _dt.datetime) -> str:
    hour12 = v.hour % 12 or 12
    iso_week = v.isocalendar()[1]
    table: dict[str, Any] = {
        "YYYY": f"{v.year:04d}", "YY": f"{v.year % 100:02d}", "Q": (v.month - 1) // 3 + 1,
        "MMMM": _MONTHS[v.month - 1], "MMM": _MONTHS[v.month - 1][:3],
        "MM": f"{v.month:02d}", "M": v.month, "Do": _ordinal(v.day),
        "DDDD": f"{v.timetuple().tm_yday:03d}", "DDD": v.timetuple().tm_yday,
        "DD": f"{v.day:02d}", "D": v.day,
        "dddd": _DAYS[v.weekday()], "ddd": _DAYS[v.weekday()][:3],
        "dd": _DAYS[v.weekday()][:2], "d": (v.weekday() + 1) % 7, "e": (v.weekday() + 1) % 7,
        "E": v.isoweekday(), "WW": f"{iso_week:02d}", "W": iso_week,
        "ww": f"{iso_week:02d}", "w": iso_week,
        "HH": f"{v.hour:02d}", "H": v.hour, "hh": f"{hour12:02d}", "h": hour12,
        "kk": f"{v.hour or 24:02d}", "k": v.hour or 24,
        "mm": f"{v.minute:02d}", "m": v.minute, "ss": f"{v.second:02d}", "s": v.second,
        "SSS": f"{v.microsecond // 1000:03d}", "SS": f"{v.microsecond // 10000:02d}",
        "S": v.microsecond // 100000,
        "A": "AM" if v.hour < 12 else "PM", "a": "am" if v.hour < 12 else "pm",
        "X": int((v - EPOCH).total_seconds()), "x": int((v - EPOCH).total_seconds() * 1000),
        "Z": "+00:00", "ZZ": "+0000",
    }
    return str(table[tok])


def format_moment(date: Date, fmt: str) -> str:
    """A date written with a Moment.js format string (``YYYY-MM-DD``, ``dddd``, ``[at] HH:mm``)."""
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(fmt):
        out.append(fmt[pos:m.start()])
        out.append(m["lit"] if m["lit"] is not None else _token(m["tok"], date.dt))
        pos = m.end()
    out.append(fmt[pos:])
    return "".join(out)


def date_text(date: Date) -> str:
    """How a date shows in a view: ``2025-05-27`` or ``2025-05-27 14:05``."""
    return format_moment(date, "YYYY-MM-DD HH:mm" if date.has_time else "YYYY-MM-DD")


def relative(date: Date, now: Date) -> str:
    """Moment's ``fromNow()``: "a few seconds ago", "3 days ago", "in 2 months"."""
    seconds = (date.dt - now.dt).total_seconds()
    future, s = seconds > 0, abs(seconds)
    minutes, hours, days = s / 60, s / 3600, s / 86400
    if s < 45:
        text = "a few seconds"
    elif s < 90:
        text = "a minute"
    elif minutes < 45:
        text = f"{round(minutes)} minutes"
    elif minutes < 90:
        text = "an hour"
    elif hours < 22:
        text = f"{round(hours)} hours"
    elif hours < 36:
        text = "a day"
    elif days < 26:
        text = f"{round(days)} days"
    elif days < 45:
        text = "a month"
    elif days < 320:
        text = f"{round(days / 30.4375)} months"
    elif days < 548:
        text = "a year"
    else:
        text = f"{round(days / 365.25)} years"
    return f"in {text}" if future else f"{text} ago"


def duration_text(duration: Duration) -> str:
    """A duration for display: ``1 month 2 days 4 hours``; ``0 seconds`` when empty."""
    parts: list[str] = []
    years, months = divmod(abs(duration.months), 12)
    ms: float = abs(duration.ms)
    sign = "-" if (duration.months < 0 or duration.ms < 0) else ""
    for count, unit in ((years, "year"), (months, "month")):
        if count:
            parts.append(f"{count} {unit}{'s' if count != 1 else ''}")
    for unit, size in (("day", MS_PER_DAY), ("hour", 3_600_000), ("minute", 60_000),
                       ("second", 1000)):
        amount, ms = divmod(ms, size)
        if amount:
            parts.append(f"{int(amount)} {unit}{'s' if amount != 1 else ''}")
    return sign + (" ".join(parts) if parts else "0 seconds")

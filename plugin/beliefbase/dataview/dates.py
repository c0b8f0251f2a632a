"""Dates and durations as Dataview reads, computes and prints them.

Dates are naive ``datetime``s: a value written with a UTC offset keeps its
wall-clock time (the offset is dropped), so results never depend on the
machine's time zone.  Formatting follows Luxon's tokens (Dataview's date
library) in English.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

# read with the codec's inline fields; re-exported here
from ..codecs.field_values import parse_duration as parse_duration
from ..codecs.field_values import parse_iso as parse_iso
from .values import Duration

#: Dataview's defaults: "MMMM dd, yyyy" and "h:mm a - MMMM dd, yyyy"
DEFAULT_DATE_FORMAT = "MMMM dd, yyyy"
DEFAULT_DATETIME_FORMAT = "h:mm a - MMMM dd, yyyy"

_MONTHS = [calendar.month_name[i] for i in range(13)]
_DAYS = list(calendar.day_name)  # Monday first


def relative_date(word: str, now: dt.datetime) -> dt.datetime | None:
    """``today``, ``now``, ``tomorrow``, ``yesterday``, ``sow``/``eow`` (weeks start on
    Monday), ``som``/``eom``, ``soy``/``eoy``; None for another word."""
    today = dt.datetime(now.year, now.month, now.day)
    word = word.lower()
    if word == "now":
        return now
    if word == "today":
        return today
    if word == "tomorrow":
        return today + dt.timedelta(days=1)
    if word == "yesterday":
        return today - dt.timedelta(days=1)
    if word == "sow":
        return today - dt.timedelta(days=today.weekday())
    if word == "eow":
        return end_of_day(today + dt.timedelta(days=6 - today.weekday()))
    if word == "som":
        return today.replace(day=1)
    if word == "eom":
        last = calendar.monthrange(today.year, today.month)[1]
        return end_of_day(today.replace(day=last))
    if word == "soy":
        return today.replace(month=1, day=1)
    if word == "eoy":
        return end_of_day(today.replace(month=12, day=31))
    return None


def end_of_day(day: dt.datetime) -> dt.datetime:
    return day.replace(hour=23, minute=59, second=59, microsecond=999000)


def add_duration(date: dt.datetime, dur: Duration, sign: int = 1) -> dt.datetime:
    """``date + dur`` as Luxon adds: calendar units (years, months) first, clamping
    the day to the month's length, then the exact units."""
    months = sign * (dur.years * 12 + dur.months)
    whole = int(months)
    extra_days = (months - whole) * 30
    if whole:
        y, m = divmod(date.month - 1 + whole, 12)
        year = date.year + y
        if not 1 <= year <= 9999:
            raise OverflowError("date out of range")
        day = min(date.day, calendar.monthrange(year, m + 1)[1])
        date = date.replace(year=year, month=m + 1, day=day)
    delta = dt.timedelta(
        weeks=sign * dur.weeks, days=sign * dur.days + extra_days, hours=sign * dur.hours,
        minutes=sign * dur.minutes, seconds=sign * dur.seconds,
        milliseconds=sign * dur.milliseconds,
    )
    return date + delta


def diff(a: dt.datetime, b: dt.datetime) -> Duration:
    """``a - b`` in calendar units (years, months, weeks, days, hours, minutes,
    seconds), as Luxon's ``diff`` with every unit; negative when ``a`` is earlier."""
    if a < b:
        return diff(b, a).scaled(-1)
    months = (a.year - b.year) * 12 + (a.month - b.month)
    while months > 0 and add_duration(b, Duration(months=months)) > a:
        months -= 1
    anchor = add_duration(b, Duration(months=months))
    rest = a - anchor
    days = rest.days
    secs = rest.seconds
    return Duration(
        years=months // 12, months=months % 12, weeks=days // 7, days=days % 7,
        hours=secs // 3600, minutes=secs % 3600 // 60, seconds=secs % 60,
        milliseconds=rest.microseconds // 1000,
    )


def has_time(date: dt.datetime) -> bool:
    return (date.hour, date.minute, date.second, date.microsecond) != (0, 0, 0, 0)


def display_date(date: dt.datetime) -> str:
    """How Dataview shows a date: ``May 16, 2021``, or ``4:19 AM - April 18, 2021``
    when it has a time of day."""
    return format_date(date, DEFAULT_DATETIME_FORMAT if has_time(date) else DEFAULT_DATE_FORMAT)


_TOKEN = re.compile(
    r"'([^']*)'|(yyyy|yy|y|kkkk|kk|MMMM|MMM|MM|M|LLLL|LLL|LL|L|dd|d|EEEE|EEE|E|cccc|ccc|c|"
    r"HH|H|hh|h|mm|m|ss|s|SSS|S|a|x|X|WW|W|ooo|o|qq|q|DDDD|DDD|DD|D|TT|T|tt|t|ffff|fff|ff|f|"
    r"ZZZZ|ZZZ|ZZ|Z|z)"
)


def format_date(date: dt.datetime, fmt: str) -> str:
    """``dateformat``: Luxon's tokens (English, no time zone: ``Z`` is ``+00:00``)."""
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        if m.group(1) is not None:
            out.append(m.group(1) if m.group(1) else "'")
            continue
        out.append(_token(date, m.group(2)))
    out.append(fmt[pos:])
    return "".join(out)


def _hour12(date: dt.datetime) -> int:
    return date.hour % 12 or 12


def _token(d: dt.datetime, tok: str) -> str:  # noqa: C901 - one table of tokens
    iso = d.isocalendar()
    simple = {
        "yyyy": f"{d.year:04d}", "yy": f"{d.year % 100:02d}", "y": str(d.year),
        "kkkk": f"{iso[0]:04d}", "kk": f"{iso[0] % 100:02d}",
        "MMMM": _MONTHS[d.month], "MMM": _MONTHS[d.month][:3], "MM": f"{d.month:02d}",
        "M": str(d.month), "LLLL": _MONTHS[d.month], "LLL": _MONTHS[d.month][:3],
        "LL": f"{d.month:02d}", "L": str(d.month),
        "dd": f"{d.day:02d}", "d": str(d.day),
        "EEEE": _DAYS[d.weekday()], "EEE": _DAYS[d.weekday()][:3], "E": str(d.isoweekday()),
        "cccc": _DAYS[d.weekday()], "ccc": _DAYS[d.weekday()][:3], "c": str(d.isoweekday()),
        "HH": f"{d.hour:02d}", "H": str(d.hour), "hh": f"{_hour12(d):02d}", "h": str(_hour12(d)),
        "mm": f"{d.minute:02d}", "m": str(d.minute), "ss": f"{d.second:02d}", "s": str(d.second),
        "SSS": f"{d.microsecond // 1000:03d}", "S": str(d.microsecond // 1000),
        "a": "AM" if d.hour < 12 else "PM",
        "x": str(int(_epoch(d) * 1000)), "X": str(int(_epoch(d))),
        "WW": f"{iso[1]:02d}", "W": str(iso[1]),
        "ooo": f"{d.timetuple().tm_yday:03d}", "o": str(d.timetuple().tm_yday),
        "qq": f"{(d.month - 1) // 3 + 1:02d}", "q": str((d.month - 1) // 3 + 1),
        "Z": "+0", "ZZ": "+00:00", "ZZZ": "+0000", "ZZZZ": "UTC", "z": "UTC",
    }
    if tok in simple:
        return simple[tok]
    date_short = f"{d.month}/{d.day}/{d.year}"
    date_med = f"{_MONTHS[d.month][:3]} {d.day}, {d.year}"
    date_full = f"{_MONTHS[d.month]} {d.day}, {d.year}"
    date_huge = f"{_DAYS[d.weekday()]}, {date_full}"
    time = f"{_hour12(d)}:{d.minute:02d} {'AM' if d.hour < 12 else 'PM'}"
    time_s = f"{_hour12(d)}:{d.minute:02d}:{d.second:02d} {'AM' if d.hour < 12 else 'PM'}"
    macros = {
        "D": date_short, "DD": date_med, "DDD": date_full, "DDDD": date_huge,
        "t": time, "tt": time_s, "T": f"{d.hour:02d}:{d.minute:02d}",
        "TT": f"{d.hour:02d}:{d.minute:02d}:{d.second:02d}",
        "f": f"{date_short}, {time}", "ff": f"{date_med}, {time}",
        "fff": f"{date_full} at {time} UTC",
        "ffff": f"{date_huge} at {time} Coordinated Universal Time",
    }
    return macros[tok]


def _epoch(d: dt.datetime) -> float:
    return (d - dt.datetime(1970, 1, 1)).total_seconds()


_PARSE_TOKENS = {
    "yyyy": r"(?P<y>\d{4})", "yy": r"(?P<yy>\d{2})", "y": r"(?P<y>\d{1,4})",
    "MMMM": r"(?P<MMMM>[A-Za-z]+)", "MMM": r"(?P<MMM>[A-Za-z]{3})", "MM": r"(?P<M>\d{2})",
    "M": r"(?P<M>\d{1,2})", "LL": r"(?P<M>\d{2})", "L": r"(?P<M>\d{1,2})",
    "dd": r"(?P<d>\d{2})", "d": r"(?P<d>\d{1,2})",
    "HH": r"(?P<H>\d{2})", "H": r"(?P<H>\d{1,2})", "hh": r"(?P<h>\d{2})", "h": r"(?P<h>\d{1,2})",
    "mm": r"(?P<m>\d{2})", "m": r"(?P<m>\d{1,2})", "ss": r"(?P<s>\d{2})", "s": r"(?P<s>\d{1,2})",
    "SSS": r"(?P<S>\d{3})", "a": r"(?P<a>AM|PM|am|pm)",
    "x": r"(?P<x>-?\d+)", "X": r"(?P<X>-?\d+)",
    "EEEE": r"[A-Za-z]+", "EEE": r"[A-Za-z]{3}",
}
_PARSE_TOKEN = re.compile(r"'([^']*)'|(" + "|".join(
    sorted(_PARSE_TOKENS, key=len, reverse=True)) + ")")


def parse_with_format(text: str, fmt: str) -> dt.datetime | None:
    """``date(text, format)``: Luxon's common tokens; None when ``text`` does not fit."""
    pattern: list[str] = []
    pos = 0
    seen: set[str] = set()
    for m in _PARSE_TOKEN.finditer(fmt):
        pattern.append(re.escape(fmt[pos:m.start()]))
        pos = m.end()
        if m.group(1) is not None:
            pattern.append(re.escape(m.group(1) or "'"))
            continue
        piece = _PARSE_TOKENS[m.group(2)]
        name = re.match(r"\(\?P<(\w+)>", piece)
        if name and name.group(1) in seen:
            return None  # a token twice: not supported
        if name:
            seen.add(name.group(1))
        pattern.append(piece)
    pattern.append(re.escape(fmt[pos:]))
    found = re.fullmatch("".join(pattern), text.strip())
    if not found:
        return None
    g = found.groupdict()
    try:
        if g.get("x"):
            return dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=int(g["x"]))
        if g.get("X"):
            return dt.datetime(1970, 1, 1) + dt.timedelta(seconds=int(g["X"]))
        year = int(g["y"]) if g.get("y") else (2000 + int(g["yy"]) if g.get("yy") else 1970)
        month = int(g["M"]) if g.get("M") else 1
        for key, width in (("MMMM", None), ("MMM", 3)):
            if g.get(key):
                names = [n.lower()[:width] if width else n.lower() for n in _MONTHS[1:]]
                month = names.index(g[key].lower()) + 1
        hour = int(g["H"]) if g.get("H") else 0
        if g.get("h"):
            hour = int(g["h"]) % 12 + (12 if (g.get("a") or "").upper() == "PM" else 0)
        return dt.datetime(year, month, int(g["d"]) if g.get("d") else 1, hour,
                           int(g["m"]) if g.get("m") else 0, int(g["s"]) if g.get("s") else 0,
                           int(g["S"]) * 1000 if g.get("S") else 0)
    except (ValueError, OverflowError):
        return None


_DFMT = re.compile(r"'([^']*)'|(S+|s+|m+|h+|d+|w+|M+|y+)")
_DFMT_UNIT = {"y": "years", "M": "months", "w": "weeks", "d": "days", "h": "hours",
              "m": "minutes", "s": "seconds", "S": "milliseconds"}


def format_duration(dur: Duration, fmt: str) -> str:
    """``durationformat``: the tokens y M w d h m s S (repeated = zero-padded width),
    quoted text as is.  The duration is shifted to the units the format uses, the
    largest first, as Luxon's ``toFormat`` does."""
    units = [_DFMT_UNIT[m.group(2)[0]] for m in _DFMT.finditer(fmt) if m.group(2)]
    values = _shift(dur, set(units))
    out: list[str] = []
    pos = 0
    for m in _DFMT.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        if m.group(1) is not None:
            out.append(m.group(1))
            continue
        tok = m.group(2)
        value = values[_DFMT_UNIT[tok[0]]]
        out.append(("-" if value < 0 else "") + str(abs(value)).zfill(len(tok)))
    out.append(fmt[pos:])
    return "".join(out)


def _shift(dur: Duration, targets: set[str]) -> dict[str, int]:
    """The duration in the ``targets`` units only, largest first, converting as
    Luxon's casual matrix does (a year is 12 months or 365 days, a month 30 days)."""
    from .values import _MS

    sign = -1 if dur.total_ms() < 0 else 1
    cal = abs(dur.years * 12 + dur.months)  # months
    fixed = abs(dur.total_ms() - (dur.years * _MS["years"] + dur.months * _MS["months"]))
    if "years" not in targets and "months" not in targets:
        fixed += (cal // 12) * _MS["years"] + (cal % 12) * _MS["months"]
        cal = 0
    values: dict[str, int] = {}
    for unit in sorted(targets, key=lambda u: -_MS[u]):
        value = 0
        if unit == "years":
            value = int(cal // 12)
            cal -= value * 12
            if "months" not in targets:
                fixed += cal * _MS["months"]
                cal = 0
        elif unit == "months":
            value = int(cal)
            cal = 0
        extra = int(fixed // _MS[unit])
        fixed -= extra * _MS[unit]
        values[unit] = sign * (value + extra)
    return values


def date_only(date: dt.datetime) -> dt.datetime:
    return dt.datetime(date.year, date.month, date.day)

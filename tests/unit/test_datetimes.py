"""``codecs.datetimes``: the one reader of dates and durations of Bases, Dataview and
the inline fields, its per-language differences explicit options."""

from __future__ import annotations

import datetime as dt

from beliefbase.bases.dates import parse_date, parse_duration
from beliefbase.codecs.datetimes import (
    BASES_DATES,
    BASES_DURATIONS,
    DATAVIEW_DATES,
    DATAVIEW_DURATIONS,
    UNIT_OF,
    parse_datetime,
    parse_duration_parts,
)
from beliefbase.codecs.field_values import parse_iso
from beliefbase.dataview.dates import parse_duration as dv_duration
from hypothesis import given
from hypothesis import strategies as st

BOTH = (BASES_DATES, DATAVIEW_DATES)
moments = st.datetimes(min_value=dt.datetime(1000, 1, 1), max_value=dt.datetime(9998, 12, 31))
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60)


def _offset(minutes: int) -> str:
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


@given(moments, st.sampled_from(["T", " "]))
def test_a_written_moment_reads_back(moment: dt.datetime, sep: str) -> None:
    moment = moment.replace(microsecond=moment.microsecond // 1000 * 1000)
    text = moment.strftime(f"%Y-%m-%d{sep}%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
    for syntax in BOTH:
        assert parse_datetime(text, syntax) == (moment, True)
    day = moment.strftime("%Y-%m-%d")
    for syntax in BOTH:
        assert parse_datetime(day, syntax) == (
            dt.datetime(moment.year, moment.month, moment.day), False)


@given(moments, offsets)
def test_an_offset_is_the_one_documented_difference(moment: dt.datetime, minutes: int) -> None:
    """Dataview keeps the time written in its offset; Bases reads the moment, in UTC."""
    moment = moment.replace(microsecond=0)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S") + _offset(minutes)
    assert parse_datetime(text, DATAVIEW_DATES) == (moment, True)
    assert parse_datetime(text, BASES_DATES) == (moment - dt.timedelta(minutes=minutes), True)
    assert parse_datetime(text[:-6] + "Z", BASES_DATES) == (moment, True)
    assert parse_iso(text) == moment  # the inline fields read as Dataview does
    bases = parse_date(text)
    assert bases is not None and bases.dt == moment - dt.timedelta(minutes=minutes)


@given(st.text(max_size=40))
def test_any_text_is_a_date_or_none(text: str) -> None:
    for syntax in BOTH:
        found = parse_datetime(text, syntax)
        assert found is None or (isinstance(found[0], dt.datetime) and found[0].tzinfo is None)


def test_the_options_as_documented() -> None:
    assert parse_datetime("2021-04", DATAVIEW_DATES) == (dt.datetime(2021, 4, 1), False)
    assert parse_datetime("2021-04", BASES_DATES) is None
    assert parse_datetime("2021-4-8 9:05", BASES_DATES) == (dt.datetime(2021, 4, 8, 9, 5), True)
    assert parse_datetime("2021-4-8 9:05", DATAVIEW_DATES) is None
    assert parse_duration_parts("1M", BASES_DURATIONS) == [("months", 1.0)]
    assert parse_duration_parts("1M", DATAVIEW_DURATIONS) == [("minutes", 1.0)]
    assert parse_duration("1M") is not None and parse_duration("1M").months == 1
    assert dv_duration("1M") is not None and dv_duration("1M").minutes == 1


units = st.sampled_from(sorted(UNIT_OF))
amounts = st.integers(min_value=-999, max_value=999)


@given(st.lists(st.tuples(amounts, units), min_size=1, max_size=5),
       st.sampled_from([" ", ", ", ""]), st.sampled_from(["", " "]))
def test_a_written_duration_reads_back(parts: list[tuple[int, str]], sep: str,
                                       gap: str) -> None:
    text = sep.join(f"{n}{gap}{name}" for n, name in parts)
    if not sep and not gap:
        return  # "1m2s" still reads, but "1ms" is one unit: not a round trip
    for syntax in (BASES_DURATIONS, DATAVIEW_DURATIONS):
        assert parse_duration_parts(text, syntax) == [(UNIT_OF[name], float(n))
                                                      for n, name in parts]


@given(st.text(max_size=30))
def test_any_text_is_a_duration_or_none(text: str) -> None:
    for syntax in (BASES_DURATIONS, DATAVIEW_DURATIONS):
        found = parse_duration_parts(text, syntax)
        assert found is None or all(unit in UNIT_OF.values() for unit, _ in found)
    parse_duration(text)
    dv_duration(text)

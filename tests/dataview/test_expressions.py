"""Expression semantics (docs/docs/reference/expressions.md, literals.md): null,
truthiness, comparison across types, date and duration arithmetic."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from beliefbase.dataview import Duration, evaluate_inline

from .vaults import NOW, build_index, page

INDEX = build_index([page("a.md", "", {"n": 5, "s": "text", "d": dt.date(2021, 1, 31),
                                       "list": [1, 2], "obj": {"k": {"deep": 1}}})])
D = dt.datetime


def ev(expr: str) -> Any:
    return evaluate_inline(expr, INDEX, "a.md", now=NOW)


@pytest.mark.parametrize(("expr", "value"), [
    # arithmetic and precedence
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("7 % 3", 1), ("7 / 2", 3.5), ("-n + 1", -4),
    ("1 / 0", math.inf), ("n - 1", 4), ("10 - 2 - 3", 5),
    # null
    ("missing + 1", None), ("missing * 2", None), ("missing = null", True),
    ("missing < 0", True), ('"a" + missing', "a-"), ("!missing", True),
    # truthiness and logic
    ("!0", True), ('!""', True), ("![]", True), ("!{}", True), ("!dur(0 s)", True),
    ("!date(today)", False), ("0 or 2", True), ("1 and 0", False), ("true & false", False),
    ("false | true", True),
    # comparison
    ('"a" < "b"', True), ('"a" = "A"', False), ('"apple" < "Banana"', True),
    ("1 < \"a\"", True), ("null < false", True), ("[1, 2] < [1, 3]", True),
    ("[1, 2] = list(1, 2)", True), ("{a: 1} = object(\"a\", 1)", True),
    ("[[a]] = file.link", True), ("date(2021-01-01) < date(2021-01-02)", True),
    ("dur(1 hour) = dur(60 minutes)", True), ("dur(1 day) > dur(23 h)", True),
    # dates and durations
    ("d + dur(1 month)", D(2021, 2, 28)), ("d - dur(1 year)", D(2020, 1, 31)),
    # a calendar difference (Jan 31 + 1 month is Feb 28), and .days counts a month
    # as 30 days, as Luxon's casual conversion does
    ("date(2021-03-01) - d", Duration(months=1, days=1)),
    ("(date(2021-03-01) - d).days", 31), ("(date(2021-02-20) - d).days", 20),
    ("dur(1 day 6 hours).hours", 30),
    ("dur(2 days) * 2", Duration(days=4)), ("dur(1 h) + dur(30 m)", Duration(hours=1,
                                                                          minutes=30)),
    ("date(today) + dur(1 d)", D(2022, 11, 24)), ("date(tomorrow)", D(2022, 11, 24)),
    ("date(yesterday)", D(2022, 11, 22)), ("date(sow)", D(2022, 11, 21)),
    ("date(eow)", D(2022, 11, 27, 23, 59, 59, 999000)), ("date(som)", D(2022, 11, 1)),
    ("date(eom)", D(2022, 11, 30, 23, 59, 59, 999000)), ("date(soy)", D(2022, 1, 1)),
    ("date(eoy)", D(2022, 12, 31, 23, 59, 59, 999000)), ("date(now)", NOW),
    ("date(2021-09-20T20:17).hour", 20), ("d.month", 1), ("d.week", 4),
    ("d.weekyear", 2021), ("d.year", 2021),
    # access
    ('obj.k.deep', 1), ('obj["k"]["deep"]', 1), ("list[1]", 2), ("list[5]", None),
    ('row["n"]', 5), ("this.n", 5), ("file.name", "a"), ('"abc".length', 3),
    ("[1, 2, 3][0]", 1), ("[[a]].s", "text"), ("list.missing", (None, None)),
    # text
    ('"a" + 1', "a1"), ('1 + "a"', "1a"), ('"x" + date(2021-01-02)', "xJanuary 02, 2021"),
    ('"⭐" * 3', "⭐⭐⭐"), ("[1] + [2]", (1, 2)), ('"tab\\there"', "tab\there"),
    ('"quote \\" in"', 'quote " in'), (r'"\d+"', r"\d+"),
])
def test_expression(expr: str, value: Any) -> None:
    got = ev(expr)
    assert got == value and (type(got) is type(value) or value is None or
                             isinstance(value, int | float) and isinstance(got, int | float))

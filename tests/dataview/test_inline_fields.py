"""Inline fields (docs/docs/annotation/add-metadata.md, types-of-metadata.md),
list items and tasks, and their reading-view HTML."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from beliefbase.codecs.mask import code_regions
from beliefbase.dataview import (
    Duration,
    Link,
    extract_inline_fields,
    extract_items,
    format_html,
    parse_inline_value,
    render_inline_field,
    sanitize_key,
)
from hypothesis import given, settings
from hypothesis import strategies as st

FIELDS = [
    # (body, [(key, sanitized, value, style, line, column)])
    ("Basic Field:: Some random Value", [("Basic Field", "basic-field", "Some random Value",
                                          "line", 1, 1)]),
    ("**Bold Field**:: Nice!", [("Bold Field", "bold-field", "Nice!", "line", 1, 1)]),
    ("I would rate this a [rating:: 9]! It was [mood:: acceptable].",
     [("rating", "rating", 9, "bracket", 1, 21), ("mood", "mood", "acceptable", "bracket", 1, 42)]),
    ("- [ ] Send an mail to David about the deadline [due:: 2022-04-05].",
     [("due", "due", dt.datetime(2022, 4, 5), "bracket", 1, 48)]),
    ("This will not show the (longKeyIDontNeedWhenReading:: key).",
     [("longKeyIDontNeedWhenReading", "longkeyidontneedwhenreading", "key", "paren", 1, 24)]),
    ("Noël:: Un jeu de console", [("Noël", "noël", "Un jeu de console", "line", 1, 1)]),
    ("[🎅:: a console game]", [("🎅", "🎅", "a console game", "bracket", 1, 1)]),
    ("x\n  Indented Key:: 5", [("Indented Key", "indented-key", 5, "line", 2, 3)]),
    ("[link:: [[Some Page|Shown]]] and (n:: (1))",
     [("link", "link", Link("Some Page", "Shown"), "bracket", 1, 1),
      ("n", "n", "(1)", "paren", 1, 34)]),
    ("[Hello!:: 1]", [("Hello!", "hello", 1, "bracket", 1, 1)]),
    ("> Quoted Key:: 3", [("Quoted Key", "quoted-key", 3, "line", 1, 3)]),
    ("# Heading:: yes", [("Heading", "heading", "yes", "line", 1, 3)]),
    ("std::vector is great", [("std", "std", "vector is great", "line", 1, 1)]),
    ("(a:: x\\) y)", [("a", "a", "x\\) y", "paren", 1, 1)]),
    # not fields
    ("- list item:: value", []),
    ("`code:: x` and ``[a:: b]``", []),
    ("```\nkey:: value\n```", []),
    ("~~~md\n[a:: b]\n~~~", []),
    ("$x [a:: b] y$ and $$\nk:: v\n$$", []),
    ("<!-- k:: v -->", []),
    ("[[Wiki:: link]]", []),
    ("no field here: just a colon", []),
    ("Hello!:: 1", []),
    ("see this. Then:: no", []),
    ("🎅:: needs brackets", []),
]


@pytest.mark.parametrize(("body", "expected"), FIELDS, ids=[b[:30] for b, _ in FIELDS])
def test_inline_fields(body: str, expected: list[tuple[Any, ...]]) -> None:
    got = [(f.key, f.sanitized, f.value, f.style, f.line, f.column)
           for f in extract_inline_fields(body)]
    assert got == expected


def test_first_line_offsets_lines() -> None:
    (f,) = extract_inline_fields("\n\nkey:: v", first_line=5)
    assert (f.line, f.column) == (7, 1)


VALUES = [
    ("6", 6), ("2.4", 2.4), ("-80", -80), ("true", True), ("false", False),
    ("2021-04-18", dt.datetime(2021, 4, 18)),
    ("2021-04-18T04:19:35.000", dt.datetime(2021, 4, 18, 4, 19, 35)),
    ("2021-04-18T04:19:35.000+06:30", dt.datetime(2021, 4, 18, 4, 19, 35)),
    ("2021-04", dt.datetime(2021, 4, 1)),
    ("7 hours", Duration(hours=7)), ("4min", Duration(minutes=4)), ("16 days", Duration(days=16)),
    ("9 years, 8 months, 4 days, 16 hours, 2 minutes",
     Duration(years=9, months=8, days=4, hours=16, minutes=2)),
    ("9 yrs 8 min", Duration(years=9, minutes=8)), ("6hr4min", Duration(hours=6, minutes=4)),
    ("[[A Page]]", Link("A Page")), ("[[Some Other Page|Render Text]]",
                                     Link("Some Other Page", "Render Text")),
    ("1, 2, 3", (1, 2, 3)), ('"yes", "or", "no"', ("yes", "or", "no")),
    ("[[A]], [[B]]", (Link("A"), Link("B"))),
    ("This is some normal text.", "This is some normal text."),
    ("apples, pears", "apples, pears"), ("", None), ('"quoted"', "quoted"),
    ("2021-13-45", "2021-13-45"), ("12 monkeys", "12 monkeys"),
]


@pytest.mark.parametrize(("raw", "value"), VALUES, ids=[v[0] or "empty" for v in VALUES])
def test_value_types(raw: str, value: Any) -> None:
    got = parse_inline_value(raw)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(("key", "twin"), [
    ("Basic Field", "basic-field"), ("**Bold Field**", "bold-field"), ("rating", "rating"),
    ("this is a field", "this-is-a-field"), ("Hello!", "hello"), ("someMetaData", "somemetadata"),
    ("_italic_ key", "italic-key"),
])
def test_sanitized_key(key: str, twin: str) -> None:
    assert sanitize_key(key) == twin


def test_reading_view_html() -> None:
    bracket, paren = extract_inline_fields("[Mood:: <b>ok</b>] (hidden:: 2021-08-15)")
    attrs = 'data-dv-key="Mood" data-dv-norm-key="mood"'
    assert render_inline_field(bracket, format_html) == (
        f'<span class="dataview inline-field"><span class="dataview inline-field-key" {attrs}>'
        f'Mood</span><span class="dataview inline-field-value" {attrs}>&lt;b&gt;ok&lt;/b&gt;'
        "</span></span>")
    assert render_inline_field(paren, format_html) == (
        '<span class="dataview inline-field"><span class="dataview '
        'inline-field-standalone-value" data-dv-key="hidden" data-dv-norm-key="hidden">'
        '<span class="dataview-date">August 15, 2021</span></span></span>')
    (key,) = extract_inline_fields('[<i>k</i>":: v]')
    html = render_inline_field(key, format_html) or ""
    assert "&lt;i&gt;" in html and 'data-dv-key="&lt;i&gt;k&lt;/i&gt;&quot;"' in html
    (line,) = extract_inline_fields("Key:: value")
    assert render_inline_field(line, format_html) is None


def test_tasks_and_lists() -> None:
    body = ("# Plan\n- [ ] parent [due:: 2022-01-01] #home\n\t- [x] child 📅 2022-02-02 ^blk\n"
            "\t  continued\n- plain [[Note]]\n1. numbered\n")
    roots = extract_items(body, first_line=10)
    assert [r.text for r in roots] == ["parent [due:: 2022-01-01] #home", "plain [[Note]]",
                                       "numbered"]
    parent = roots[0]
    assert (parent.task, parent.status, parent.line, parent.section) == (True, " ", 11, "Plan")
    assert parent.tags == ("#home",) and [f.key for f in parent.fields] == ["due"]
    (child,) = parent.children
    assert (child.completed, child.parent, child.block_id, child.line_count) == (
        True, 11, "blk", 2)
    assert child.shorthands == (("due", dt.datetime(2022, 2, 2)),)
    assert not parent.fully_completed and roots[1].outlinks == ("Note",)
    assert not roots[1].task and roots[1].status is None


def test_no_items_in_code() -> None:
    assert extract_items("```\n- [ ] no\n```\ntext\n\n    - [ ] indented code\n") == ()


_TEXT = st.text(alphabet=st.sampled_from(list("ab :[]()`$~*-#>|\n\t=x!")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_fields_never_raise_nor_come_from_code(body: str) -> None:
    fields = extract_inline_fields(body)
    extract_items(body)
    regions = code_regions(body)
    lines = body.split("\n")
    for f in fields:
        assert not any(start <= f.start < end for start, end in regions)
        assert body[f.start:f.end].count("::") >= 1
        assert lines[f.line - 1][f.column - 1:] == body[f.start:f.start + len(
            lines[f.line - 1]) - f.column + 1]

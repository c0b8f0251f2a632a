"""DQL errors: a ``DataviewError`` with the line and column of the fault, and
never another exception, whatever the input."""

from __future__ import annotations

import contextlib

import pytest
from beliefbase.dataview import DataviewError, evaluate_inline, parse_query, run
from hypothesis import given, settings
from hypothesis import strategies as st

from . import vaults
from .vaults import NOW

INDEX = vaults.games()

SYNTAX = [
    ("", 1, 1, "empty query"),
    ("TABLE WHERE", 1, 12, "ends too early"),
    ("LIST\nWHERE (a", 2, 9, "ends too early"),
    ("LIST\nFROM #x\nWHERE a ++ b", 3, 10, "unexpected '+'"),
    ("FOO", 1, 1, "unexpected 'FOO'"),
    ("LIST WHERE $x", 1, 12, "unexpected character '$'"),
    ("LIST WHERE date(2021-13-45)", 1, 12, "not a valid date"),
    ("LIST WHERE dur(3 lightyears) > 1", 1, 12, "not a valid duration"),
    ("LIST\n  SORT", 2, 7, "ends too early"),
    ("TABLE a AS", 1, 11, "ends too early"),
    ("LIST FROM", 1, 10, "ends too early"),
    ("LIST FROM #a WHERE x FROM #b", 1, 22, "unexpected 'FROM'"),
    ('LIST WHERE "unterminated', 1, 12, "unexpected character"),
    ("TASK file.name", 1, 6, "unexpected 'file'"),
    ("LIST " + "(" * 300 + "1" + ")" * 300, 1, 6 + 200, "nested too deeply"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), SYNTAX,
                         ids=[s[0][:25] or "empty" for s in SYNTAX])
def test_syntax_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(DataviewError) as info:
        parse_query(text)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert message in err.message
    assert str(err).startswith(f"{line}:{column}: ")


EVALUATION = [
    ("LIST WHERE nosuch(1)", 1, 12, "unknown function 'nosuch'"),
    ("TABLE true + 1", 1, 7, "cannot add boolean and number"),
    ("LIST\nWHERE date(today) * 2", 2, 7, "cannot multiply date and number"),
    ('LIST LIMIT "five"', 1, 6, "LIMIT needs a number"),
    ("LIST WHERE -true", 1, 12, "cannot negate a boolean"),
    ('TABLE lower(3)', 1, 7, "lower() expects text"),
    ('TABLE regextest("(", "a")', 1, 7, "not a valid regular expression"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), EVALUATION,
                         ids=[e[0][:25] for e in EVALUATION])
def test_evaluation_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(DataviewError) as info:
        run(text, INDEX, None, now=NOW)
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message


def test_a_failing_row_is_dropped_when_others_pass() -> None:
    # steamid + 1 fails only where steamid is text
    index = vaults.build_index([vaults.page("a.md", "", {"n": 1}),
                                vaults.page("b.md", "", {"n": True})])
    result = run("TABLE n + 1", index, None, now=NOW)
    assert [r.values for r in result.rows] == [(2,)]


def test_inline_expression_errors() -> None:
    with pytest.raises(DataviewError) as info:
        evaluate_inline("1 +", INDEX, None, now=NOW)
    assert (info.value.line, info.value.column) == (1, 4)


_DQL_WORDS = st.sampled_from([
    "TABLE", "LIST", "TASK", "CALENDAR", "WITHOUT", "ID", "FROM", "WHERE", "SORT", "GROUP",
    "BY", "FLATTEN", "LIMIT", "AS", "ASC", "DESC", "and", "or", "#tag", '"folder"', "[[x]]",
    "outgoing(", "(", ")", "[", "]", "{", "}", ",", ".", "=", "!=", "<", ">=", "+", "-", "*",
    "/", "%", "!", "=>", "(x) =>", "date(today)", "dur(1 day)", "file.name", "rows", "key",
    "this", "row", "1", "2.5", "null", "true", '"s"', "length(", "map(", "\n", ":", "&", "|",
    "date(", "dur(", "'", "\\", "`", "$", "0", "-1", "x",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(_DQL_WORDS, max_size=25).map(" ".join))
def test_parser_raises_only_dataview_errors_on_dql_like_text(text: str) -> None:
    try:
        run(text, INDEX, "Dashboard.md", now=NOW)
    except DataviewError as err:
        assert err.line >= 0 and err.column >= 0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_parser_raises_only_dataview_errors_on_any_text(text: str) -> None:
    with contextlib.suppress(DataviewError):
        parse_query(text)


def test_error_located_in_the_file() -> None:
    with pytest.raises(DataviewError) as info:
        parse_query("LIST\nWHERE (a")
    assert info.value.located(first_line=12) == (13, 9)
    assert info.value.located(first_line=12, indent=4) == (13, 13)
    assert DataviewError("no place").located(7) == (7, 1)

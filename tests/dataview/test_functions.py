"""One test per function of Dataview's function reference, with the examples of
that reference (docs/docs/reference/functions.md) as cases."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from beliefbase.dataview import DataviewError, Duration, ExternalLink, Link, evaluate_inline
from beliefbase.dataview.functions import FUNCTIONS

from . import vaults
from .vaults import NOW

INDEX = vaults.build_index([
    vaults.page("Hello.md", "", {"values": [2, 3, 4], "operand": "*", "ctime_field": 1},
                ctime=dt.datetime(2022, 1, 5, 12, 18, 4)),
    vaults.page("2021-04-16.md", ""),
    vaults.page("My Project.md", "- [ ] a [due:: 2022-03-01]\n- [ ] b [due:: 2022-01-01]\n"),
])


def ev(expr: str, this: str | None = "Hello.md") -> Any:
    return evaluate_inline(expr, INDEX, this, now=NOW)


D = dt.datetime
CASES: dict[str, list[tuple[str, Any]]] = {
    "object": [('object()', {}), ('object("a", 6)', {"a": 6}),
               ('object("a", 4, "c", "yes")', {"a": 4, "c": "yes"})],
    "list": [("list()", ()), ("list(1, 2, 3)", (1, 2, 3))],
    "array": [('array("a", "b", "c")', ("a", "b", "c"))],
    "date": [('date("2020-04-18")', D(2020, 4, 18)), ("date([[2021-04-16]])", D(2021, 4, 16)),
             ('date("12/31/2022", "MM/dd/yyyy")', D(2022, 12, 31)),
             ('date("210313", "yyMMdd")', D(2021, 3, 13)),
             ('date("946778645000", "x")', D(2000, 1, 2, 2, 4, 5)),
             ('date("nonsense")', None), ("date(null)", None), ('date("today")', D(2022, 11, 23))],
    "dur": [("dur(8 minutes)", Duration(minutes=8)),
            ('dur("8 minutes, 4 seconds")', Duration(minutes=8, seconds=4)),
            ("dur(dur(8 minutes))", Duration(minutes=8)), ('dur("soon")', None)],
    "number": [('number("18 years")', 18), ("number(34)", 34), ('number("hmm")', None),
               ('number("-2.5 degrees")', -2.5)],
    "string": [("string(18)", "18"), ("string(dur(8 hours))", "8 hours"),
               ("string(date(2021-08-15))", "August 15, 2021"), ("string(null)", "-")],
    "link": [('link("Hello")', Link("Hello.md")),
             ('link("Hello", "Goodbye")', Link("Hello.md", "Goodbye")),
             ('link("Nowhere")', Link("Nowhere"))],
    "embed": [('embed(link("Hello.png"))', Link("Hello.png", embed=True)),
              ('embed(link("Hello.png"), false)', Link("Hello.png"))],
    "elink": [('elink("www.google.com")', ExternalLink("www.google.com")),
              ('elink("www.google.com", "Google")', ExternalLink("www.google.com", "Google"))],
    "typeof": [("typeof(8)", "number"), ('typeof("text")', "string"),
               ("typeof([1, 2, 3])", "array"), ("typeof({ a: 1, b: 2 })", "object"),
               ("typeof(date(2020-01-01))", "date"), ("typeof(dur(8 minutes))", "duration"),
               ("typeof(null)", "null"), ("typeof(true)", "boolean"),
               ("typeof([[Hello]])", "link"), ("typeof((x) => x)", "function")],
    "round": [("round(16.555555)", 17), ("round(16.555555, 2)", 16.56), ("round(-2.5)", -2),
              ("round([1.4, 1.6])", (1, 2))],
    "trunc": [("trunc(12.937)", 12), ("trunc(-93.33333)", -93), ("trunc(-0.837764)", 0)],
    "floor": [("floor(12.937)", 12), ("floor(-93.33333)", -94), ("floor(-0.837764)", -1)],
    "ceil": [("ceil(12.937)", 13), ("ceil(-93.33333)", -93), ("ceil(-0.837764)", 0)],
    "min": [("min(1, 2, 3)", 1), ("min([1, 2, 3])", 1), ('min("a", "ab", "abc")', "a"),
            ("min([])", None)],
    "max": [("max(1, 2, 3)", 3), ("max([1, 2, 3])", 3), ('max("a", "ab", "abc")', "abc")],
    "sum": [("sum([1, 2, 3])", 6), ("sum([])", None), ("sum(nonnull([null, 1, 8]))", 9),
            ("sum([dur(1 day), dur(2 days)])", Duration(days=3))],
    "product": [("product([1,2,3])", 6), ("product([])", None),
                ("product(nonnull([null, 1, 2, 4]))", 8)],
    "reduce": [('reduce([100, 20, 3], "-")', 77), ('reduce([200, 10, 2], "/")', 10),
               ('reduce(values, "*")', 24), ("reduce(values, this.operand)", 24),
               ('reduce(["⭐", 3], "*")', "⭐⭐⭐"), ('reduce([1], "+")', 1),
               ('reduce([true, false], "&")', False), ('reduce([true, false], "|")', True),
               ("reduce([1, 2, 3], (a, b) => a + b)", 6)],
    "average": [("average([1, 2, 3])", 2), ("average([])", None),
                ("average(nonnull([null, 1, 2]))", 1.5)],
    "minby": [("minby([1, 2, 3], (k) => k)", 1), ("minby([1, 2, 3], (k) => 0 - k)", 3),
              ("minby([[My Project]].file.tasks, (k) => k.due).text", "b [due:: 2022-01-01]")],
    "maxby": [("maxby([1, 2, 3], (k) => k)", 3), ("maxby([1, 2, 3], (k) => 0 - k)", 1),
              ("maxby([[My Project]].file.tasks, (k) => k.due).text", "a [due:: 2022-03-01]")],
    "contains": [('contains("Hello", "Lo")', False), ('contains("Hello", "lo")', True),
                 ('contains(file, "ctime")', True), ('contains(file, "nope")', False),
                 ("contains(list(1, 2, 3), 3)", True), ("contains(list(), 1)", False),
                 ('contains("hello", "lo")', True), ('contains("yes", "no")', False),
                 ('contains(["this", "is", "example"], "ex")', True)],
    "icontains": [('icontains("Hello", "Lo")', True), ('icontains("Hello", "lo")', True),
                  ('icontains(["Apple"], "apple")', True)],
    "econtains": [('econtains("Hello", "Lo")', False), ('econtains("Hello", "lo")', True),
                  ('econtains(["this","is","example"], "ex")', False),
                  ('econtains(["this","is","example"], "is")', True),
                  ('econtains(["These", "are", "words"], "word")', False),
                  ('econtains(["These", "are", "words"], "words")', True),
                  ('econtains({key:"value", pairs:"here"}, "here")', False),
                  ('econtains({key:"value", pairs:"here"}, "key")', True),
                  ('econtains({key:"value", recur:{recurkey: "val"}}, "value")', False),
                  ('econtains({key:"value", recur:{recurkey: "val"}}, "Recur")', False),
                  ('econtains({key:"value", recur:{recurkey: "val"}}, "recurkey")', False)],
    "containsword": [('containsword("word", "word")', True),
                     ('containsword("word", "Word")', True),
                     ('containsword("words", "Word")', False),
                     ('containsword("Hello there!", "hello")', True),
                     ('containsword("Hello there!", "HeLLo")', True),
                     ('containsword("Hello there chaps!", "chap")', False),
                     ('containsword("Hello there chaps!", "chaps")', True),
                     ('containsword(["I have no words.", "words"], "Word")', (False, False)),
                     ('containsword(["word", "Words"], "Word")', (True, False)),
                     ('containsword(["Word", "Words in word"], "WORD")', (True, True))],
    "extract": [('extract(file, "name", "ext")', {"name": "Hello", "ext": "md"}),
                ('extract(object("test", 1))', {})],
    "sort": [("sort(list(3, 2, 1))", (1, 2, 3)), ('sort(list("a", "b", "aa"))', ("a", "aa", "b")),
             ("sort([3, 1, 2], (x) => 0 - x)", (3, 2, 1))],
    "reverse": [("reverse(list(1, 2, 3))", (3, 2, 1)),
                ('reverse(list("a", "b", "c"))', ("c", "b", "a"))],
    "length": [("length([])", 0), ("length([1, 2, 3])", 3),
               ('length(object("hello", 1, "goodbye", 2))', 2), ('length("abc")', 3),
               ("length(null)", 0)],
    "nonnull": [("nonnull([])", ()), ("nonnull([null, false])", (False,)),
                ("nonnull([1, 2, 3])", (1, 2, 3))],
    "firstvalue": [("firstvalue([null, 2, 3])", 2), ("firstvalue([null])", None)],
    "all": [("all([1, 2, 3])", True), ("all([true, false])", False), ("all(true, false)", False),
            ("all(true, true, true)", True), ("all([1, 2, 3], (x) => x > 0)", True),
            ("all([1, 2, 3], (x) => x > 1)", False),
            ('all(["apple", "pie", 3], (x) => typeof(x) = "string")', False)],
    "any": [("any(list(1, 2, 3))", True), ("any(list(true, false))", True),
            ("any(list(false, false, false))", False), ("any(true, false)", True),
            ("any(false, false)", False), ("any(list(1, 2, 3), (x) => x > 2)", True),
            ("any(list(1, 2, 3), (x) => x = 0)", False)],
    "none": [("none([])", True), ("none([false, false])", True), ("none([false, true])", False),
             ("none([1, 2, 3])", False), ("none([1, 2, 3], (x) => x = 0)", True),
             ("none([true, true], (x) => x = false)", True),
             ('none(["Apple", "Pi", "Banana"], (x) => startswith(x, "A"))', False)],
    "join": [("join(list(1, 2, 3))", "1, 2, 3"), ('join(list(1, 2, 3), " ")', "1 2 3"),
             ("join(6)", "6"), ("join(list())", "")],
    "filter": [("filter([1, 2, 3], (x) => x >= 2)", (2, 3)),
               ('filter(["yes", "no", "yas"], (x) => startswith(x, "y"))', ("yes", "yas"))],
    "map": [("map([1, 2, 3], (x) => x + 2)", (3, 4, 5)),
            ('map(["yes", "no"], (x) => x + "?")', ("yes?", "no?"))],
    "unique": [("unique([1, 3, 7, 3, 1])", (1, 3, 7)), ('unique(["a", "b", "a"])', ("a", "b"))],
    "flat": [("flat(list(1, 2, 3, list(4, 5), 6))", (1, 2, 3, 4, 5, 6)),
             ("flat(list(1, list(21, 22), list(list (311, 312, 313))), 4)",
              (1, 21, 22, 311, 312, 313))],
    "slice": [("slice([1, 2, 3, 4, 5], 3)", (4, 5)),
              ('slice(["ant", "bison", "camel", "duck", "elephant"], 0, 2)', ("ant", "bison")),
              ("slice([1, 2, 3, 4, 5], -2)", (4, 5)), ("slice([1, 2])", (1, 2))],
    "regextest": [('regextest("\\w+", "hello")', True), ('regextest(".", "a")', True),
                  ('regextest("yes|no", "maybe")', False),
                  ('regextest("what", "what\'s up dog?")', True)],
    "regexmatch": [('regexmatch("\\w+", "hello")', True), ('regexmatch(".", "a")', True),
                   ('regexmatch("yes|no", "maybe")', False),
                   ('regexmatch("what", "what\'s up dog?")', False)],
    "regexreplace": [('regexreplace("yes", "[ys]", "a")', "aea"),
                     ('regexreplace("Suite 1000", "\\d+", "-")', "Suite -"),
                     ('regexreplace("ab", "(a)(b)", "$2$1$$")', "ba$")],
    "replace": [('replace("what", "wh", "h")', "hat"),
                ('replace("The big dog chased the big cat.", "big", "small")',
                 "The small dog chased the small cat."),
                ('replace("test", "test", "no")', "no"),
                ('replace(["yes", "ree"], "e", "a")', ("yas", "raa"))],
    "lower": [('lower("Test")', "test"), ('lower("TEST")', "test"),
              ('lower(["YES", "NO"])', ("yes", "no"))],
    "upper": [('upper("Test")', "TEST"), ('upper("test")', "TEST")],
    "split": [('split("hello world", " ")', ("hello", "world")),
              ('split("hello  world", "\\s")', ("hello", "", "world")),
              ('split("hello there world", " ", 2)', ("hello", "there")),
              ('split("hello there world", "(t?here)")', ("hello ", "there", " world")),
              ('split("hello there world", "( )(x)?")',
               ("hello", " ", "", "there", " ", "", "world"))],
    "startswith": [('startswith("yes", "ye")', True),
                   ('startswith("path/to/something", "path/")', True),
                   ('startswith("yes", "no")', False)],
    "endswith": [('endswith("yes", "es")', True),
                 ('endswith("path/to/something", "something")', True),
                 ('endswith("yes", "ye")', False)],
    "padleft": [('padleft("hello", 7)', "  hello"), ('padleft("yes", 5, "!")', "!!yes")],
    "padright": [('padright("hello", 7)', "hello  "), ('padright("yes", 5, "!")', "yes!!")],
    "substring": [('substring("hello", 0, 2)', "he"), ('substring("hello", 2, 4)', "ll"),
                  ('substring("hello", 2)', "llo"), ('substring("hello", 0)', "hello")],
    "truncate": [('truncate("Hello there!", 8)', "Hello..."),
                 ('truncate("Hello there!", 8, "/")', "Hello t/"),
                 ('truncate("Hello there!", 10)', "Hello t..."),
                 ('truncate("Hello there!", 10, "!")', "Hello the!"),
                 ('truncate("Hello there!", 20)', "Hello there!")],
    "default": [('default(dateCompleted, "incomplete")', "incomplete"),
                ("default(list(1, 2, null), 3)", (1, 2, 3)), ("default(5, 3)", 5)],
    "ldefault": [("ldefault(list(1, 2, null), 3)", (1, 2, None)), ("ldefault(null, 3)", 3)],
    "choice": [('choice(true, "yes", "no")', "yes"), ('choice(false, "yes", "no")', "no"),
               ("choice(4 > 4, 1, 2)", 2)],
    "hash": [('hash("2024-03-17", "a") = hash("2024-03-17", "a")', True),
             ('hash("2024-03-17", "a") = hash("2024-03-17", "b")', False),
             ('typeof(hash("x", "y", 3))', "number")],
    "striptime": [("striptime(file.ctime) = file.cday", True),
                  ("striptime(date(2021-04-18T04:19:35))", D(2021, 4, 18))],
    "dateformat": [('dateformat(file.ctime, "yyyy-MM-dd")', "2022-01-05"),
                   ('dateformat(file.ctime, "HH:mm:ss")', "12:18:04"),
                   ('dateformat(date(2014-08-06T13:07:04.054), "x")', "1407330424054"),
                   ('dateformat(date(2014-08-06T13:07), "ffff")',
                    "Wednesday, August 6, 2014 at 1:07 PM Coordinated Universal Time"),
                   ('dateformat(date(2021-05-16), "MMMM dd, yyyy \'week\' W")',
                    "May 16, 2021 week 19")],
    "durationformat": [
        ('durationformat(dur("3 days 7 hours 43 seconds"), "ddd\'d\' hh\'h\' ss\'s\'")',
         "003d 07h 43s"),
        ('durationformat(dur("365 days 5 hours 49 minutes"), "yyyy ddd hh mm ss")',
         "0001 000 05 49 00"),
        # the reference writes "M months", but m, h and s there are tokens (Luxon)
        ('durationformat(dur("2000 years"), "M \'months\'")', "24000 months"),
        ('durationformat(dur("14d"), "s \'seconds\'")', "1209600 seconds")],
    "currencyformat": [('currencyformat(123456.789, "EUR")', "€123,456.79"),
                       ("currencyformat(5)", "$5.00"), ('currencyformat(1000, "JPY")', "¥1,000"),
                       ('currencyformat(-3.5, "CHF")', "-CHF\u00a03.50")],
    "localtime": [("localtime(date(2021-04-18T04:19))", D(2021, 4, 18, 4, 19))],
    "meta": [("meta([[2021-11-01|Displayed link text]]).display", "Displayed link text"),
             ("meta([[2021-11-01]]).display", None), ("meta(![[x]]).embed", True),
             ("meta([[My Project]]).path", "My Project.md"),
             ("meta([[My Project#Next Actions]]).path", "My Project.md"),
             ("meta([[My Project#^9bcbe8]]).path", "My Project.md"),
             ("meta([[My Project#Next Actions]]).subpath", "Next Actions"),
             ("meta([[My Project#^9bcbe8]]).subpath", "9bcbe8"),
             ("meta([[My Project]]).subpath", None), ("meta([[My Project]]).type", "file"),
             ("meta([[My Project#Next Actions]]).type", "header"),
             ("meta([[My Project#^9bcbe8]]).type", "block")],
    "display": [("display([[Hello|Hi there]])", "Hi there"), ('display("**bold**")', "bold"),
                ("display([[My Project]])", "My Project")],
}


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, float) and isinstance(got, float):
        return math.isclose(got, want)
    if isinstance(want, dict):
        return dict(got) == want
    return type(got) is type(want) and got == want if isinstance(want, bool) else got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_function(name: str) -> None:
    for expr, want in CASES[name]:
        got = ev(expr)
        assert _same(got, want), f"{expr} = {got!r}, expected {want!r}"


def test_every_function_is_tested() -> None:
    assert set(FUNCTIONS) == set(CASES)


@pytest.mark.parametrize("expr", [
    "round()", 'lower(1)', "sum(3)", "nosuchfn(1)", 'regextest("(", "x")',
    'object("a")', 'reduce([1, 2], "^")', "map([1], 3)", "striptime(3)",
])
def test_function_errors_are_dataview_errors(expr: str) -> None:
    with pytest.raises(DataviewError) as info:
        ev(expr)
    assert info.value.line == 1 and info.value.column >= 1

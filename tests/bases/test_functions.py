"""One test per function of Obsidian's Bases "Functions" page (and the fields of
each type); expected values worked out by hand from ``vault.py``."""

from __future__ import annotations

import datetime as dt

import pytest
from beliefbase.bases import Date, Duration, Html, Icon, Image, Link
from beliefbase.bases.errors import ExprError

from .vault import DUNE, EMMA, FRANK, TEXTBOOK, ev


def d(*parts: int, time: bool = False) -> Date:
    return Date(dt.datetime(*parts), time)  # type: ignore[arg-type]


# ---------------------------------------------------------------- global

def test_escape_html() -> None:
    assert ev('escapeHTML("<a href=\\"x\\">&</a>")') == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"


def test_date() -> None:
    assert ev('date("2025-05-27")') == d(2025, 5, 27)
    assert ev('date("2025-01-01 12:00:00")') == d(2025, 1, 1, 12, 0, time=True)
    assert ev('date("2025-01-01T12:30:00Z")').dt == dt.datetime(2025, 1, 1, 12, 30)
    assert ev("date(started)") == d(2025, 1, 10)
    with pytest.raises(ExprError):
        ev('date("not a date")')


def test_duration() -> None:
    assert ev('duration("1d")') == Duration(0, 86_400_000)
    assert ev('now() + (duration("1d") * 2)') == d(2025, 5, 29, 12, time=True)
    assert ev('duration("5h") * 2') == Duration(0, 36_000_000)
    assert ev('duration("1M")') == Duration(1, 0)


def test_file() -> None:
    assert ev('file("People/Frank Herbert.md")') is FRANK
    assert ev('file(link("[[Frank Herbert]]"))') is FRANK
    assert ev('file("Textbook").name') == "Textbook.md"
    assert ev('file("Nowhere")') is None


def test_html() -> None:
    assert ev('html("<b>x</b>")') == Html("<b>x</b>")


def test_if() -> None:
    assert ev('if(done, "Done", "Open")') == "Open"
    assert ev('if(price, "$" + price)') == "$10"
    assert ev('if(missing, "yes")') is None
    # the branch not taken is never evaluated
    assert ev('if(true, 1, date("bad"))') == 1
    from beliefbase.bases import make_record
    modified = make_record("M.md", {"isModified": True})
    assert ev('if(isModified, "Modified", "Unmodified")', modified) == "Modified"
    assert ev('if(isModified, "Modified", "Unmodified")') == "Unmodified"


def test_image() -> None:
    assert ev('image("https://obsidian.md/logo.svg")') == Image("https://obsidian.md/logo.svg")
    img = ev('image("[[cover.png]]")')
    assert img.link.path == "Assets/cover.png"


def test_icon() -> None:
    assert ev('icon("arrow-right")') == Icon("arrow-right")


def test_link() -> None:
    link = ev('link("Frank Herbert")')
    assert link == Link("Frank Herbert", None, "People/Frank Herbert.md")
    assert ev('link("Frank Herbert", "Frank")').display == "Frank"
    assert ev('link("https://obsidian.md")').path is None
    assert ev("link(file)").path == "Books/Dune.md"
    assert ev('link(file.ctime.date().toString())').target == "2024-12-01"


def test_list() -> None:
    assert ev('list("value")') == ("value",)
    assert ev("list(genres)") == ("scifi", "classic")
    assert ev("list(missing)") == ()


def test_max() -> None:
    assert ev("max(1, 7, 3)") == 7
    assert ev("max(price, pages, rating)") == 412


def test_min() -> None:
    assert ev("min(1, 7, 3)") == 1
    assert ev("min(price, pages, rating)") == 5


def test_now() -> None:
    assert ev("now()") == d(2025, 5, 27, 12, time=True)


def test_number() -> None:
    assert ev('number("3.4")') == 3.4
    assert ev("number(true)") == 1
    assert ev("number(false)") == 0
    assert ev('number(date("1970-01-02"))') == 86_400_000
    with pytest.raises(ExprError):
        ev('number("abc")')


def test_today() -> None:
    assert ev("today()") == d(2025, 5, 27)
    assert ev("today()").has_time is False


def test_random() -> None:
    first = ev("random()")
    assert 0 <= first < 1
    assert ev("random()") == first  # fixed per base and row: builds stay identical
    assert ev("random()", EMMA) != first


# ---------------------------------------------------------------- any

def test_is_truthy() -> None:
    assert ev("1.isTruthy()") is True
    assert ev("0.isTruthy()") is False
    assert ev('"".isTruthy()') is False
    assert ev("[].isTruthy()") is True  # JavaScript: every list is truthy
    assert ev("missing.isTruthy()") is False


def test_is_type() -> None:
    assert ev('"example".isType("string")') is True
    assert ev('true.isType("boolean")') is True
    assert ev('price.isType("number")') is True
    assert ev('started.isType("date")') is True
    assert ev('author.isType("link")') is True
    assert ev('genres.isType("list")') is True
    assert ev('series.isType("object")') is True
    assert ev('file.isType("file")') is True
    assert ev('missing.isType("null")') is True
    assert ev('price.isType("string")') is False


def test_to_string() -> None:
    assert ev("123.toString()") == "123"
    assert ev("(1.5).toString()") == "1.5"
    assert ev("true.toString()") == "true"
    assert ev("started.toString()") == "2025-01-10"
    assert ev("genres.toString()") == "scifi, classic"


# ---------------------------------------------------------------- date

def test_date_fields() -> None:
    assert ev('date("2025-05-27 14:05:09").year') == 2025
    assert ev('date("2025-05-27 14:05:09").month') == 5
    assert ev('date("2025-05-27 14:05:09").day') == 27
    assert ev('date("2025-05-27 14:05:09").hour') == 14
    assert ev('date("2025-05-27 14:05:09").minute') == 5
    assert ev('date("2025-05-27 14:05:09").second') == 9
    assert ev('date("2025-05-27 14:05:09.250").millisecond') == 250


def test_date_date() -> None:
    assert ev('now().date().format("YYYY-MM-DD HH:mm:ss")') == "2025-05-27 00:00:00"


def test_date_format() -> None:
    assert ev('date("2025-05-27").format("YYYY-MM-DD")') == "2025-05-27"
    assert ev('date("2025-05-27 14:05").format("dddd, MMMM Do YYYY [at] h:mm A")') == \
        "Tuesday, May 27th 2025 at 2:05 PM"
    assert ev('date("2025-01-03").format("ddd D MMM YY, [week] W, Q")') == \
        "Fri 3 Jan 25, week 1, 1"


def test_date_time() -> None:
    assert ev("now().time()") == "12:00:00"


def test_date_relative() -> None:
    assert ev("file.mtime.relative()") == "7 days ago"  # 2025-05-20 08:30 -> 27th 12:00
    assert ev('(now() + "2h").relative()') == "in 2 hours"
    assert ev('date("2024-05-27").relative()') == "a year ago"


def test_date_is_empty() -> None:
    assert ev("now().isEmpty()") is False


# ---------------------------------------------------------------- string

def test_string_length() -> None:
    assert ev('"hello".length') == 5


def test_string_contains() -> None:
    assert ev('"hello".contains("ell")') is True
    assert ev('"hello".contains("xyz")') is False


def test_string_contains_all() -> None:
    assert ev('"hello".containsAll("h", "e")') is True
    assert ev('"hello".containsAll("h", "x")') is False


def test_string_contains_any() -> None:
    assert ev('"hello".containsAny("x", "y", "e")') is True
    assert ev('"hello".containsAny("x", "y")') is False


def test_string_ends_with() -> None:
    assert ev('"hello".endsWith("lo")') is True


def test_string_is_empty() -> None:
    assert ev('"Hello world".isEmpty()') is False
    assert ev('"".isEmpty()') is True
    assert ev("missing.isEmpty()") is True


def test_string_lower() -> None:
    assert ev('"HeLLo".lower()') == "hello"


def test_string_replace() -> None:
    assert ev('"a,b,c,d".replace(/,/, "-")') == "a-b,c,d"
    assert ev('"a,b,c,d".replace(/,/g, "-")') == "a-b-c-d"
    assert ev('"a,b,c,d".replace(",", "-")') == "a-b-c-d"  # a string pattern: every one
    assert ev('"John Smith".replace(/(\\w+) (\\w+)/, "$2, $1")') == "Smith, John"


def test_string_repeat() -> None:
    assert ev('"123".repeat(2)') == "123123"


def test_string_reverse() -> None:
    assert ev('"hello".reverse()') == "olleh"


def test_string_slice() -> None:
    assert ev('"hello".slice(1, 4)') == "ell"
    assert ev('"hello".slice(1)') == "ello"
    assert ev('"hello".slice(-3)') == "llo"


def test_string_split() -> None:
    assert ev('"a,b,c,d".split(",", 3)') == ("a", "b", "c")
    assert ev('"a,b,c,d".split(/,/, 3)') == ("a", "b", "c")
    assert ev('"a, b".split(",")') == ("a", " b")


def test_string_starts_with() -> None:
    assert ev('"hello".startsWith("he")') is True


def test_string_title() -> None:
    assert ev('"hello world".title()') == "Hello World"


def test_string_trim() -> None:
    assert ev('"  hi  ".trim()') == "hi"


# ---------------------------------------------------------------- number

def test_number_abs() -> None:
    assert ev("(-5).abs()") == 5


def test_number_ceil() -> None:
    assert ev("(2.1).ceil()") == 3


def test_number_floor() -> None:
    assert ev("(2.9).floor()") == 2


def test_number_is_empty() -> None:
    assert ev("5.isEmpty()") is False


def test_number_round() -> None:
    assert ev("(2.5).round()") == 3
    assert ev("(2.3333).round(2)") == 2.33
    assert ev("(-2.5).round()") == -2  # JavaScript rounds halves up


def test_number_to_fixed() -> None:
    assert ev("(3.14159).toFixed(2)") == "3.14"
    assert ev("price.toFixed(2)") == "10.00"
    assert ev("(2.5).toFixed(0)") == "3"


# ---------------------------------------------------------------- list

def test_list_length() -> None:
    assert ev("[1, 2, 3].length") == 3
    assert ev("genres.length") == 2


def test_list_contains() -> None:
    assert ev("[1,2,3].contains(2)") is True
    assert ev('genres.contains("scifi")') is True
    assert ev('genres.contains("drama")') is False


def test_list_contains_all() -> None:
    assert ev("[1,2,3].containsAll(2,3)") is True
    assert ev("[1,2,3].containsAll(2,4)") is False


def test_list_contains_any() -> None:
    assert ev("[1,2,3].containsAny(3,4)") is True
    assert ev("[1,2,3].containsAny(4,5)") is False


def test_list_filter() -> None:
    assert ev("[1,2,3,4].filter(value > 2)") == (3, 4)
    assert ev("[5,6,7].filter(index != 1)") == (5, 7)


def test_list_flat() -> None:
    assert ev("[1,[2,3]].flat()") == (1, 2, 3)


def test_list_is_empty() -> None:
    assert ev("[1,2,3].isEmpty()") is False
    assert ev("[].isEmpty()") is True


def test_list_join() -> None:
    assert ev('[1,2,3].join(",")') == "1,2,3"
    assert ev('genres.join(" & ")') == "scifi & classic"


def test_list_map() -> None:
    assert ev("[1,2,3,4].map(value + 1)") == (2, 3, 4, 5)
    assert ev("[10,20].map(value * index)") == (0, 20)


def test_list_reduce() -> None:
    assert ev("[1,2,3].reduce(acc + value, 0)") == 6
    assert ev('[3, "x", 9, 4].filter(value.isType("number"))'
              '.reduce(if(acc == null || value > acc, value, acc), null)') == 9
    assert ev("[].reduce(acc + value, null)") is None


def test_list_reverse() -> None:
    assert ev("[1,2,3].reverse()") == (3, 2, 1)


def test_list_slice() -> None:
    assert ev("[1,2,3,4].slice(1,3)") == (2, 3)
    assert ev("[1,2,3,4].slice(2)") == (3, 4)


def test_list_sort() -> None:
    assert ev("[3, 1, 2].sort()") == (1, 2, 3)
    assert ev('["c", "a", "b"].sort()') == ("a", "b", "c")
    assert ev("[10, 9, 1].sort()") == (1, 9, 10)  # numerically, not as text


def test_list_unique() -> None:
    assert ev("[1,2,2,3].unique()") == (1, 2, 3)


def test_list_mean() -> None:
    # not on the Functions page, but the Bases syntax page's summary example uses it
    assert ev("[1, 2, 6].mean()") == 3


# ---------------------------------------------------------------- link

def test_link_as_file() -> None:
    assert ev('link("[[Frank Herbert]]").asFile()') is FRANK
    assert ev("author.asFile().name") == "Frank Herbert.md"
    assert ev('link("Nowhere").asFile()') is None


def test_link_links_to() -> None:
    assert ev('link("Frank Herbert").linksTo(file)') is True  # Frank links to Dune
    assert ev('link("Jane Austen").linksTo(file)') is False


# ---------------------------------------------------------------- file

def test_file_fields() -> None:
    assert ev("file.name") == "Dune.md"
    assert ev("file.basename") == "Dune"
    assert ev("file.path") == "Books/Dune.md"
    assert ev("file.folder") == "Books"
    assert ev("file.ext") == "md"
    assert ev("file.size") == 1200
    assert ev("file.ctime") == d(2024, 12, 1, 10, 0, time=True)
    assert ev("file.mtime") == d(2025, 5, 20, 8, 30, time=True)
    assert ev("file.tags") == ("book", "book/scifi")
    assert [link.target for link in ev("file.links")] == ["Frank Herbert", "Textbook"]
    assert [link.target for link in ev("file.embeds")] == ["cover.png"]
    assert [link.target for link in ev("file.backlinks")] == ["Frank Herbert"]
    assert ev("file.properties.price") == 10
    assert ev("file.file") is DUNE


def test_file_as_link() -> None:
    assert ev("file.asLink()") == Link("Books/Dune.md", None, "Books/Dune.md")
    assert ev('file.asLink("Read")').display == "Read"


def test_file_has_link() -> None:
    assert ev('file.hasLink("Textbook")') is True
    assert ev('file.hasLink(file("Required Reading/Textbook.md"))') is True
    assert ev('file.hasLink(link("Frank Herbert"))') is True
    assert ev('file.hasLink("Jane Austen")') is False
    assert ev("file.hasLink(this.file)", this=TEXTBOOK) is True


def test_file_has_property() -> None:
    assert ev('file.hasProperty("price")') is True
    assert ev('file.hasProperty("age")') is False


def test_file_has_tag() -> None:
    assert ev('file.hasTag("book")') is True
    assert ev('file.hasTag("scifi")') is False
    assert ev('file.hasTag("tag1", "book")') is True  # any of the tags
    assert ev('file.hasTag("#book")') is True
    assert ev('file.hasTag("book")', EMMA) is True
    assert ev('file.hasTag("book")', TEXTBOOK) is False
    # nested tags match their parents: Ubik is tagged book/scifi only
    assert ev('file("Books/Ubik.md").hasTag("book")') is True


def test_file_in_folder() -> None:
    assert ev('file.inFolder("Books")') is True
    assert ev('file.inFolder("Boo")') is False
    assert ev('file.inFolder("Required Reading")', TEXTBOOK) is True


# ---------------------------------------------------------------- object

def test_object_is_empty() -> None:
    assert ev("{}.isEmpty()") is True
    assert ev("series.isEmpty()") is False


def test_object_keys() -> None:
    assert ev("series.keys()") == ("name", "part")
    assert ev('{"a": 1, "b": 2}.keys()') == ("a", "b")


def test_object_values() -> None:
    assert ev('{"a": 1, "b": 2}.values()') == (1, 2)


# ---------------------------------------------------------------- regexp

def test_a_catastrophic_pattern_is_an_error_not_a_stall(monkeypatch: pytest.MonkeyPatch) -> None:
    """A base's regular expression runs under a time limit (a note's query is data):
    nested quantifiers over a long text end in an error, not a stalled build."""
    from beliefbase.bases import functions

    monkeypatch.setattr(functions, "REGEX_TIMEOUT", 0.01)  # (the limit, not the speed)
    text = '"' + "a" * 40 + '!"'
    for expr in (f"/(a|aa)+$/.matches({text})", f'{text}.replace(/(a|aa)+$/, "x")',
                 f"{text}.split(/(a|aa)+$/)"):
        with pytest.raises(ExprError, match="takes too long"):
            ev(expr)


def test_regexp_matches() -> None:
    assert ev('/abc/.matches("abcde")') is True
    assert ev('/^abc$/i.matches("ABC")') is True
    assert ev('/\\d{4}-\\d{2}-\\d{2}/.matches(file.basename)') is False
    assert ev('/^\\d{4}-\\d{2}-\\d{2}$/.matches("2025-05-26")') is True


def test_property_access_forms() -> None:
    from beliefbase.bases import make_record
    odd = make_record("Odd.md", {"x y": 1, "trueish": 2, "value": 3})
    assert ev('note["x y"]', odd) == 1
    assert ev("note.trueish + trueish", odd) == 4  # a name that starts like a keyword
    assert ev("value", odd) == 3  # outside list methods, value is a property
    assert ev("[10].map(value + note.value)", odd) == (13,)


def test_dates_kept_as_text_answer_date_methods() -> None:
    from beliefbase.bases import make_record
    quoted = make_record("Q.md", {"due": "2025-06-01", "site": "[Home](https://example.org)"})
    assert ev('due.format("DD/MM/YYYY")', quoted) == "01/06/2025"
    assert ev("due.year", quoted) == 2025
    assert ev("due < now()", quoted) is False  # compared as a date
    assert ev('due.contains("06")', quoted) is True  # still text for text methods
    assert ev("site", quoted) == Link("https://example.org", "Home")  # Markdown links too

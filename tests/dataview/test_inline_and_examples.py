"""Inline DQL (docs/docs/queries/dql-js-inline.md) and the query examples page
(docs/docs/resources/examples.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from beliefbase.dataview import (
    DataviewError,
    Duration,
    Link,
    build_index,
    evaluate_inline,
    format_html,
    run,
)

from .vaults import NOW, page

INDEX = build_index([
    page("Notes/Current.md", "Due:: 2022-12-25\nsteps:: 12000\n", {"someMetadataField": "x"},
         mtime=dt.datetime(2022, 11, 20, 23, 6)),
    page("secondPage.md", "", {"someMetadataField": "y"}, mtime=dt.datetime(2021, 8, 7, 22, 58)),
    page("exams.md", "", {"deadline": dt.date(2023, 1, 28)}),
    page("Computer Science Theory.md", "", {"due": dt.date(2022, 12, 1)}),
    page("2022-11-23.md", "- [ ] one\n- [x] two\n- [ ] three\n"),
    page("games/Outer Wilds.md", "time-played:: November 19th - 21st, 2020\nlength:: 15h\n"
         "rating:: 9.5\n#games", {"summary": "space"}),
    page("games/Minecraft.md", "time-played:: All the time.\nlength:: 2000h\nrating:: 9.5\n"
         "#games"),
    page("games/Pillars of Eternity 2.md", "time-played:: August - October 2019\n"
         "length:: 100h\nrating:: 9\n#games/crpg"),
    page("books/Atomic Habits.md", "", mtime=dt.datetime(2021, 8, 7, 23, 6)),
    page("books/Deep Work.md", "", mtime=dt.datetime(2021, 8, 7, 22, 52)),
    page("2021-08-07.md"), page("2020-08-10.md"),
])


def inline(expr: str) -> object:
    return evaluate_inline(expr, INDEX, "Notes/Current.md", now=NOW)


@pytest.mark.parametrize(("expr", "value"), [
    ("this.file.name", "Current"),
    ("this.file.mtime", dt.datetime(2022, 11, 20, 23, 6)),
    ("this.someMetadataField", "x"),
    ("[[secondPage]].file.name", "secondPage"),
    ("[[secondPage]].file.mtime", dt.datetime(2021, 8, 7, 22, 58)),
    ("[[secondPage]].someMetadataField", "y"),
    ("date(today)", dt.datetime(2022, 11, 23)),
    ("[[exams]].deadline - date(today)", Duration(months=2, days=5)),
    ("this.due - date(today)", Duration(months=1, days=2)),
    ("[[Computer Science Theory]].due - date(today)", Duration(weeks=1, days=1)),
    ('choice(this.steps > 10000, "YES!", "**No**, get moving!")', "YES!"),
    ('length(filter(link(dateformat(date(today), "yyyy-MM-dd")).file.tasks, (t) => '
     "!t.completed))", 2),
    ('choice(date(today).weekday > 5, "Take it easy!", "Time to get work done!")',
     "Time to get work done!"),
    ("file.name", "Current"),
])
def test_inline_dql(expr: str, value: object) -> None:
    assert inline(expr) == value


def test_inline_sentence_renders() -> None:
    assert format_html(inline("date(today)")) == (
        '<span class="dataview-date">November 23, 2022</span>')
    assert format_html(inline("[[exams]].deadline - date(today)")) == (
        '<span class="dataview-duration">2 months, 5 days</span>')


def test_inline_query_commands_are_errors() -> None:
    with pytest.raises(DataviewError):
        inline("LIST FROM #games")


def test_dql_block_of_the_inline_page() -> None:
    r = run('TABLE rating AS "Rating", summary AS "Summary" FROM #games\nSORT rating DESC',
            INDEX, None, now=NOW)
    assert [(row.id.file_name(), row.values) for row in r.rows] == [
        ("Minecraft", (9.5, None)), ("Outer Wilds", (9.5, "space")),
        ("Pillars of Eternity 2", (9, None))]


def test_example_games_by_rating() -> None:
    r = run('TABLE\n  time-played AS "Time Played",\n  length AS "Length",\n'
            '  rating AS "Rating"\nFROM "games"\nSORT rating DESC', INDEX, None, now=NOW)
    assert r.headers == ("File", "Time Played", "Length", "Rating")
    assert r.rows[1].values == ("November 19th - 21st, 2020", Duration(hours=15), 9.5)
    assert r.rows[2].values[1] == Duration(hours=100)


def test_example_books_by_mtime() -> None:
    r = run('TABLE file.mtime AS "Last Modified"\nFROM "books"\nSORT file.mtime DESC',
            INDEX, None, now=NOW)
    assert [format_html(row.values[0]) for row in r.rows] == [
        '<span class="dataview-date">11:06 PM - August 07, 2021</span>',
        '<span class="dataview-date">10:52 PM - August 07, 2021</span>']


def test_example_daily_notes_by_day() -> None:
    r = run("LIST file.day WHERE file.day\nSORT file.day DESC", INDEX, None, now=NOW)
    assert [(row.id, row.values[0]) for row in r.rows] == [
        (Link("2022-11-23.md"), dt.datetime(2022, 11, 23)),
        (Link("2021-08-07.md"), dt.datetime(2021, 8, 7)),
        (Link("2020-08-10.md"), dt.datetime(2020, 8, 10))]


def test_example_srandom_is_not_a_dataview_function() -> None:
    with pytest.raises(DataviewError) as info:
        run('LIST\nFLATTEN srandom(dateformat(date(today), "yyyy-MM-dd")) as randomValue\n'
            "SORT randomValue\nLIMIT 3", INDEX, None, now=NOW)
    assert (info.value.line, info.value.column) == (2, 9)
    # the documented way to a daily, stable shuffle
    r = run('LIST\nSORT hash(dateformat(date(today), "yyyy-MM-dd"), file.name)\nLIMIT 3',
            INDEX, None, now=NOW)
    assert len(r.rows) == 3

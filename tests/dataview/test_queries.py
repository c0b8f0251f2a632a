"""Every example of Dataview's query documentation that needs no JavaScript,
run on the vaults of ``vaults.py``; expected results worked out by hand.

Where the docs show an order, ours may differ: Dataview gives none without
SORT, and we give path order."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from beliefbase.dataview import DataviewResult, Duration, Link, run

from . import vaults
from .vaults import NOW


def q(text: str, index: Any, this: str | None = None) -> DataviewResult:
    return run(text, index, this, now=NOW)


def names(result: DataviewResult) -> list[str]:
    return [r.id.file_name() if isinstance(r.id, Link) else r.id for r in result.rows]


def task_texts(result: DataviewResult) -> list[list[str]]:
    return [[e.item.text for e in g.tasks] for g in result.tasks]


GAMES = vaults.games()
ALL_GAMES = ["Classic Cheesecake", "How to fix Git Cheatsheet", "Git Basics", "Dashboard",
             "League of Legends", "Pillars of Eternity 2", "Stardew Valley"]


# -- query-types.md: LIST ------------------------------------------------------------

def test_list_all_pages() -> None:
    r = q("LIST", GAMES)
    assert r.kind == "list" and names(r) == ALL_GAMES
    assert all(row.values == () for row in r.rows)


def test_list_from_tags_or() -> None:
    assert names(q("LIST\nFROM #games/moba OR #games/crpg", GAMES)) == [
        "League of Legends", "Pillars of Eternity 2"]


def test_list_additional_information() -> None:
    r = q("LIST file.folder", GAMES)
    assert [row.values[0] for row in r.rows] == [
        "Baking/Recipes", "Coding/Cheatsheets", "Coding", "", "Games", "Games",
        "Games/finished"]


def test_list_computed_value() -> None:
    r = q('LIST "File Path: " + file.folder + " _(created: " + file.cday + ")_"\nFROM "Games"',
          GAMES)
    assert [row.values[0] for row in r.rows] == [
        "File Path: Games _(created: May 13, 2021)_",
        "File Path: Games _(created: February 02, 2022)_",
        "File Path: Games/finished _(created: April 04, 2021)_",
    ]


def test_list_group_by_shows_keys() -> None:
    r = q("LIST\nGROUP BY type", GAMES)
    assert r.grouped and names(r) == ["game", "knowledge", "moc", "recipe", "summary"]


def test_list_rows_file_link_group_by() -> None:
    r = q("LIST rows.file.link\nGROUP BY type", GAMES)
    game = r.rows[0]
    assert game.id == "game"
    assert [link.file_name() for link in game.values[0]] == [
        "League of Legends", "Pillars of Eternity 2", "Stardew Valley"]
    assert [len(row.values[0]) for row in r.rows] == [3, 1, 1, 1, 1]


def test_list_without_id_no_expression_is_list() -> None:
    r = q("LIST WITHOUT ID", GAMES)
    assert r.show_id and names(r) == ALL_GAMES


def test_list_without_id_type() -> None:
    r = q("LIST WITHOUT ID type", GAMES)
    assert not r.show_id
    assert [row.values[0] for row in r.rows] == [
        "recipe", "summary", "knowledge", "moc", "game", "game", "game"]


def test_list_without_id_computed_per_group() -> None:
    r = q('LIST WITHOUT ID length(rows) + " pages of type " + key\nGROUP BY type', GAMES)
    assert [row.values[0] for row in r.rows] == [
        "3 pages of type game", "1 pages of type knowledge", "1 pages of type moc",
        "1 pages of type recipe", "1 pages of type summary"]


# -- query-types.md: TABLE -----------------------------------------------------------

def test_table_no_columns() -> None:
    r = q("TABLE", GAMES)
    assert r.headers == ("File",) and r.count == 7 and names(r) == ALL_GAMES


def test_table_columns() -> None:
    r = q("TABLE started, file.folder, file.etags\nFROM #games", GAMES)
    assert r.headers == ("File", "started", "file.folder", "file.etags")
    assert [row.values for row in r.rows] == [
        (dt.datetime(2021, 5, 16), "Games", ("#games/moba",)),
        (dt.datetime(2022, 4, 21), "Games", ("#games/crpg",)),
        (dt.datetime(2021, 4, 4), "Games/finished", ("#games/simulation",)),
    ]


def test_table_custom_headers() -> None:
    r = q('TABLE started, file.folder AS Path, file.etags AS "File Tags"\nFROM #games', GAMES)
    assert r.headers == ("File", "started", "Path", "File Tags")


def test_table_played_for() -> None:
    r = q('TABLE\ndefault(finished, date(today)) - started AS "Played for",\n'
          'file.folder AS Path,\nfile.etags AS "File Tags"\nFROM #games', GAMES)
    assert [row.values[0].human() for row in r.rows] == [
        "1 year, 6 months, 1 week", "7 months, 2 days", "4 months, 3 weeks, 3 days"]


def test_table_without_id() -> None:
    r = q('TABLE WITHOUT ID\nsteamid,\nfile.etags AS "File Tags"\nFROM #games', GAMES)
    assert r.headers == ("steamid", "File Tags") and not r.show_id
    assert [row.values[0] for row in r.rows] == [None, 560130, 413150]


def test_table_without_id_renamed_first_column() -> None:
    r = q('TABLE WITHOUT ID\nfile.link AS "Game",\nfile.etags AS "File Tags"\nFROM #games', GAMES)
    assert r.headers == ("Game", "File Tags")
    assert [row.values[0].file_name() for row in r.rows] == [
        "League of Legends", "Pillars of Eternity 2", "Stardew Valley"]


# -- query-types.md: TASK ------------------------------------------------------------

TASKS = vaults.tasks()


def test_task_all() -> None:
    r = q("TASK", TASKS)
    assert r.kind == "task" and r.count == 6
    assert task_texts(r) == [["Finish the math assignment", "Buy new shoes #shopping",
                              "Mail Paul about training schedule", "Hand in physics",
                              "Get new pillows for mom #shopping",
                              "Buy some working pencils #shopping"]]
    assert len(r.tasks[0].tasks[0].item.children) == 4


def test_task_where_shopping() -> None:
    r = q('TASK\nWHERE !completed AND contains(tags, "#shopping")', TASKS)
    assert task_texts(r) == [["Buy new shoes #shopping", "Get new pillows for mom #shopping"]]


def test_task_group_by_file() -> None:
    r = q("TASK\nWHERE !completed\nGROUP BY file.link", TASKS)
    assert [g.key.file_name() for g in r.tasks] == ["2022-07-30", "2022-09-21", "2022-09-27"]
    assert [len(g.tasks) for g in r.tasks] == [1, 2, 1]


CHORES = vaults.chores()


def test_child_tasks_come_with_parent() -> None:
    r = q("TASK", CHORES)
    assert task_texts(r) == [["clean up the house", "Call the insurance about the car",
                              "Find out the transaction number"]]
    assert [c.text for c in r.tasks[0].tasks[0].item.children] == [
        "kitchen", "living room", "Bedroom [urgent:: true]"]


def test_child_tasks_where_not_completed() -> None:
    r = q("TASK\nWHERE !completed", CHORES)
    assert task_texts(r) == [["clean up the house", "Call the insurance about the car"]]
    assert "living room" in [c.text for c in r.tasks[0].tasks[0].item.children]


def test_child_task_alone_when_parent_fails() -> None:
    assert task_texts(q("TASK\nWHERE urgent", CHORES)) == [["Bedroom [urgent:: true]"]]


# -- query-types.md: CALENDAR ----------------------------------------------------------

def test_calendar_is_a_list_by_date() -> None:
    r = q("CALENDAR file.ctime", GAMES)
    assert r.kind == "calendar" and r.note
    assert [row.values[0] for row in r.rows][:2] == [dt.datetime(2021, 1, 1, 8, 0)] * 2
    assert names(r)[-1] == "Pillars of Eternity 2"


def test_calendar_where_typeof_date() -> None:
    r = q('CALENDAR started\nWHERE typeof(started) = "date"', GAMES)
    assert names(r) == ["Stardew Valley", "League of Legends", "Pillars of Eternity 2"]


# -- data-commands.md -----------------------------------------------------------------

MISC = vaults.misc()


def test_where_modified_last_day() -> None:
    assert names(q("LIST WHERE file.mtime >= date(today) - dur(1 day)", MISC)) == ["Alpha"]


def test_where_projects_not_completed_month_old() -> None:
    r = q("LIST FROM #projects\nWHERE !completed AND file.ctime <= date(today) - dur(1 month)",
          MISC)
    assert names(r) == ["Alpha"]


def test_sort_several_keys() -> None:
    r = q("LIST FROM #LiteratureNote SORT length(authors) DESC, file.name ASC", MISC)
    assert names(r) == ["steg2018 SN", "smith2007 SN", "Soap Dragons SN"]


def test_flatten_authors() -> None:
    r = q("TABLE authors FROM #LiteratureNote\nFLATTEN authors", MISC)
    assert [(i, v[0]) for i, v in zip(names(r), (row.values for row in r.rows), strict=True)] == [
        ("Soap Dragons SN", "Robert Lamb"), ("Soap Dragons SN", "Joe McCormick"),
        ("smith2007 SN", "Jonathan A. Smith"), ("smith2007 SN", "Mike Osborn"),
        ("steg2018 SN", "Steg, L."), ("steg2018 SN", "Van den Berg, A. E."),
        ("steg2018 SN", "De Groot, J. I. M."),
    ]


def test_flatten_tasks_as_t() -> None:
    r = q('table T.text as "Task Text"\nfrom "Scratchpad"\nflatten file.tasks as T\nwhere T.text',
          MISC)
    assert r.headers == ("File", "Task Text")
    assert [row.values[0] for row in r.rows] == ["alpha", "beta"]


def test_filter_tasks_text() -> None:
    r = q('table filter(file.tasks.text, (t) => t) as "Task Text"\nfrom "Scratchpad"\n'
          "where file.tasks.text", MISC)
    assert [row.values[0] for row in r.rows] == [("alpha", "beta")]


def test_limit_then_sort_runs_in_order() -> None:
    # path order first (code points: "Soap" before "smith"), then the two sorted
    r = q("LIST FROM #LiteratureNote\nLIMIT 2\nSORT file.name DESC", MISC)
    assert names(r) == ["Soap Dragons SN", "smith2007 SN"]


# -- structure.md ---------------------------------------------------------------------

def test_from_folder_recursive() -> None:
    assert names(q('LIST\nFROM "Books"', MISC)) == ["Dune", "Emma"]


def test_from_subtags_or() -> None:
    assert names(q("LIST\nFROM #status/open OR #status/wip", MISC)) == ["Dune", "Emma"]
    assert names(q("LIST FROM #status", MISC)) == ["Dune", "Emma", "Other"]


def test_from_combined_sources() -> None:
    r = q('LIST\nFROM (#assignment AND "30 School") OR ("30 School/32 Homeworks" AND '
          "outgoing([[School Dashboard Current To Dos]]))", MISC)
    assert names(r) == ["HW1", "Essay"]


def test_where_due_before_today() -> None:
    assert names(q("LIST\nWHERE due AND due < date(today)", MISC)) == ["Dune"]


def test_sort_ctime_desc_limit() -> None:
    r = q("LIST\nFROM #status/open OR #status/wip\nSORT file.ctime DESC\nLIMIT 10", MISC)
    assert names(r) == ["Emma", "Dune"]


def test_task_sort_limit_group_sort() -> None:
    r = q("TASK\nWHERE !completed\nSORT created ASC\nLIMIT 10\nGROUP BY file.link\n"
          "SORT rows.file.ctime DESC", TASKS)
    assert [g.key.file_name() for g in r.tasks] == ["2022-09-27", "2022-09-21", "2022-07-30"]


def test_table_recipes() -> None:
    r = q('TABLE recipe-type AS "type", portions, length\nFROM #recipes', MISC)
    assert r.headers == ("File", "type", "portions", "length")
    assert r.rows[0].values == ("breakfast", 4, "30 minutes")


def test_list_assignments_open() -> None:
    assert names(q('LIST\nFROM #assignments\nWHERE status = "open"', MISC)) == ["Essay"]


def test_table_nested_fields() -> None:
    r = q('TABLE file.ctime, appointment.type, appointment.time, follow-ups\n'
          'FROM "30 Protocols/32 Management"\nWHERE follow-ups\nSORT appointment.time', MISC)
    assert names(r) == ["P2", "P1"]
    assert r.rows[0].values[1:] == ("visit", dt.datetime(2022, 4, 1, 9, 0), 2)


def test_flatten_lists_where_author() -> None:
    r = q('TABLE L.text AS "My lists"\nFROM "dailys"\nFLATTEN file.lists AS L\n'
          'WHERE contains(L.author, "Surname")', MISC)
    assert [row.values[0] for row in r.rows] == ["met [author:: Jane Surname]"]


def test_contacts_flatten_and_sort_through_links() -> None:
    r = q('LIST rows.c\nWHERE typeof(contacts) = "array" AND contains(contacts, [[Mr. L]])\n'
          "SORT length(contacts)\nFLATTEN contacts as c\nSORT link(c).age ASC", MISC)
    assert names(r) == ["M1", "M2", "M1"]
    assert [row.values for row in r.rows] == [(None,)] * 3


# -- literals.md, sources.md ----------------------------------------------------------

def test_literal_number_in_comparison() -> None:
    assert names(q("LIST\nWHERE file.day.year = 2022", TASKS)) == [
        "2022-07-30", "2022-09-21", "2022-09-27"]


def test_literal_text_in_function() -> None:
    assert names(q('LIST\nWHERE contains(file.name, "Math")', MISC)) == ["Math MOC"]


def test_literal_link_as_source() -> None:
    assert names(q("LIST\nFROM [[Study MOC]]", MISC)) == ["Math MOC"]


def test_literal_yesterday() -> None:
    day = vaults.build_index([vaults.page("2022-11-22.md", "- [ ] old\n- [x] done\n")])
    r = q("TASK\nWHERE !completed AND file.day = date(yesterday)", day)
    assert task_texts(r) == [["old"]]


def test_literal_duration_comparison() -> None:
    assert names(q("LIST\nWHERE end - start > dur(2 days)", MISC)) == ["Trip"]


def test_current_note_source() -> None:
    assert names(q("LIST FROM [[]]", MISC, "Study MOC.md")) == ["Math MOC"]
    assert names(q("LIST FROM outgoing([[]])", MISC, "Study/Math MOC.md")) == ["Study MOC"]


def test_negated_sources() -> None:
    assert names(q('LIST FROM #status and -"Books2"', MISC)) == ["Dune", "Emma"]
    assert names(q('LIST FROM #projects and !#status', MISC)) == ["Alpha", "Beta", "Gamma"]


def test_single_file_source() -> None:
    assert names(q('LIST FROM "Books/Dune"', MISC)) == ["Dune"]
    assert names(q('LIST FROM "Books/Dune.md"', MISC)) == ["Dune"]


# -- annotation docs ------------------------------------------------------------------

def test_metadata_pages_movie_example() -> None:
    r = q("TABLE file.ctime, length, rating, reviewed\nFROM #movies", MISC)
    assert r.rows[0].values == (dt.datetime(2022, 6, 1, 20, 15), Duration(hours=2), 6, False)


def test_frontmatter_object_field() -> None:
    assert names(q("LIST\nWHERE thoughts.rating = 8", MISC)) == ["Document"]


def test_frontmatter_date_string_is_a_date() -> None:
    r = q('TABLE last-reviewed FROM "Reviews"', MISC)
    assert r.rows[0].values == (dt.datetime(2021, 8, 17),)


def test_task_shorthand_and_field_completion() -> None:
    r = q('TASK\nWHERE completion = date("2021-08-22")', MISC)
    assert task_texts(r) == [["Completed last saturday ✅2021-08-22",
                              "Some Done Task [completion:: 2021-08-22]"]]


def test_task_not_fully_completed() -> None:
    r = q("TASK\nWHERE !fullyCompleted", TASKS)
    assert task_texts(r)[0][0] == "Finish the math assignment"


def test_list_any_task_unfinished() -> None:
    r = q("LIST\nWHERE any(file.tasks, (t) => !t.fullyCompleted)", TASKS)
    assert names(r) == ["2022-07-30", "2022-09-21", "2022-09-27"]


def test_inline_field_keys_and_twins() -> None:
    r = q("TABLE Thoughts, thoughts, Rating, rating, mood FROM #movies", MISC)
    assert r.rows[0].values == ("It was decent.", "It was decent.", 6, 6, "okay")


# -- expressions.md -------------------------------------------------------------------

def test_row_index_for_keyword_field() -> None:
    index = vaults.build_index([vaults.page("a.md", "", {"where": "here", "my key": 3})])
    r = q('TABLE row["where"], row["my key"], my-key', index)
    assert r.rows[0].values == ("here", 3, 3)


def test_link_index_through_page() -> None:
    r = q("LIST WITHOUT ID [[Mr. L]].age", MISC)
    assert r.rows[0].values == (40,)


def test_group_by_as_name_and_swizzle() -> None:
    r = q('TABLE length(rows) AS n, rows.file.name AS names FROM "People" OR "Meetings" '
          "GROUP BY file.folder AS folder SORT folder DESC", MISC)
    assert r.headers == ("Group", "n", "names")
    assert [(row.id, row.values[0]) for row in r.rows] == [("People", 2), ("Meetings", 3)]


def test_this_is_the_note_holding_the_query() -> None:
    r = q('LIST WHERE age > this.age FROM "People"'.replace(' FROM "People"', ""), MISC,
          "People/Ms. K.md")
    assert names(r) == ["Mr. L"]


def test_results_are_deterministic() -> None:
    first = q("TABLE file.name, type GROUP BY type", GAMES)
    assert first == q("TABLE file.name, type GROUP BY type", GAMES)
    assert first == run("TABLE file.name, type GROUP BY type", list(GAMES.records), None,
                        now=NOW)


@pytest.mark.parametrize("text", [
    "list from #games", "LiSt FrOm #games", "LIST\n  FROM #games\n",
])
def test_keywords_case_insensitive(text: str) -> None:
    assert names(q(text, GAMES)) == ["League of Legends", "Pillars of Eternity 2",
                                     "Stardew Valley"]


def test_links_resolve_by_name_path_and_partial_path() -> None:
    index = vaults.build_index([
        vaults.page("a/b/Target.md"), vaults.page("z/Target.md"),
        vaults.page("src.md", "[[b/Target]] [[Target]] [[z/Target.md]] [[a/b/Target]]")])
    (row,) = q('TABLE file.outlinks FROM "src"', index).rows
    assert [link.path for link in row.values[0]] == ["a/b/Target.md", "z/Target.md"]


def test_empty_link_is_the_current_note() -> None:
    r = q("LIST WHERE contains(file.outlinks, [[]])", MISC, "Study MOC.md")
    assert names(r) == ["Math MOC"]
    r = q("LIST WITHOUT ID [[]]", MISC, "Study MOC.md")
    assert r.rows[0].values == (Link("Study MOC.md"),)


def test_sort_function_as_first_column() -> None:
    # "sort(" is the function; "SORT (" with a space the command
    r = q('TABLE sort(authors) FROM #LiteratureNote SORT (file.name) DESC LIMIT 1', MISC)
    assert r.headers == ("File", "sort(authors)")
    assert r.rows[0].values == (("De Groot, J. I. M.", "Steg, L.", "Van den Berg, A. E."),)

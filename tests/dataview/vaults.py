"""Small vaults built from the examples of Dataview's documentation
(docs/docs/queries/*.md, annotation/*.md), so the expected results of each
documented query can be worked out by hand."""

from __future__ import annotations

import datetime as dt
import textwrap
from typing import Any

from beliefbase.dataview import DataviewIndex, PageRecord, build_index, record_from_markdown

#: "today" in every test (the docs' "Played for" column is computed on this day)
NOW = dt.datetime(2022, 11, 23, 9, 30)


def page(path: str, body: str = "", meta: dict[str, Any] | None = None, *,
         ctime: dt.datetime | None = None, mtime: dt.datetime | None = None) -> PageRecord:
    return record_from_markdown(path, textwrap.dedent(body), meta or {},
                                ctime=ctime or dt.datetime(2021, 1, 1, 8, 0),
                                mtime=mtime or dt.datetime(2021, 1, 2, 8, 0))


def games() -> DataviewIndex:
    """query-types.md: seven pages of five types."""
    return build_index([
        page("Baking/Recipes/Classic Cheesecake.md", "A cake.", {"type": "recipe"}),
        page("Coding/Git Basics.md", "", {"type": "knowledge"}),
        page("Coding/Cheatsheets/How to fix Git Cheatsheet.md", "", {"type": "summary"}),
        page("Games/League of Legends.md", "#games/moba", {"type": "game",
             "started": dt.date(2021, 5, 16)}, ctime=dt.datetime(2021, 5, 13, 10, 0)),
        page("Games/Pillars of Eternity 2.md", "#games/crpg", {
            "type": "game", "started": dt.date(2022, 4, 21), "steamid": 560130},
            ctime=dt.datetime(2022, 2, 2, 18, 0)),
        page("Games/finished/Stardew Valley.md", "#games/simulation", {
            "type": "game", "started": dt.date(2021, 4, 4), "finished": dt.date(2021, 8, 28),
            "steamid": 413150}, ctime=dt.datetime(2021, 4, 4, 7, 0)),
        page("Dashboard.md", "", {"type": "moc"}),
    ])


def tasks() -> DataviewIndex:
    """query-types.md, TASK: three daily notes."""
    return build_index([
        page("Daily/2022-07-30.md", """\
            - [ ] Finish the math assignment
                - [x] Finish Paper 1 [due:: 2022-08-13]
                - [ ] Read again through chapter 3 [due:: 2022-09-01]
                - [x] Write a cheatsheet [due:: 2022-08-02]
                - [ ] Write a summary of chapter 1-4 [due:: 2022-09-12]
            """, ctime=dt.datetime(2022, 7, 30, 8, 0)),
        page("Daily/2022-09-21.md", """\
            - [ ] Buy new shoes #shopping
            - [ ] Mail Paul about training schedule
            - [x] Hand in physics
            """, ctime=dt.datetime(2022, 9, 21, 8, 0)),
        page("Daily/2022-09-27.md", """\
            - [ ] Get new pillows for mom #shopping
            - [x] Buy some working pencils #shopping
            """, ctime=dt.datetime(2022, 9, 27, 8, 0)),
    ])


def chores() -> DataviewIndex:
    """query-types.md, "Child Tasks"."""
    return build_index([
        page("Chores.md", """\
            - [ ] clean up the house
            \t- [ ] kitchen
            \t- [x] living room
            \t- [ ] Bedroom [urgent:: true]
            - [ ] Call the insurance about the car
            - [x] Find out the transaction number
            """),
    ])


def misc() -> DataviewIndex:
    """structure.md, data-commands.md, literals.md, metadata-*.md."""
    return build_index([
        page("Books/Dune.md", "#status/open", {"due": dt.date(2022, 11, 1)},
             ctime=dt.datetime(2022, 1, 10)),
        page("Books/Sub/Emma.md", "#status/wip", {"due": dt.date(2022, 12, 24)},
             ctime=dt.datetime(2022, 3, 1)),
        page("Books2/Other.md", "#status/done", ctime=dt.datetime(2022, 2, 1)),
        page("30 School/Essay.md", "#assignment #assignments", {"status": "open"}),
        page("30 School/32 Homeworks/HW1.md", "#assignments", {"status": "done"}),
        page("30 School/32 Homeworks/HW2.md", ""),
        page("School Dashboard Current To Dos.md", "Do [[HW1]] first."),
        page("Projects/Alpha.md", "#projects", {"completed": False},
             ctime=dt.datetime(2022, 9, 1), mtime=dt.datetime(2022, 11, 22, 18, 0)),
        page("Projects/Beta.md", "#projects", {"completed": True},
             ctime=dt.datetime(2022, 1, 1)),
        page("Projects/Gamma.md", "#projects", {"completed": False},
             ctime=dt.datetime(2022, 11, 1)),
        page("Lit/steg2018 SN.md", "#LiteratureNote", {
            "authors": ["Steg, L.", "Van den Berg, A. E.", "De Groot, J. I. M."]}),
        page("Lit/Soap Dragons SN.md", "#LiteratureNote", {
            "authors": ["Robert Lamb", "Joe McCormick"]}),
        page("Lit/smith2007 SN.md", "#LiteratureNote", {
            "authors": ["Jonathan A. Smith", "Mike Osborn"]}),
        page("Scratchpad/Todo.md", "- [ ] alpha\n- [x] beta\n"),
        page("People/Mr. L.md", "", {"age": 40}),
        page("People/Ms. K.md", "", {"age": 30}),
        page("Meetings/M1.md", "", {"contacts": ["[[Mr. L]]", "[[Ms. K]]"]}),
        page("Meetings/M2.md", "", {"contacts": ["[[Mr. L]]"]}),
        page("Meetings/M3.md", "", {"contacts": "[[Ms. K]]"}),
        page("Recipes/Pancakes.md", "#recipes", {"recipe-type": "breakfast", "portions": 4,
                                                 "length": "30 minutes"}),
        page("30 Protocols/32 Management/P1.md", "", {
            "appointment": {"type": "call", "time": dt.datetime(2022, 5, 1, 10, 0)},
            "follow-ups": "yes"}, ctime=dt.datetime(2022, 5, 1)),
        page("30 Protocols/32 Management/P2.md", "", {
            "appointment": {"type": "visit", "time": dt.datetime(2022, 4, 1, 9, 0)},
            "follow-ups": 2}, ctime=dt.datetime(2022, 4, 1)),
        page("30 Protocols/32 Management/P3.md", "", {
            "appointment": {"type": "mail", "time": dt.datetime(2022, 3, 1, 9, 0)}}),
        page("dailys/2022-10-01.md", "- met [author:: Jane Surname]\n- other [author:: Bob]\n"),
        page("Movies/Movie X.md", """\
            # Movie X
            #movies

            **Thoughts**:: It was decent.
            **Rating**:: 6

            [mood:: okay] | [length:: 2 hours]
            """, {"genre": "action", "reviewed": False}, ctime=dt.datetime(2022, 6, 1, 20, 15)),
        page("Reviews/Document.md", "", {"alias": "document", "last-reviewed": "2021-08-17",
                                         "thoughts": {"rating": 8, "reviewable": False}}),
        page("Trips/Trip.md", "", {"start": dt.date(2022, 3, 1), "end": dt.date(2022, 3, 5)}),
        page("Trips/Day trip.md", "", {"start": dt.date(2022, 4, 1), "end": dt.date(2022, 4, 2)}),
        page("Study/Math MOC.md", "[[Study MOC]]"),
        page("Study MOC.md", ""),
        page("Tasks/Done.md", """\
            - [x] Completed last saturday ✅2021-08-22
            - [x] Some Done Task [completion:: 2021-08-22]
            - [x] Another one [completion:: 2021-08-23]
            """),
    ])

"""A small vault of records for the Bases tests; every expected value in the tests
is worked out by hand from these."""

from __future__ import annotations

import datetime as dt
from typing import Any

from beliefbase.bases import FileRecord, RecordSet, evaluate_expression, make_record

#: The moment ``now()`` means in every test: Tuesday 27 May 2025, 12:00:00.
NOW = dt.datetime(2025, 5, 27, 12, 0, 0)

DUNE = make_record(
    "Books/Dune.md",
    {"author": "[[Frank Herbert]]", "price": 10, "pages": 412, "status": "reading",
     "rating": 5, "done": False, "started": dt.date(2025, 1, 10),
     "genres": ["scifi", "classic"], "series": {"name": "Dune", "part": 1}},
    size=1200, ctime=dt.datetime(2024, 12, 1, 10, 0), mtime=dt.datetime(2025, 5, 20, 8, 30),
    tags=["book", "book/scifi"], links=["Frank Herbert", "Textbook"],
    embeds=["cover.png"], backlinks=["Frank Herbert"],
)
EMMA = make_record(
    "Books/Emma.md",
    {"author": "[[Jane Austen]]", "price": 3, "pages": 300, "status": "done", "rating": 4,
     "done": True, "started": dt.date(2024, 3, 1), "genres": ["classic"]},
    size=800, ctime=dt.datetime(2024, 1, 5, 9, 0), mtime=dt.datetime(2024, 6, 1, 18, 0),
    tags=["book"], links=["Jane Austen"],
)
UBIK = make_record(
    "Books/Ubik.md",
    {"author": "[[Philip K Dick]]", "price": 7.5, "pages": 220, "status": "todo",
     "rating": 3, "done": False},
    size=600, ctime=dt.datetime(2025, 2, 1, 0, 0), mtime=dt.datetime(2025, 5, 26, 23, 0),
    tags=["book/scifi"], links=["Textbook"],
)
TEXTBOOK = make_record(
    "Required Reading/Textbook.md", {"price": 40, "age": 4, "status": "todo"},
    size=5000, ctime=dt.datetime(2023, 9, 1), mtime=dt.datetime(2024, 9, 1),
    tags=["tag"], backlinks=["Dune", "Ubik"],
)
FRANK = make_record("People/Frank Herbert.md", {"born": 1920}, size=300,
                    tags=["person"], links=["Dune"], backlinks=["Dune"])
JANE = make_record("People/Jane Austen.md", {"born": 1775}, size=250, tags=["person"],
                   backlinks=["Emma"])
DAILY = make_record("Daily/2025-05-26.md", {}, size=40)
COVER = make_record("Assets/cover.png", size=20_000)
HOSTILE = make_record("Notes/Hostile.md", {"status": "<script>alert(1)</script>",
                                           "price": "<b>9</b>"}, size=10)

RECORDS: tuple[FileRecord, ...] = (DUNE, EMMA, UBIK, TEXTBOOK, FRANK, JANE, DAILY, COVER)
VAULT = RecordSet(RECORDS)


def ev(text: str, record: FileRecord | None = DUNE, this: FileRecord | None = None) -> Any:
    """The value of one expression for ``record`` in the test vault."""
    return evaluate_expression(text, record, VAULT, this, now=NOW)

"""``DataviewIndex.update``: the index of the last build brought up to date in place
(``mkdocs serve``, ``site/dashboard_data.py``) answers every query as a new index of
the same records does, and keeps the rows of the records that did not change."""

from __future__ import annotations

import datetime as dt

import pytest
from beliefbase.dataview import DataviewIndex, Reads, run
from beliefbase.dataview.records import PageRecord, record_from_markdown

NOW = dt.datetime(2024, 5, 1)

NOTES = {
    "a.md": ("# A\n\nstatus:: open\n\nSee [[b]] and #proj.\n\n- [ ] ship [[c]]\n",
             {"tags": ["proj"], "owner": "[[c]]"}),
    "b.md": ("# B\n\nBack to [[a]].\n", {"tags": ["proj", "x/y"], "n": 2}),
    "c.md": ("# C\n\nNothing.\n", {"n": 5}),
}

QUERIES = [
    "TABLE status, n, owner, length(file.inlinks) AS ins FROM #proj SORT file.name",
    "LIST FROM #x SORT file.name",
    "TABLE file.outlinks AS outs SORT file.name",
    "TASK FROM #proj",
    "TABLE owner.n AS owner_n FROM #proj",
    'LIST FROM "" WHERE n > 1 SORT n DESC',
]


def _records(notes: dict[str, tuple[str, dict[str, object]]]) -> list[PageRecord]:
    return [record_from_markdown(path, body, meta, size=len(body))
            for path, (body, meta) in notes.items()]


def _answers(index: DataviewIndex) -> list[object]:
    return [run(q, index, "a.md", now=NOW) for q in QUERIES]


EDITS = {
    "an inline field": {"a.md": ("# A\n\nstatus:: done\n\nSee [[b]] and #proj.\n\n"
                                 "- [x] ship [[c]]\n", {"tags": ["proj"], "owner": "[[c]]"})},
    "a tag": {"c.md": ("# C\n\nNow #proj.\n", {"n": 5})},
    "a link": {"c.md": ("# C\n\nLinks [[a]].\n", {"n": 5})},
    "a property of a linked note": {"c.md": ("# C\n\nNothing.\n", {"n": 9})},
    "a new note": {"d.md": ("# D\n\n[[a]] #proj\n", {"n": 3})},
    "a deleted note": {"b.md": None},
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_an_updated_index_answers_as_a_new_one(edit: str) -> None:
    notes = dict(NOTES)
    kept = DataviewIndex(_records(notes))
    _answers(kept)  # lazily made items and TASK rows, which the update must drop
    old_rows = dict(kept.rows)
    for path, note in EDITS[edit].items():
        if note is None:
            del notes[path]
        else:
            notes[path] = note
    old_records = {r.path: r for r in kept.records}
    records = [old_records[p] if p in old_records and p not in EDITS[edit] else r
               for p, r in ((r.path, r) for r in _records(notes))]
    same_paths = set(notes) == set(NOTES)
    kept.update(records, None, same_paths)
    fresh = DataviewIndex(records)
    assert _answers(kept) == _answers(fresh)
    assert kept.inlinks == fresh.inlinks and kept.tag_pages == fresh.tag_pages
    assert kept.outlinks == fresh.outlinks and list(kept.rows) == list(fresh.rows)
    if same_paths:  # an unchanged note keeps its row (the same object)
        unchanged = [p for p in notes if p not in EDITS[edit]]
        assert all(kept.rows[p] is old_rows[p] for p in unchanged)


@pytest.mark.parametrize(("query", "read"), [
    ("TABLE owner.n FROM #proj", "other"),  # a link followed
    ("TABLE length(file.inlinks) FROM #proj", "other"),
    ("LIST FROM [[a]]", "other"),
    ("LIST WHERE file.mtime < date(today)", "now"),
    ("LIST WHERE n = this.n", "this"),
])
def test_a_query_says_what_it_read(query: str, read: str) -> None:
    index = DataviewIndex(_records(NOTES))
    reads = Reads()
    run(query, index, "a.md", now=NOW, reads=reads)
    assert getattr(reads, read)
    assert index.reads is None  # only while a query runs


def test_a_query_of_its_notes_alone_reads_only_them() -> None:
    index = DataviewIndex(_records(NOTES))
    plain = Reads()
    run("TABLE n FROM #proj SORT file.name", index, "a.md", now=NOW, reads=plain)
    assert plain.source == {"a.md", "b.md"} and not (plain.other or plain.now or plain.this)

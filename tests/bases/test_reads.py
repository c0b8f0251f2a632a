"""``evaluate(reads=, only=)``: what a view read besides each row's own record, and
which records its filters let through (a serve rebuild keeps a view's HTML when
none of the changed records matters: ``site/dashboard_data.py``)."""

from __future__ import annotations

import datetime as dt

from beliefbase.bases import Reads, RecordSet, evaluate, make_record, parse_base

NOW = dt.datetime(2024, 5, 1)
RECORDS = RecordSet([
    make_record("a.md", {"n": 1, "owner": "[[c]]"}, tags=["task"]),
    make_record("b.md", {"n": 2}, tags=["task"]),
    make_record("c.md", {"n": 3}),
])


def _reads(text: str, only: set[str] | None = None) -> tuple[Reads, int]:
    reads = Reads()
    result = evaluate(parse_base(text, "t.base"), None, RECORDS, RECORDS.by_path["a.md"], now=NOW,
                      reads=reads, only=only)
    assert not result.errors
    return reads, result.total


def test_a_view_says_which_records_it_let_through_and_what_else_it_read() -> None:
    plain, total = _reads('filters: file.hasTag("task")\nviews:\n  - type: table\n'
                          "    order: [file.name, n]\n")
    assert plain.passed == {"a.md", "b.md"} and total == 2
    assert not (plain.records or plain.now or plain.this)
    linked, _ = _reads('filters: file.hasTag("task")\nformulas:\n  o: owner.asFile().size\n'
                       "views:\n  - type: table\n    order: [file.name, formula.o]\n")
    assert linked.records == {"c.md"}
    clock, _ = _reads("filters: file.mtime < now()\nviews:\n  - type: table\n")
    assert clock.now
    this, _ = _reads("filters: n == this.n\nviews:\n  - type: table\n")
    assert this.this and this.passed == {"a.md"}


def test_only_some_records_are_considered() -> None:
    reads, total = _reads('filters: file.hasTag("task")\nviews:\n  - type: table\n',
                          only={"b.md", "c.md"})
    assert reads.passed == {"b.md"} and total == 1

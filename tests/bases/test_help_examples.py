"""Every example of Obsidian's Bases help pages ("Bases syntax", "Formulas",
"Views") that needs no JavaScript, against ``vault.py``; expected values by hand.
(The "Functions" page's examples are in ``test_functions.py``.)"""

from __future__ import annotations

import datetime as dt

from beliefbase.bases import (
    Date,
    Duration,
    Icon,
    Link,
    evaluate,
    format_value,
    make_record,
    parse_base,
)

from .vault import DUNE, EMMA, FRANK, NOW, RECORDS, TEXTBOOK, UBIK, VAULT, ev

SYNTAX_EXAMPLE = """\
filters:
  or:
    - file.hasTag("tag")
    - and:
        - file.hasTag("book")
        - file.hasLink("Textbook")
    - not:
        - file.hasTag("book")
        - file.inFolder("Required Reading")
formulas:
  formatted_price: 'if(price, price.toFixed(2) + " dollars")'
  ppu: "(price / age).toFixed(2)"
properties:
  status:
    displayName: Status
  formula.formatted_price:
    displayName: "Price"
  file.ext:
    displayName: Extension
summaries:
  customAverage: "values.mean().round(3)"
views:
  - type: table
    name: "My table"
    limit: 10
    groupBy:
      property: note.age
      direction: DESC
    filters:
      and:
        - 'status != "done"'
        - or:
            - "formula.ppu > 5"
            - "price > 2.1"
    order:
      - file.name
      - file.ext
      - note.age
      - formula.ppu
      - formula.formatted_price
    summaries:
      formula.ppu: Average
"""


def test_syntax_page_example_base() -> None:
    base = parse_base(SYNTAX_EXAMPLE, "Example.base")
    assert base.errors == ()
    result = evaluate(base, "My table", VAULT, now=NOW)
    # global filter: Textbook (#tag); Dune and Ubik (#book, nested book/scifi counts, and
    # link Textbook); Frank, Jane, the daily note and cover.png (neither #book nor in
    # Required Reading).  View filter: status != "done" and (ppu > 5 or price > 2.1):
    # Textbook (ppu "10.00"), Dune (price 10), Ubik (7.5); the people have no price.
    assert [c.header for c in result.columns] == [
        "file name", "Extension", "age", "ppu", "Price"]
    assert [r.record for r in result.rows] == [TEXTBOOK, DUNE, UBIK]
    assert [g.key for g in result.groups] == [4, None]  # age DESC, rows without age last
    assert [format_value(c) for c in result.rows[0].cells] == [
        "Textbook.md", "md", "4", "10.00", "40.00 dollars"]
    assert [format_value(c) for c in result.rows[2].cells] == [
        "Ubik.md", "md", "", "", "7.50 dollars"]
    assert result.total == 3
    # Average of ppu: the only number-valued... ppu is text ("10.00"): no numbers
    assert [(s.column, s.name, s.value) for s in result.summaries] == [
        ("formula.ppu", "Average", None)]


def test_syntax_page_custom_summary() -> None:
    text = SYNTAX_EXAMPLE.replace("formula.ppu: Average", "note.age: customAverage")
    base = parse_base(text, "Example.base")
    assert base.errors == ()
    result = evaluate(base, None, VAULT, now=NOW)
    assert [(s.name, s.value) for s in result.summaries] == [("customAverage", 4)]


def test_syntax_page_filter_statements() -> None:
    assert ev('file.ext == "md"') is True
    assert ev('file.ext == "md"', make_record("a.png")) is False


EXAMPLE = make_record("Example.md", {
    "radius": 2, "price": 120, "quantity": 3, "description": "blue", "tax": 5,
    "discount": 20, "part": 1, "whole": 4, "age": 17, "status": "Done",
    "completed": False, "urgent": False, "important": True, "tags": ["urgent", "home"],
    "due_date": dt.date(2025, 5, 1), "start_date": dt.date(2025, 5, 1),
    "tasks": ["a", "b", "c"], "impact": 3, "urgency": 4, "effort": 2,
    "first_name": "Ada", "last_name": "Lovelace", "monthlyUses": 10,
    "property": ["first", "second"], "obj": {"subprop": "inner"},
    "authors": ["[[Frank Herbert]]", "[[Jane Austen]]"], "author_link": "[[Frank Herbert]]",
})


def x(text: str, this: object = None) -> object:
    return ev(text, EXAMPLE, this)  # type: ignore[arg-type]


def test_syntax_page_operators() -> None:
    assert x("radius * (2 * 3.14)") == 12.56
    assert x("1") == 1 and x("(2.5)") == 2.5
    assert x('"message"') == "message"
    assert x("true") is True


def test_syntax_page_date_arithmetic() -> None:
    assert x('now() + "1 day"') == Date(dt.datetime(2025, 5, 28, 12), True)
    assert ev('file.mtime > now() - "1 week"', UBIK) is True  # 26 May 23:00
    assert ev('file.mtime > now() - "1 week"', DUNE) is False  # 20 May 08:30 < 20 May 12:00
    assert x('date("2024-12-01") + "1M" + "4h" + "3m"') == Date(
        dt.datetime(2025, 1, 1, 4, 3), True)
    assert x('date("2024-12-01") + "1M" + "4h" + "3m"').has_time
    # now - ctime: from 1 Dec 2024 10:00 to 27 May 2025 12:00 = 177 days 2 hours
    assert ev("now() - file.ctime", DUNE) == Duration(0, (177 * 24 + 2) * 3_600_000)
    assert ev("(now() - file.ctime).days", DUNE) == 177
    assert ev('file.ctime.date().format("YYYY-MM-DD")', DUNE) == "2024-12-01"
    assert x('date("2025-01-01 12:00:00")') == Date(dt.datetime(2025, 1, 1, 12), True)
    assert x('now() + "1 hour"') == Date(dt.datetime(2025, 5, 27, 13), True)
    assert x('today() + "7d"') == Date(dt.datetime(2025, 6, 3), False)
    assert x('(now() + "1d") - now()') == Duration(0, 86_400_000)
    assert x('(now() + "1d") - now() == 86400000') is True  # "returns 86400000 milliseconds"
    assert x('number((now() + "1d") - now())') == 86_400_000
    assert x("now().hour") == 12
    dated = make_record("D.md", {"date": dt.datetime(2025, 1, 31, 9, 0)})
    assert ev('date + "1M"', dated) == Date(dt.datetime(2025, 2, 28, 9), True)  # clamped
    assert ev('date - "2h"', dated) == Date(dt.datetime(2025, 1, 31, 7), True)


def test_syntax_page_lists_and_objects() -> None:
    assert x("property[0]") == "first"
    assert x("obj.subprop") == "inner"
    assert x('obj["subprop"]') == "inner"
    assert x('list("value")') == ("value",)


def test_syntax_page_links() -> None:
    assert x('link("Frank Herbert")').path == "People/Frank Herbert.md"
    assert x('link("https://obsidian.md")') == Link("https://obsidian.md")
    assert x('link("Frank Herbert", "display")').display == "display"
    assert x('link("Frank Herbert", icon("plus"))').display == Icon("plus")
    assert ev("link(file.ctime.date().toString())", DUNE).target == "2024-12-01"
    assert x("file.asLink()").path == "Example.md"
    # links compare by the file they resolve to; with files and `this`
    assert x('author_link == link("People/Frank Herbert.md")') is True
    assert x("author_link == this", this=FRANK) is True
    assert x("author_link == this", this=EMMA) is False
    assert x("authors.contains(this)", this=FRANK) is True
    assert x('link("Nowhere") == link("nowhere")') is True  # unresolved: same text
    assert x('link("Nowhere") == link("Elsewhere")') is False


def test_syntax_page_this() -> None:
    assert x("this.file.name", this=FRANK) == "Frank Herbert.md"
    assert x("this.file.folder", this=FRANK) == "People"
    assert x("this.born", this=FRANK) == 1920
    # file.hasLink(this.file): the backlinks of the embedding note
    base = parse_base("filters: file.hasLink(this.file)\n", "Backlinks.base")
    result = evaluate(base, None, VAULT, TEXTBOOK, now=NOW)
    assert [r.record.name for r in result.rows] == ["Dune.md", "Ubik.md"]


def test_formulas_page_examples() -> None:
    assert x("price * quantity") == 360
    assert x('file.name + " - " + description') == "Example.md - blue"
    assert x("price + tax") == 125
    assert x("price - discount") == 100
    assert x("price / quantity") == 40
    assert x("(part / whole) * 100") == 25
    assert x("price > 100") is True
    assert x("age < 18") is True
    assert x('status == "Done"') is True
    assert x('status != "Done"') is False
    assert x("file.mtime > now() - '7d'") is False  # an Example without mtime
    assert x("!completed") is True
    assert x("price > 0 && quantity > 0") is True
    assert x("urgent || important") is True
    assert x('if(price, "$" + price.toFixed(2), "")') == "$120.00"
    assert x("file.name.lower()") == "example.md"
    assert x('tags.contains("urgent")') is True
    assert x('due_date.format("YYYY-MM-DD")') == "2025-05-01"
    assert x('start_date + "2w"') == Date(dt.datetime(2025, 5, 15))
    assert x('if(due_date < now() && status != "Done", "Overdue", "")') == ""
    assert x("tasks.length") == 3
    assert x("(impact * urgency) / effort") == 6
    assert x('first_name + " " + last_name') == "Ada Lovelace"


def test_formulas_page_formula_references() -> None:
    base = parse_base(
        "formulas:\n"
        "  price_per_unit: price / quantity\n"
        "  with_tax: formula.price_per_unit * 1.1\n"
        "  Owned: '(now() - start_date).days / 30'\n"
        "  total: monthlyUses * formula.Owned.round()\n"
        "views:\n"
        "  - type: table\n"
        "    order: [formula.price_per_unit, formula.with_tax, formula.total]\n",
        "Costs.base")
    assert base.errors == ()
    result = evaluate(base, None, [EXAMPLE], now=NOW)
    # 120 / 3 = 40; 40 * 1.1 = 44.000000000000004 (floating point, as in JavaScript);
    # owned: 26 days / 30 = 0.8666 -> round 1 -> 10 * 1
    assert result.rows[0].cells == (40, 40 * 1.1, 10)


def test_views_page_multiple_views_and_embed_names() -> None:
    base = parse_base(
        "views:\n"
        "  - type: table\n    name: Reading list\n    filters: 'status != \"done\"'\n"
        "  - type: cards\n    name: Recently finished\n    filters: 'status == \"done\"'\n",
        "Books.base")
    assert base.view(None).name == "Reading list"  # ![[Books.base]]: the first view
    first = evaluate(base, None, RECORDS, now=NOW)
    finished = evaluate(base, "Recently finished", RECORDS, now=NOW)
    assert EMMA not in [r.record for r in first.rows]
    assert [r.record for r in finished.rows] == [EMMA]
    assert finished.view is not None and finished.view.layout == "cards"

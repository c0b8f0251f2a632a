"""parse_base and evaluate: filters, formulas, sort, groups, limit, summaries,
view types, and every error path (a BaseError with its line, never an exception)."""

from __future__ import annotations

import datetime as dt

from beliefbase.bases import (
    BASE_VIEW_FALLBACK,
    Date,
    Duration,
    ErrorValue,
    evaluate,
    format_value,
    make_record,
    parse_base,
)

from .vault import DUNE, EMMA, NOW, RECORDS, TEXTBOOK, UBIK, VAULT


def names(text: str, view: str | None = None, this: object = None) -> list[str]:
    base = parse_base(text, "T.base")
    assert base.errors == (), base.errors
    result = evaluate(base, view, VAULT, this, now=NOW)  # type: ignore[arg-type]
    assert result.errors == (), result.errors
    return [r.record.basename for r in result.rows]


# ---------------------------------------------------------------- filters

def test_no_filter_shows_every_file_by_name() -> None:
    assert names("views: [{type: table}]") == [
        "2025-05-26", "cover", "Dune", "Emma", "Frank Herbert", "Jane Austen", "Textbook",
        "Ubik"]


def test_filter_string() -> None:
    assert names('filters: file.hasTag("book")') == ["Dune", "Emma", "Ubik"]


def test_filter_and() -> None:
    assert names('filters:\n  and:\n    - file.hasTag("book")\n    - price > 5\n') == [
        "Dune", "Ubik"]


def test_filter_or() -> None:
    assert names('filters:\n  or:\n    - file.hasTag("person")\n    - price >= 40\n') == [
        "Frank Herbert", "Jane Austen", "Textbook"]


def test_filter_not_means_none_of() -> None:
    assert names('filters:\n  not:\n    - file.ext == "md"\n    - file.hasTag("x")\n') == [
        "cover"]


def test_filters_nested_and_view_filters_and_together() -> None:
    text = ('filters:\n  or:\n    - file.hasTag("book")\n    - and: [file.hasTag("tag"), '
            'price > 1]\nviews:\n  - type: table\n    filters:\n      not: ['
            '\'status == "done"\']\n')
    assert names(text) == ["Dune", "Textbook", "Ubik"]


def test_filter_with_this() -> None:
    assert names('filters: file.hasLink(this.file)', this=TEXTBOOK) == ["Dune", "Ubik"]
    assert names('filters: file.hasLink(this)', this=TEXTBOOK) == ["Dune", "Ubik"]
    assert names('filters: author == this', this=make_record("People/Jane Austen.md")) == [
        "Emma"]


def test_attachments_are_records_too() -> None:
    assert names('filters: file.ext == "png"') == ["cover"]


# ---------------------------------------------------------------- formulas

def test_formulas_reference_each_other() -> None:
    base = parse_base(
        "formulas:\n  a: price * 2\n  b: formula.a + 1\n  c: 'formula[\"b\"] * 10'\n"
        "views:\n  - type: table\n    filters: file.hasTag('book')\n"
        "    order: [formula.c, formula.b, formula.a]\n", "F.base")
    assert base.errors == ()
    result = evaluate(base, None, VAULT, now=NOW)
    assert [r.cells for r in result.rows] == [(210, 21, 20), (70, 7, 6), (160, 16, 15)]


def test_formula_cycle_is_an_error_at_its_line() -> None:
    base = parse_base("formulas:\n  a: formula.b + 1\n  b: formula.c\n  c: formula.a\n"
                      "views: [{type: table}]\n", "Cycle.base")
    assert not base.ok
    [error] = base.errors
    assert error.code == "base-error"
    assert "formula cycle" in error.message and "formula.a" in error.message
    assert error.line in (2, 3, 4)
    result = evaluate(base, None, VAULT, now=NOW)
    assert result.rows == () and not result.ok


def test_self_reference_is_a_cycle() -> None:
    base = parse_base("formulas:\n  a: formula.a\n", "Self.base")
    assert [e.line for e in base.errors] == [2]
    assert "formula cycle: formula.a -> formula.a" in base.errors[0].message


def test_unknown_formula_is_an_error() -> None:
    base = parse_base("formulas:\n  a: formula.nope\nviews:\n  - type: table\n"
                      "    order: [formula.missing]\n", "U.base")
    assert [(e.line, "no formula named" in e.message) for e in base.errors] == [
        (2, True), (4, True)]


def test_formula_type_error_is_a_cell_error_and_reported_once() -> None:
    base = parse_base("formulas:\n  bad: 'file.name.floor()'\nviews:\n  - type: table\n"
                      "    order: [file.name, formula.bad]\n", "E.base")
    assert base.ok
    result = evaluate(base, None, VAULT, now=NOW)
    assert len(result.rows) == 8
    assert all(isinstance(r.cells[1], ErrorValue) for r in result.rows)
    [error] = result.errors
    assert error.line == 2 and "string has no method floor()" in error.message


def test_failing_filter_drops_the_row() -> None:
    # date() fails for every note without a parsable "status" date: no rows, one error
    base = parse_base("filters: date(status) > now()\n", "E.base")
    result = evaluate(base, None, VAULT, now=NOW)
    assert result.rows == ()
    assert len(result.errors) == 1 and result.errors[0].line == 1


# ---------------------------------------------------------------- sort, group, limit

def test_sort_several_keys() -> None:
    text = ("filters: file.hasTag('book', 'tag')\nviews:\n  - type: table\n    sort:\n"
            "      - {property: status, direction: ASC}\n"
            "      - {property: price, direction: DESC}\n")
    # status: done (Emma), reading (Dune), todo (Textbook 40, Ubik 7.5)
    assert names(text) == ["Emma", "Dune", "Textbook", "Ubik"]


def test_sort_puts_empty_values_last_both_ways() -> None:
    asc = "views:\n  - type: table\n    sort: [{property: price, direction: ASC}]\n"
    desc = asc.replace("ASC", "DESC")
    assert names(asc)[:4] == ["Emma", "Ubik", "Dune", "Textbook"]
    assert names(desc)[:4] == ["Textbook", "Dune", "Ubik", "Emma"]
    # no price: by file name, in both directions
    assert names(asc)[4:] == names(desc)[4:] == [
        "2025-05-26", "cover", "Frank Herbert", "Jane Austen"]


def test_sort_dates_and_formulas() -> None:
    text = ("formulas:\n  age_days: (now() - file.ctime).days\nfilters: file.hasTag('book')\n"
            "views:\n  - type: table\n    sort: [{property: formula.age_days, "
            "direction: DESC}]\n    order: [formula.age_days]\n")
    base = parse_base(text, "S.base")
    result = evaluate(base, None, VAULT, now=NOW)
    # ctime: Emma 2024-01-05 09:00, Dune 2024-12-01 10:00, Ubik 2025-02-01
    assert [r.record for r in result.rows] == [EMMA, DUNE, UBIK]
    assert [r.cells[0] for r in result.rows] == [508, 177, 115]


def test_group_by_with_direction_and_limit_across_groups() -> None:
    text = ("filters: price\nviews:\n  - type: table\n    groupBy: {property: status, "
            "direction: DESC}\n    limit: 3\n    order: [file.name, price]\n")
    base = parse_base(text, "G.base")
    result = evaluate(base, None, VAULT, now=NOW)
    # groups: todo (Textbook, Ubik), reading (Dune), done (Emma); limit 3 cuts Emma
    assert [(g.key, [r.record.basename for r in g.rows]) for g in result.groups] == [
        ("todo", ["Textbook", "Ubik"]), ("reading", ["Dune"])]
    assert result.total == 4 and len(result.rows) == 3


def test_group_by_links_groups_by_target() -> None:
    records = [make_record("a.md", {"who": "[[Frank Herbert]]"}),
               make_record("b.md", {"who": "[[People/Frank Herbert.md|Frank]]"}),
               make_record("c.md", {"who": "[[Jane Austen]]"}), *RECORDS]
    base = parse_base("filters: who\nviews:\n  - {type: table, groupBy: {property: who}}\n",
                      "L.base")
    result = evaluate(base, None, records, now=NOW)
    assert [len(g.rows) for g in result.groups] == [2, 1]


def test_limit_zero_and_bad_limit() -> None:
    assert names("views:\n  - {type: table, limit: 0}\n") == []
    base = parse_base("views:\n  - {type: table, limit: many}\n", "B.base")
    assert base.errors[0].line == 2 and "limit" in base.errors[0].message


# ---------------------------------------------------------------- summaries

SUMMARY_BASE = """\
filters: file.hasTag("book", "tag")
formulas:
  when: file.ctime
views:
  - type: table
    order: [price, formula.when, done, status, note.genres]
    summaries:
      price: {summary}
      formula.when: {dates}
      done: {checks}
      status: {any}
"""


def summary(name: str, column: str = "price") -> object:
    text = SUMMARY_BASE.format(summary=name if column == "price" else "Sum",
                               dates=name if column == "when" else "Earliest",
                               checks=name if column == "done" else "Checked",
                               any=name if column == "status" else "Filled")
    base = parse_base(text, "Sum.base")
    assert base.errors == (), base.errors
    result = evaluate(base, None, VAULT, now=NOW)
    col = {"price": "note.price", "when": "formula.when", "done": "note.done",
           "status": "note.status"}[column]
    return next(s.value for s in result.summaries if s.column == col)


def test_summary_number_defaults() -> None:
    # prices: Dune 10, Emma 3, Textbook 40, Ubik 7.5
    assert summary("Average") == 15.125
    assert summary("Min") == 3
    assert summary("Max") == 40
    assert summary("Sum") == 60.5
    assert summary("Range") == 37
    assert summary("Median") == 8.75
    assert round(summary("Stddev"), 3) == 14.579  # population: sqrt(850.1875 / 4)  # type: ignore[call-overload]


def test_summary_date_defaults() -> None:
    assert summary("Earliest", "when") == Date(dt.datetime(2023, 9, 1), False)
    assert summary("Latest", "when") == Date(dt.datetime(2025, 2, 1), True)
    assert summary("Range", "when") == Duration(0, (dt.datetime(2025, 2, 1) - dt.datetime(
        2023, 9, 1)).total_seconds() * 1000)


def test_summary_boolean_defaults() -> None:
    assert summary("Checked", "done") == 1  # Emma
    assert summary("Unchecked", "done") == 2  # Dune, Ubik (Textbook has none)


def test_summary_any_defaults() -> None:
    assert summary("Empty", "done") == 1  # Textbook
    assert summary("Filled", "status") == 4
    assert summary("Unique", "status") == 3  # done, reading, todo


def test_summaries_per_group_and_custom() -> None:
    text = ("filters: price\nsummaries:\n  spread: values.reduce(if(acc == null || value > "
            "acc, value, acc), null) - values.sort()[0]\nviews:\n  - type: table\n"
            "    groupBy: {property: status}\n    order: [price]\n"
            "    summaries: {price: spread}\n")
    base = parse_base(text, "C.base")
    assert base.errors == ()
    result = evaluate(base, None, VAULT, now=NOW)
    assert [(g.key, g.summaries[0].value) for g in result.groups] == [
        ("done", 0), ("reading", 0), ("todo", 32.5)]
    assert result.summaries[0].value == 37 and result.summaries[0].name == "spread"


def test_unknown_summary_is_an_error() -> None:
    base = parse_base("views:\n  - type: table\n    summaries:\n      price: Mode\n", "S.base")
    assert [(e.line, e.message) for e in base.errors] == [
        (4, "view 'View 1': unknown summary 'Mode'")]


# ---------------------------------------------------------------- views

def test_columns_and_display_names() -> None:
    base = parse_base("properties:\n  note.price: {displayName: Cost}\n  status:\n"
                      "    displayName: State\nviews:\n  - type: table\n"
                      "    order: [file.basename, price, note.status, pages]\n", "C.base")
    result = evaluate(base, None, [DUNE], now=NOW)
    assert [(c.id, c.header) for c in result.columns] == [
        ("file.basename", "file basename"), ("note.price", "Cost"), ("note.status", "State"),
        ("note.pages", "pages")]
    assert [format_value(c) for c in result.rows[0].cells] == ["Dune", "10", "reading", "412"]


def test_cards_options_and_unknown_keys() -> None:
    base = parse_base("views:\n  - type: cards\n    name: Gallery\n    image: cover\n"
                      "    imageFit: contain\n    imageAspectRatio: 1.5\n    cardSize: 200\n"
                      "    somePluginState: {x: 1}\n", "C.base")
    assert base.errors == ()
    view = base.views[0]
    assert (view.layout, view.image, view.image_fit, view.image_aspect_ratio) == (
        "cards", "note.cover", "contain", 1.5)
    assert view.raw["somePluginState"] == {"x": 1}
    cover = make_record("c.md", {"cover": "[[cover.png]]"})
    result = evaluate(base, "Gallery", [cover, *RECORDS], now=NOW)
    assert result.rows[1].image.target == "cover.png"


def test_map_and_plugin_views_render_as_tables_with_a_note() -> None:
    base = parse_base("views:\n  - type: map\n    name: Places\n  - type: kanban\n", "M.base")
    assert base.ok
    assert [(v.type, v.layout) for v in base.views] == [("map", "table"), ("kanban", "table")]
    assert all(v.note and "table" in v.note for v in base.views)
    assert [(e.code, e.level, e.line) for e in base.errors] == [
        (BASE_VIEW_FALLBACK, "info", 2), (BASE_VIEW_FALLBACK, "info", 4)]


def test_view_by_name_and_missing_view() -> None:
    base = parse_base("views:\n  - {type: table, name: One}\n  - {type: list, name: Two}\n",
                      "V.base")
    assert evaluate(base, "Two", VAULT, now=NOW).view.layout == "list"  # type: ignore[union-attr]
    missing = evaluate(base, "Three", VAULT, now=NOW)
    assert missing.rows == () and "no view named 'Three'" in missing.errors[-1].message


def test_results_are_deterministic() -> None:
    text = "views:\n  - {type: table, groupBy: {property: status}}\n"
    base = parse_base(text, "D.base")
    one = evaluate(base, None, RECORDS, now=NOW)
    two = evaluate(base, None, tuple(reversed(RECORDS)), now=NOW)
    assert [r.record.path for r in one.rows] == [r.record.path for r in two.rows]


# ---------------------------------------------------------------- error paths

def test_malformed_yaml_is_an_error_with_its_line() -> None:
    base = parse_base("views:\n  - type: table\n    order: [a, b\n", "Bad.base")
    [error] = base.errors
    assert error.path == "Bad.base" and error.line >= 3 and "YAML" in error.message
    assert str(error).startswith("Bad.base:")


def test_expression_syntax_error_line_and_column() -> None:
    base = parse_base("views:\n  - type: table\n    filters:\n      and:\n"
                      "        - 'price > > 3'\n", "Bad.base")
    [error] = base.errors
    assert (error.line, error.column) == (5, 20)  # the second ">"
    assert "unexpected" in error.message


def test_fence_offset_moves_lines() -> None:
    base = parse_base("filters: 'price >'\n", "note.md", first_line=12)
    assert base.errors[0].line == 12 and base.errors[0].path == "note.md"


def test_unknown_function_is_an_error() -> None:
    base = parse_base("formulas:\n  x: 'frobnicate(1)'\n  y: 'price.frobnicate()'\n"
                      "  z: 'if(1)'\n", "F.base")
    assert [(e.line, e.message) for e in base.errors] == [
        (2, "formula x: unknown function frobnicate()"),
        (3, "formula y: unknown function frobnicate()"),
        (4, "formula z: if() takes a condition, a value and an optional else")]


def test_not_a_mapping_and_bad_shapes() -> None:
    assert "YAML mapping" in parse_base("- a\n- b\n", "X.base").errors[0].message
    bad = parse_base("filters: {and: x, or: y}\nviews: 3\nformulas: [a]\n", "X.base")
    assert len(bad.errors) == 3 and not bad.ok
    assert parse_base("", "Empty.base").errors == ()


def test_hostile_base_does_not_blow_up() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    base = parse_base(bomb, "Bomb.base")
    assert not base.ok and "too large" in base.errors[0].message
    deep = parse_base("filters: '" + "(" * 2000 + "1" + ")" * 2000 + "'\n", "Deep.base")
    assert deep.errors or deep.ok  # either way: no exception


def test_a_failing_leaf_is_false_and_the_row_can_pass_another() -> None:
    base = parse_base("filters:\n  or:\n    - date(status) > now()\n    - price > 30\n",
                      "E.base")
    result = evaluate(base, None, VAULT, now=NOW)
    assert [r.record for r in result.rows] == [TEXTBOOK]
    assert [e.line for e in result.errors] == [3]


def test_cell_errors_do_not_hide_the_other_cells() -> None:
    base = parse_base("formulas:\n  bad: date(status)\nviews:\n  - type: table\n"
                      "    filters: file.hasTag('book')\n    order: [formula.bad, price]\n",
                      "E.base")
    result = evaluate(base, None, VAULT, now=NOW)
    assert [type(r.cells[0]).__name__ for r in result.rows] == ["ErrorValue"] * 3
    assert [r.cells[1] for r in result.rows] == [10, 3, 7.5]


def test_a_broken_formula_is_reported_once() -> None:
    base = parse_base("formulas:\n  a: 'price +'\n  b: formula.a * 2\n", "B.base")
    assert [(e.line, e.message.split(":")[0]) for e in base.errors] == [(2, "formula a")]


def test_single_equals_gets_a_hint() -> None:
    base = parse_base("filters: 'status = \"done\"'\n", "B.base")
    assert base.errors[0].message.endswith("(compare with ==)")
    assert base.errors[0].column == 18

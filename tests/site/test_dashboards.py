"""Obsidian Bases and Dataview in the built site (issue 27): fences in place (top
level, callouts, lists), ``.base`` pages and embeds, inline queries, DataviewJS never
run, error boxes with diagnostics at file:line, drafts absent, hostile values as
text, a user view restyling a result, golden HTML per view type, ``check`` reporting
what the build reports, and no data made by a build without a dashboard."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from beliefbase import bases
from beliefbase import dataview as dv
from beliefbase.compile.compiled import Compiled

from ..conftest import BuildResult, Project, diagnostic_lines

GOLDEN = Path(__file__).resolve().parents[1] / "query" / "golden"
HOSTILE = "<script>alert(1)</script>"

BOOKS = {
    "dune.md": "---\ntags: [book]\nrating: 5\nauthor: Herbert\nstatus: read\n---\n# Dune\n",
    "emma.md": "---\ntags: [book]\nrating: 3\nauthor: Austen\nstatus: read\n---\n# Emma\n",
    "ulysses.md": "---\ntags: [book]\nrating: 4\nauthor: Joyce\nstatus: reading\n---\n"
                  "# Ulysses\n",
    "secret.md": "---\ntags: [book]\nrating: 1\ndraft: true\nauthor: Hidden\n---\n# Secret\n",
    "evil.md": f"---\ntags: [book]\nrating: 2\nauthor: \"{HOSTILE}\"\nstatus: read\n---\n"
               "# Evil\n",
    "tasks/chores.md": "# Chores\n\n- [ ] sweep\n  - [x] find the broom\n- [x] dishes\n",
}

LIBRARY_BASE = """\
filters:
  and:
    - file.hasTag("book")
formulas:
  double: rating * 2
properties:
  note.rating:
    displayName: Stars
views:
  - type: table
    name: By status
    order: [file.name, rating, formula.double, author]
    sort:
      - property: rating
        direction: DESC
    groupBy:
      property: status
      direction: ASC
    summaries:
      rating: Sum
  - type: cards
    name: Shelf
    order: [file.name, author]
  - type: list
    name: Names
    order: [file.name]
  - type: map
    name: Where
"""


def _vault(project: Project, index: str) -> None:
    for path, text in BOOKS.items():
        project.write(path, text, dedent=False)
    project.write("Library.base", LIBRARY_BASE, dedent=False)
    project.write("index.md", index, dedent=False)


def _dashboards(html: str) -> list[str]:
    """Each ``bb-dashboard`` block of a page, in order."""
    found = []
    for m in re.finditer(r'<div class="bb-dashboard">', html):
        depth, i = 0, m.start()
        for tag in re.finditer(r"<(/?)div\b", html[m.start():]):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                i = m.start() + tag.end()
                break
        found.append(html[m.start(): html.index(">", i) + 1])
    return found


def test_fences_render_in_place_at_every_level(project: Project) -> None:
    _vault(project, (
        "# Home\n\n"
        "```dataview\nTABLE rating AS \"Rating\", author FROM #book SORT rating DESC\n```\n\n"
        "> [!note] In a callout\n> ```base\n> filters: file.hasTag(\"book\")\n"
        "> views:\n>   - type: list\n>     order: [file.name]\n> ```\n\n"
        "- an item\n  ```dataview\n  LIST FROM #book WHERE rating > 4\n  ```\n\n"
        "> a quote\n>\n> ```dataview\n> LIST FROM #book WHERE rating = 3\n> ```\n"))
    result = project.build()
    assert result.error is None, result.error
    page = result.article("")
    boxes = _dashboards(page)
    assert len(boxes) == 4, page
    table = boxes[0]
    assert table.index(">dune<") < table.index(">ulysses<") < table.index(">emma<")
    assert "<th>Rating</th>" in table
    # the callout holds the base, the list item and the quote their queries
    assert re.search(r'data-callout="note">\s*<p class="admonition-title">In a callout</p>'
                     r'\s*<div class="bb-dashboard">', page)
    assert re.search(r"<li>\s*<p>an item</p>\s*<div class=\"bb-dashboard\">", page)
    assert re.search(r"<blockquote>.*?bb-dashboard.*?>emma<.*?</blockquote>", page, re.S)
    assert "```" not in page
    assert not [line for line in diagnostic_lines(result) if "Library.base" not in line]


def test_drafts_never_appear_and_hostile_values_are_text(project: Project) -> None:
    _vault(project, "# Home\n\n```dataview\nTABLE author FROM #book\n```\n\n"
                    "```base\nfilters: file.hasTag(\"book\")\nviews:\n  - type: table\n"
                    "    order: [file.name, author]\n```\n\n"
                    "Count: `= length(filter(this.file.inlinks, (x) => true))`.\n")
    result = project.build()
    page = result.article("")
    assert "Secret" not in page and "Hidden" not in page
    assert HOSTILE not in page
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 2
    assert "Secret" not in result.page("Library.base/")


def test_a_base_file_is_a_page_with_every_view(project: Project) -> None:
    _vault(project, "# Home\n\nSee [[Library.base]].\n\n![[Library.base#Shelf]]\n")
    result = project.build()
    assert result.error is None, result.error
    page = result.article("Library.base/")
    names = re.findall(r'<label for="[^"]*">([^<]*)</label>', page)
    assert names == ["By status", "Shelf", "Names", "Where"]
    # table: grouped by status, sorted by rating, a display name, summaries per group
    table = _dashboards(page)[0]
    assert "<th>Stars</th>" in table
    assert table.index(">read<") < table.index(">reading<")
    assert table.index(">dune<") < table.index(">emma<")
    assert table.count('class="bb-query-summary"') == 3  # two groups and the whole
    assert '<span class="bb-summary-name">Sum</span> 14' in table  # 5+3+4+2
    assert "bb-query-cards" in _dashboards(page)[1]
    assert "bb-query-list" in _dashboards(page)[2]
    assert "shown here as a table" in _dashboards(page)[3]
    home = result.article("")
    assert 'href="Library.base/"' in home
    embed = _dashboards(home)
    assert len(embed) == 1 and "bb-query-cards" in embed[0] and ">Herbert<" in embed[0]
    assert [line for line in diagnostic_lines(result) if "base-view-fallback" not in line] \
        == [], result.lines
    assert diagnostic_lines(result, "base-view-fallback")[0].startswith(
        "INFO docs/Library.base:27:")
    # search knows the page
    assert "Library.base/" in (result.site / "search" / "search_index.json").read_text(
        encoding="utf-8")


def test_a_base_page_shows_its_views_as_tabs(project: Project) -> None:
    """Material's tabbed markup (pymdownx.tabbed, alternate style): radio inputs, the
    first checked, labels for them (the views' names), one block per view, in order;
    it switches without JavaScript.  Ids are unique and escaped."""
    _vault(project, "# Home\n\n![[Library.base#Shelf]]\n")
    project.write("Two.base", "views:\n  - type: list\n    name: A b\n  - type: table\n"
                              f"    name: \"{HOSTILE}\"\n  - type: list\n    name: A b\n"
                              "  - type: list\n", dedent=False)
    project.write("One.base", "views:\n  - type: list\n    name: Only\n", dedent=False)
    result = project.build()
    assert result.error is None, result.error
    page = result.article("Library.base/")
    tabs = re.search(r'<div class="tabbed-set tabbed-alternate bb-base-views" '
                     r'data-tabs="1:4">(.*)</div>\s*</div>', page, re.S)
    assert tabs is not None, page
    inputs = re.findall(r'<input( checked="checked")? id="([^"]+)" name="bb-base-views" '
                        r'type="radio">', page)
    assert inputs == [(' checked="checked"', "bb-view-by-status"), ("", "bb-view-shelf"),
                      ("", "bb-view-names"), ("", "bb-view-where")]
    labels = re.findall(r'<label for="([^"]+)">([^<]*)</label>', page)
    assert labels == [("bb-view-by-status", "By status"), ("bb-view-shelf", "Shelf"),
                      ("bb-view-names", "Names"), ("bb-view-where", "Where")]
    blocks = page.split('<div class="tabbed-block">')[1:]
    assert len(blocks) == 4
    assert "bb-query-table" in blocks[0] and "bb-query-cards" in blocks[1]
    assert "bb-query-list" in blocks[2] and "bb-base-view-name" not in page
    # repeated, hostile and missing names: unique ids, names as text
    two = result.article("Two.base/")
    ids = re.findall(r'<input[^>]* id="([^"]+)"', two)
    assert ids == ["bb-view-a-b", "bb-view-script-alert-1-script", "bb-view-a-b-2",
                   "bb-view-view-4"]
    assert re.findall(r'<label for="[^"]+">([^<]*)</label>', two) == [
        "A b", "&lt;script&gt;alert(1)&lt;/script&gt;", "A b", "View 4"]
    assert HOSTILE not in two
    # one view: no tab bar; an embed: that one view
    one = result.article("One.base/")
    assert "tabbed-set" not in one and "<input" not in one
    assert '<h2 class="bb-base-view-name">Only</h2>' in one
    home = result.article("")
    assert "tabbed-set" not in home and len(_dashboards(home)) == 1


def test_a_link_to_a_view_opens_its_tab(project: Project) -> None:
    """``[[Library.base#Shelf]]`` links to the Shelf tab of the base's page (its views
    are the base's headings, with the tabs' ids), matched as Obsidian matches headings;
    a view the base does not have is an unresolved anchor at file:line:column, and
    MkDocs's own anchor check finds the tabs' ids (no false "does not contain an
    anchor")."""
    _vault(project, "# Home\n\nSee [[Library.base#Shelf]], [[Library.base#names|all]] "
                    "and [[Library.base#Shelves]].\n\n![[Library.base#Names]]\n")
    result = project.build()
    assert result.error is None, result.error
    home = result.article("")
    assert '<a class="bb-link" data-bb-target="' in home
    hrefs = re.findall(r'href="(Library\.base/[^"]*)">([^<]*)</a>', home)
    assert hrefs[:3] == [("Library.base/#bb-view-shelf", "Shelf"),
                         ("Library.base/#bb-view-names", "all"), ("Library.base/", "Library")]
    assert len(_dashboards(home)) == 1 and "bb-query-list" in _dashboards(home)[0]
    assert diagnostic_lines(result, "unresolved-anchor") == [
        "WARNING docs/index.md:3:60: unresolved-anchor: [[Library.base#Shelves]]: 'Library' "
        "has no view 'Shelves' (did you mean 'Shelf'?); the link opens its first view"]
    assert not [line for line in result.lines if "does not contain an anchor" in line]
    page = result.article("Library.base/")
    assert '<input id="bb-view-shelf"' in page


def test_embed_this_is_the_embedding_note(project: Project) -> None:
    _vault(project, "# Home\n")
    project.write("Mine.base", "filters: file.hasLink(this.file)\nviews:\n  - type: list\n"
                               "    name: Linking here\n    order: [file.name]\n", dedent=False)
    project.write("hub.md", "# Hub\n\n![[Mine.base]]\n", dedent=False)
    project.write("fan.md", "# Fan\n\nI like [[hub]].\n", dedent=False)
    result = project.build()
    embed = _dashboards(result.article("hub/"))
    assert len(embed) == 1 and ">fan<" in embed[0] and ">dune<" not in embed[0]


def test_inline_queries_and_javascript(project: Project) -> None:
    _vault(project, "---\nmood: calm\n---\n# Home\n\nI am `= this.mood` today; "
                    "`$= dv.current().mood` is not run.\n\n"
                    "```dataviewjs\ndv.list(dv.pages('#book').file.name)\n```\n\n"
                    "Code `= this.mood` stays in a block:\n\n```\n`= this.mood`\n```\n\n"
                    "Not queries: `==mark==`, `` `= this.mood` ``, `a = b`.\n")
    result = project.build()
    page = result.article("")
    assert 'I am <span class="bb-dataview-inline">calm</span> today;' in page
    assert '<code>$= dv.current().mood</code>' in page
    assert re.search(r'<details class="bb-dataview-js">\s*<summary>', page)
    assert "dv.list(dv.pages(&#39;#book&#39;).file.name)" in page
    assert "<code>`= this.mood`\n</code>" in page  # a code block is left alone
    assert "<code>==mark==</code>, <code>`= this.mood`</code>, <code>a = b</code>" in page
    lines = diagnostic_lines(result, "dataview-js-not-run")
    assert [line.split(": ")[0] for line in lines] == ["INFO docs/index.md:8:1",
                                                       "INFO docs/index.md:6:27"], lines


@pytest.mark.parametrize(("block", "code", "where"), [
    ("```base\nfilters: [unclosed\n```\n", "base-error", "docs/index.md:4:"),
    ("```base\nfilters: nosuchfunction(1)\nviews:\n  - type: table\n```\n", "base-error",
     "docs/index.md:4:"),
    ("```base\nformulas:\n  a: formula.b + 1\n  b: formula.a + 1\nviews:\n  - type: table\n"
     "```\n", "base-error", "docs/index.md:"),
    ("```dataview\nTABLE rating FROM #book SORT\n```\n", "dataview-error",
     "docs/index.md:4:"),
    ("```dataview\nLIST WHERE nosuchfunction(1)\n```\n", "dataview-error",
     "docs/index.md:4:"),
    ("- item\n  ```dataview\n  TABLE FROM\n  ```\n", "dataview-error", "docs/index.md:5:"),
])
def test_errors_render_a_box_and_a_diagnostic(project: Project, block: str, code: str,
                                              where: str) -> None:
    _vault(project, f"# Home\n\n{block}\nAfter.\n")
    result = project.build()
    assert result.error is None, result.error
    page = result.article("")
    assert 'class="bb-query-error bb-dashboard-error admonition failure"' in page, page
    assert "<p>After.</p>" in page
    found = diagnostic_lines(result, code)
    assert found and found[0].split(" ", 1)[1].startswith(where), result.lines


def test_check_reports_what_the_build_reports(project: Project) -> None:
    from beliefbase.site.markdown.query_embeds import page_query_diagnostics
    from beliefbase.site.query_views import Views

    _vault(project, "# Home\n\n```dataview\nTABLE FROM\n```\n\n`$= 1`\n\n"
                    "```base\nfilters: [x\n```\n")
    result = project.build()
    built = sorted(line.split(" ", 1)[1] for line in diagnostic_lines(result)
                   if ": base-" in line or ": dataview-" in line)
    compiled = project.compile()
    checked = page_query_diagnostics(compiled, Views(None, {}),
                                     lambda p: (compiled.options.docs_dir / p).read_text(), 5.0,
                                     100)
    assert sorted(f"{d.file}:{d.line}:{d.column}: {d.code}: {d.message}"
                  for d in checked) == built
    assert len(built) == 4, built  # with the map view's fallback of Library.base


def test_a_user_view_restyles_a_result(project: Project) -> None:
    _vault(project, "# Home\n\n```dataview\nTABLE author FROM #book\n```\n")
    views = project.root / "views"
    views.mkdir()
    (views / "table.html").write_text(
        '{% extends "builtin/table.html" %}{% block header scoped %}[{{ column }}]{% endblock %}',
        encoding="utf-8")
    result = project.build(plugins=[{"beliefbase": {"views_dir": "../views"}}])
    assert result.error is None, result.error
    assert "<th>[author]</th>" in result.article("")


def test_a_build_without_dashboards_makes_no_data(project: Project,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("records made for a site without a base or a query")

    monkeypatch.setattr(bases, "records_from_compiled", refuse)
    monkeypatch.setattr(dv, "records_from_compiled", refuse)
    for path, text in BOOKS.items():
        project.write(path, text, dedent=False)
    project.write("index.md", "# Home\n\nA `code` span and x = 1.\n", dedent=False)
    assert project.build().error is None


GOLDEN_PAGE = (
    "# Golden\n\n"
    "```base\nfilters: file.hasTag(\"book\")\nviews:\n  - type: table\n"
    "    order: [file.name, rating, author]\n    sort:\n      - property: rating\n"
    "        direction: DESC\n    groupBy:\n      property: status\n      direction: ASC\n"
    "    summaries:\n      rating: Average\n```\n\n"
    "```base\nfilters: file.hasTag(\"book\")\nviews:\n  - type: cards\n"
    "    order: [file.name, author, rating]\n```\n\n"
    "```dataview\nLIST author FROM #book SORT file.name\n```\n\n"
    "```dataview\nTASK FROM \"tasks\"\n```\n"
)


@pytest.mark.parametrize(("index", "name"), [(0, "dashboard-table"), (1, "dashboard-cards"),
                                             (2, "dashboard-list"), (3, "dashboard-tasks")])
def test_golden_html(project: Project, request: pytest.FixtureRequest, index: int,
                     name: str) -> None:
    _vault(project, GOLDEN_PAGE)
    result: BuildResult = project.build()
    html = _dashboards(result.article(""))[index] + "\n"
    golden = GOLDEN / f"{name}.html"
    if request.config.getoption("--update-golden"):
        golden.write_text(html, encoding="utf-8")
    assert html == golden.read_text(encoding="utf-8")


def test_the_data_is_made_once_per_build(project: Project,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    made_bases, made_dataview = bases.records_from_files, dv.index_from_files
    made_files = Compiled.vault_files

    def count_bases(*args: object, **kwargs: object) -> object:
        calls.append("bases")
        return made_bases(*args, **kwargs)  # type: ignore[arg-type]

    def count_dataview(*args: object, **kwargs: object) -> object:
        calls.append("dataview")
        return made_dataview(*args, **kwargs)  # type: ignore[arg-type]

    def count_files(*args: object, **kwargs: object) -> object:
        calls.append("files")
        return made_files(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bases, "records_from_files", count_bases)
    monkeypatch.setattr(dv, "index_from_files", count_dataview)
    monkeypatch.setattr(Compiled, "vault_files", count_files)
    _vault(project, "# Home\n\n```dataview\nLIST FROM #book\n```\n\n`= this.file.name`\n\n"
                    "![[Library.base]]\n")
    project.write("two.md", "# Two\n\n```dataview\nLIST FROM #book\n```\n\n```base\n"
                            "views:\n  - type: list\n```\n", dedent=False)
    assert project.build().error is None
    assert sorted(calls) == ["bases", "dataview", "files"]  # one shared record set


def test_a_worker_converting_pages_ahead_inherits_the_data(
        project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # above render_ahead's threshold a forked worker converts pages from the back:
    # the data is made before the fork (``before_pages``), not once in each process
    import os

    from beliefbase.speedups import render_ahead

    log = tmp_path / "made.log"
    made_bases, made_dataview = bases.records_from_files, dv.index_from_files

    def record(kind: str, make: object) -> object:
        def counted(*args: object, **kwargs: object) -> object:
            with log.open("a", encoding="utf-8") as f:
                f.write(f"{kind} {os.getpid()}\n")
            return make(*args, **kwargs)  # type: ignore[operator]
        return counted

    monkeypatch.setattr(bases, "records_from_files", record("bases", made_bases))
    monkeypatch.setattr(dv, "index_from_files", record("dataview", made_dataview))
    _vault(project, "# Home\n\nText.\n")
    count = render_ahead.AHEAD_THRESHOLD + 20
    for i in range(count):  # the last pages, converted by the worker, hold the blocks
        block = ("```dataview\nLIST FROM #book\n```\n\n```base\nviews:\n  - type: list\n```\n"
                 if i >= count - 5 else "Plain text.\n")
        project.write(f"notes/n{i:03}.md", f"# Note {i}\n\n{block}", dedent=False)
    result = project.build()
    assert result.error is None
    assert "bb-dashboard" in result.article(f"notes/n{count - 1:03}/")
    made = log.read_text(encoding="utf-8").split()
    assert sorted(made[0::2]) == ["bases", "dataview"], made
    assert set(made[1::2]) == {str(os.getpid())}, made


def test_an_embed_of_a_view_that_does_not_exist(project: Project) -> None:
    _vault(project, "# Home\n\nText.\n\n![[Library.base#Nope]]\n")
    result = project.build()
    assert "Library.base has no view named &#39;Nope&#39;" in result.article("")
    assert [line.split(": ")[0] for line in diagnostic_lines(result, "base-error")] == [
        "WARNING docs/index.md:5:1"]


def test_an_engine_bug_is_an_error_box_not_a_broken_page(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(bases, "evaluate", broken)
    monkeypatch.setattr(dv, "run", broken)
    _vault(project, "# Home\n\n```dataview\nLIST\n```\n\n```base\nviews:\n  - type: list\n"
                    "```\n\nAfter.\n")
    result = project.build()
    page = result.article("")
    assert page.count("bb-dashboard-error") == 2 and "<p>After.</p>" in page
    assert [line.split(": ")[:2] for line in diagnostic_lines(result)
            if "docs/index.md" in line] == [["WARNING docs/index.md:4:1", "dataview-error"],
                                            ["WARNING docs/index.md:8:1", "base-error"]]


def test_hostile_names_in_a_base_file_are_text(project: Project) -> None:
    _vault(project, "# Home\n")
    project.write("Evil.base", f"properties:\n  note.rating:\n    displayName: \"{HOSTILE}\"\n"
                               f"views:\n  - type: table\n    name: \"{HOSTILE}\"\n"
                               "    order: [file.name, rating]\n", dedent=False)
    result = project.build()
    page = result.article("Evil.base/")
    assert HOSTILE not in page
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 2  # view name, header


def test_an_alias_bomb_in_a_note_is_read_once_by_both_engines(project: Project) -> None:
    """YAML aliases share values: "billion laughs" (nine levels of ten references) is
    small once frozen, and the engines' records walk each shared value once (walked
    reference by reference, a build with a dashboard did not end)."""
    lines = ["---", 'l0: &l0 ["lol", "lol"]']
    for level in range(1, 10):
        refs = ", ".join([f"*l{level - 1}"] * 10)
        lines.append(f"l{level}: &l{level} [{refs}]")
    lines += ["tags: [bomb]", "---", "# Bomb", ""]
    project.write("bomb.md", "\n".join(lines) + "\n", dedent=False)
    project.write("dash.md", "# Dash\n\n```dataview\nLIST FROM #bomb\n```\n\n"
                             "```base\nfilters: file.hasTag(\"bomb\")\nviews:\n"
                             "  - type: table\n    order: [file.name]\n```\n")
    result = project.build()
    assert result.error is None
    assert result.article("dash/").count(">Bomb<") + result.article("dash/").count(">bomb<") >= 2


@pytest.mark.parametrize(("value", "shown"), [
    (3.3333333333333335, "3.333"), (2.0005, "2.001"), (-2.0005, "-2.001"), (0.1 + 0.2, "0.3"),
    (1.5, "1.5"), (4.0, "4"), (-0.0001, "0"), (1234567.891234, "1234567.891"),
    (1e-7, "0"), (1e21, "1e+21"), (float("inf"), "Infinity")])
def test_a_default_summary_shows_three_decimals_at_most(value: float, shown: str) -> None:
    from beliefbase.site.dashboards import summary_number

    assert summary_number(value) == shown


def test_summaries_print_numbers_as_obsidian_does(project: Project) -> None:
    """Average, Median, Stddev and a Sum of fractions: at most three decimals; a
    custom summary shows what its formula gives (it rounds itself)."""
    for name, score in (("a", 1), ("b", 2), ("c", 2), ("d", 0.1), ("e", 0.2), ("f", 0)):
        project.write(f"{name}.md", f"---\ntags: [x]\nscore: {score}\n---\n# {name}\n",
                      dedent=False)
    def fence(summary: str, custom: str = "") -> str:
        return (f"```base\nfilters: file.hasTag(\"x\")\n{custom}views:\n  - type: table\n"
                f"    order: [score]\n    summaries:\n      score: {summary}\n```\n\n")

    project.write("index.md", "# Home\n\n" + "".join(
        fence(name) for name in ("Average", "Sum", "Median", "Stddev"))
        + fence("raw", "summaries:\n  raw: values.mean()\n")
        + fence("mine", "summaries:\n  mine: values.mean().round(1)\n"), dedent=False)
    result = project.build()
    assert result.error is None, result.error
    shown = re.findall(r'<span class="bb-summary-name">([^<]*)</span> ([^<]*)</td>',
                       result.article(""))
    raw = bases.format_value(math.fsum([1, 2, 2, 0.1, 0.2, 0]) / 6)  # JavaScript's full float
    assert raw == "0.8833333333333333"
    assert shown == [("Average", "0.883"), ("Sum", "5.3"), ("Median", "0.6"),
                     ("Stddev", "0.853"), ("raw", raw), ("mine", "0.9")]


def test_a_task_shows_its_text_as_its_page_renders_the_line(project: Project) -> None:
    """Emphasis, code, a link with its target's title today, a tag, math and inline
    fields: the same HTML (and classes) as the note's own page; a line that would
    start a block stays a line; raw HTML is text."""
    _vault(project, "# Home\n")
    project.write("dune.md", "---\ntitle: The Dune Book\n---\n# Dune\n", dedent=False)
    project.write("tasks/rich.md", (
        "# Rich\n\n"
        "- [ ] read *Dune* with `code` and [[dune]] #book/scifi $x^2$ [due:: 2026-01-02] "
        "(prio:: high) [[nowhere]] ^blk\n"
        "- [ ] # not a heading\n"
        f"- [x] {HOSTILE} & [a link](../dune.md)\n"
        "- [/] half done\n"), dedent=False)
    # a note whose lines are all inline Markdown: converted at once
    project.write("tasks/plain.md", "# Plain\n\n- [ ] first #home, *then* [[dune|the book]]\n"
                                    "- [ ] then $a$ and `b` [k:: v]\n  - [x] sub [[nowhere]]\n",
                  dedent=False)
    project.write("tasks/dash.md", "# Dash\n\n```dataview\nTASK WHERE file.name = \"rich\"\n"
                                   "```\n\n```dataview\nTASK WHERE file.name = \"plain\"\n```\n",
                  dedent=False)
    result = project.build()
    assert result.error is None, result.error
    plain_page = re.findall(r'<li class="task-list-item"[^>]*><label class="task-list-control">'
                            r".*?</label> (.*?)(?:<ul|</li>)", result.article("tasks/plain/"),
                            re.S)
    plain = re.findall(r'<span class="bb-task-text">(.*?)</span>(?:<ul|</li>)',
                       _dashboards(result.article("tasks/dash/"))[1], re.S)
    assert len(plain) == 3 and [p.strip() for p in plain_page] == plain
    assert '<a class="bb-tag"' in plain[0] and "<em>then</em>" in plain[0]
    page = re.findall(r'<li class="task-list-item"[^>]*><label class="task-list-control">'
                      r".*?</label> (.*?)</li>", result.article("tasks/rich/"), re.S)
    shown = re.findall(r'<span class="bb-task-text">(.*?)</span></li>',
                       _dashboards(result.article("tasks/dash/"))[0], re.S)
    assert len(page) == 3 and len(shown) == 4, shown
    assert shown[0] == page[0]
    for part in ("<em>Dune</em>", "<code>code</code>", '<a class="bb-link" ',
                 'href="../../dune/">The Dune Book</a>', '<a class="bb-tag" ',
                 '<span class="bb-math"><math', '<span class="dataview inline-field">',
                 "January 02, 2026", 'class="bb-link bb-unresolved"'):
        assert part in shown[0], part
    assert "blk" not in shown[0]
    assert shown[1] == "# not a heading"
    assert shown[2] == ("&lt;script&gt;alert(1)&lt;/script&gt; &amp; "
                        '<a href="../../dune/">a link</a>')
    # the page's task markup, so the theme draws the boxes; a custom status as there
    dash = _dashboards(result.article("tasks/dash/"))[0]
    assert dash.count('<label class="task-list-control">') == 4
    assert ('<li class="task-list-item is-checked task-in-progress" data-task="/">'
            '<label class="task-list-control"><input type="checkbox" '
            'class="task-list-item-checkbox" disabled checked><span '
            'class="task-list-indicator" data-task="/"></span></label>') in dash

"""Issue 31: under ``mkdocs serve`` (``--dirty`` or plain) a page showing queries (Cypher,
a base, a Dataview table) is rendered again only when one of its results changed
(``QueryPages.shown``: the digests of its results); either way the site equals a
clean build byte for byte."""

from __future__ import annotations

import multiprocessing
import shutil
import threading
import time
from pathlib import Path

from tests.conftest import Project
from tests.site.test_dirty import EXPLORER, _same_as_clean, serve  # noqa: F401 - a fixture
from tests.site.test_incremental import site_files

DASH = """\
# Dash

```query view=table
MATCH (p:Task) RETURN p.title, p.stage ORDER BY p.title
```

```base
filters: file.hasTag("task")
views:
  - type: table
    order: [file.name, stage]
```

```dataview
TABLE stage FROM #task SORT file.name
```

```dataview
TASK FROM #task
```

```query
MATCH (p:Task) RETURN p.nope(
```
"""

QUERY_NOTE = "---\nschema: Query\nquery: MATCH (p:Task) RETURN p.title, p.stage\n---\n# Stages\n"
TASKS_BASE = ('filters: file.hasTag("task")\nviews:\n  - type: table\n    name: All\n'
              "    order: [file.name, stage]\n")


def _task(stage: str, more: str = "") -> str:
    return (f"---\nschema: Task\ntags: [task]\nstage: {stage}\n---\n# Two\n\nText.\n\n"
            f"- [ ] Ask [[one]] about *it*\n{more}")


def _stamps(site: Path, pages: list[str]) -> dict[str, tuple[int, int]]:
    return {page: ((site / page).stat().st_mtime_ns, (site / page).stat().st_ino)
            for page in pages}


def test_a_save_renders_a_dashboard_again_only_when_a_result_changed(
        project: Project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    project.write("dash.md", DASH, dedent=False)
    project.write("stages.md", QUERY_NOTE, dedent=False)
    project.write("Tasks.base", TASKS_BASE, dedent=False)
    project.write("one.md", "---\nschema: Task\ntags: [task]\nstage: open\n---\n# One\n",
                  dedent=False)
    project.write("two.md", _task("done"), dedent=False)
    session = serve(plugins=EXPLORER)
    first = session.build()
    assert first.error is None
    site = first.site
    shown = ["dash/index.html", "stages/index.html", "Tasks.base/index.html"]
    for page in shown:
        assert ">done<" in (site / page).read_text(encoding="utf-8"), page
    assert "query-error" in (site / "dash" / "index.html").read_text(encoding="utf-8") or \
        "failed" in (site / "dash" / "index.html").read_text(encoding="utf-8")
    assert "Ask" in (site / "dash" / "index.html").read_text(encoding="utf-8")
    before = _stamps(site, shown)
    time.sleep(0.05)

    # a body edit no result shows: the dashboards' outputs are left alone
    project.write("two.md", _task("done", "\nMore text.\n"), dedent=False)
    second = session.build()
    assert second.error is None
    assert "More text." in second.article("two/")
    assert _stamps(site, shown) == before
    _same_as_clean(project, second, tmp_path, session)
    time.sleep(0.05)

    # a property every query shows: each dashboard is rendered again
    project.write("two.md", _task("reopened", "\nMore text.\n"), dedent=False)
    third = session.build()
    assert third.error is None
    after = _stamps(site, shown)
    for page in shown:
        assert after[page] != before[page], page
        text = (site / page).read_text(encoding="utf-8")
        assert ">reopened<" in text and ">done<" not in text, page
    _same_as_clean(project, third, tmp_path, session)


def test_a_page_whose_results_cannot_be_digested_renders_at_every_save(
        project: Project, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An error while digesting (a bug, not a failing query: that is an error box) fails
    no build: the page is rendered again at every save, as before digests."""
    from beliefbase.site.markdown.query_embeds import QuerySite

    def broken(self, doc, read_text):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug")

    monkeypatch.setattr(QuerySite, "digest", broken)
    project.write("dash.md", DASH, dedent=False)
    project.write("one.md", "---\nschema: Task\ntags: [task]\nstage: open\n---\n# One\n",
                  dedent=False)
    project.write("two.md", _task("done"), dedent=False)
    first = project.build(dirty=True, plugins=EXPLORER)
    assert first.error is None
    before = _stamps(first.site, ["dash/index.html"])
    time.sleep(0.05)
    project.write("two.md", _task("done", "\nMore text.\n"), dedent=False)
    second = project.build(dirty=True, plugins=EXPLORER)
    assert second.error is None
    assert _stamps(second.site, ["dash/index.html"]) != before
    _same_as_clean(project, second, tmp_path, plugins=EXPLORER)


# -- the Bases and Dataview data kept between saves (KeptDashboardData) ---------------------

BOARD = """\
---
focus: done
---
# Board

```query view=table
MATCH (n:Note) WHERE list_contains(n.tags, 'task') RETURN n.title, n.tags ORDER BY n.title
```

```query view=table
MATCH (n:Note) WHERE n.title = 'Two' RETURN n.title, n.stage, 1.0, true
```

```base
filters: file.hasTag("task")
formulas:
  ins: file.backlinks.length
  boss: owner.asFile().size
views:
  - type: table
    order: [file.name, stage, owner, team, formula.ins, formula.boss]
```

```dataview
TABLE stage, effort, owner, team[0].lead AS lead, length(file.inlinks) AS ins,
  file.etags AS tags, owner.file.size AS boss
FROM #task SORT file.name
```

```dataview
LIST stage FROM #task SORT file.name
```

```dataview
LIST FROM #task WHERE stage = this.focus SORT file.name
```

```base
filters:
  and:
    - file.hasTag("task")
    - stage == this.focus
views:
  - type: list
    order: [file.name, stage]
```

![[Tasks.base]]

```dataview
TASK FROM #task
```

`= length(filter(file.inlinks, (x) => true))` pages link here.
"""


def _note(name: str, stage: str, *, tags: str = "[task]", body: str = "") -> str:
    return (f"---\ntags: {tags}\nstage: {stage}\nowner: \"[[alice]]\"\n"
            f"team:\n  - lead: \"[[alice]]\"\n---\n# {name}\n\n"
            f"effort:: 3\n\n- [ ] Do {name}\n{body}")


def _board_vault(project: Project) -> None:
    project.write("board.md", BOARD, dedent=False)
    project.write("Tasks.base", TASKS_BASE, dedent=False)
    project.write("alice.md", "# Alice\n\nOwns things.\n", dedent=False)
    project.write("one.md", _note("One", "open"), dedent=False)
    project.write("two.md", _note("Two", "done", body="See [[one]].\n"), dedent=False)
    project.write("three.md", _note("Three", "open", tags="[idea]"), dedent=False)
    project.write("plain.md", "# Plain\n\nNothing to show.\n", dedent=False)


#: saves, each followed by a comparison with a clean build: (what, path, its new text,
#: or None to delete it)
SAVES: list[tuple[str, str, str | None]] = [
    ("a body edit no result shows", "plain.md", "# Plain\n\nStill nothing.\n"),
    ("an inline field", "one.md", _note("One", "open").replace("effort:: 3", "effort:: 8")),
    ("a tag added", "three.md", _note("Three", "open", tags="[idea, task]")),
    ("a link that changes a backlink count", "plain.md", "# Plain\n\nAbout [[two]].\n"),
    ("a tag removed", "three.md", _note("Three", "open", tags="[idea]")),
    ("a body edit of a shown note", "two.md",
     _note("Two", "done", body="See [[one]].\n\nMore.\n")),
    ("the board's own property (a base reads this)", "board.md",
     BOARD.replace("focus: done", "focus: open")),
    ("a linked note's text (a value's link reaches it)", "alice.md",
     "# Alice\n\nOwns many things.\n"),
    ("a new note", "four.md", _note("Four", "open", body="Like [[two]].\n")),
    ("a renamed note: a value's link resolves elsewhere", "alice.md", None),
    ("... its new name", "people/alice.md", "# Alice\n\nMoved.\n"),
    ("a deleted note", "one.md", None),
    ("a task checked", "two.md",
     _note("Two", "done", body="See [[one]].\n\nMore.\n").replace("- [ ]", "- [x]")),
    ("a property", "two.md", _note("Two", "reopened", body="See [[one]].\n\nMore.\n")),
]


def test_a_save_keeps_the_dashboards_data_and_matches_a_clean_build(
        project: Project, serve, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Every save that changes (or not) a base's, a Dataview table's, a TASK list's and
    an inline query's result: the site equals a clean build's byte for byte, and the
    engines' data was brought up to date rather than made anew.

    The clean builds come after the session: one in the middle, in this process,
    would give the serve session a new compiler (MkDocs keeps one plugin per process),
    whose new documents would have every record made again, hiding what is kept."""
    from beliefbase.site.dashboard_data import KeptDashboardData

    sessions: list[KeptDashboardData] = []
    made = KeptDashboardData.vault_files

    def spied(self, compiled):  # type: ignore[no-untyped-def]
        sessions.append(self)
        return made(self, compiled)

    monkeypatch.setattr(KeptDashboardData, "vault_files", spied)
    _board_vault(project)
    session = serve(plugins=EXPLORER)
    assert session.build().error is None
    served: list[tuple[str, Path, dict[str, bytes]]] = []
    for what, path, text in SAVES:
        time.sleep(0.02)
        if text is None:
            (project.root / "docs" / path).unlink()
        else:
            project.write(path, text, dedent=False)
        built = session.build()
        assert built.error is None, what
        _written()
        snapshot = tmp_path / f"save-{len(served)}"
        shutil.copytree(project.root / "docs", snapshot / "docs")
        served.append((what, snapshot, _site(built.site)))
    # each save updated the Dataview index, and the Bases records unless names changed
    # (a new, a renamed, a deleted note: 4 saves)
    assert len({id(kept) for kept in sessions}) == 1
    assert sessions[-1].updates >= 2 * len(SAVES) - 4
    assert sessions[-1].reused > 0  # a view's HTML shown again
    session.close()
    for what, snapshot, got in served:
        clean = type(project)(snapshot, project.config).build(plugins=EXPLORER)
        want = _site(clean.site)
        assert sorted(got) == sorted(want), what
        assert [k for k in got if got[k] != want[k]] == [], what


def _written() -> None:
    """Wait for the search index a serve build writes in the background."""
    for child in multiprocessing.active_children():
        if child.name == "beliefbase-search-index":
            child.join(60)
    for thread in threading.enumerate():
        if thread.name == "beliefbase-search-index":
            thread.join(60)


def _site(site: Path) -> dict[str, bytes]:
    """The pages and JSON files of a site (the search index aside: its order may
    differ after a rebuild, as ``_same_as_clean`` says)."""
    return {k: v for k, v in site_files(site).items() if k != "search/search_index.json"}


def test_a_kept_cypher_result_is_the_same_type_for_type() -> None:
    """``1``, ``1.0`` and ``True`` are equal in Python and render differently: a result
    holding one where the last held another is not the same (nor ``-0.0`` and ``0.0``,
    nor a mapping's keys in another order)."""
    from beliefbase.site.dashboard_data import same_values

    assert same_values(((1, "a", {"x": [1.5]}),), ((1, "a", {"x": [1.5]}),))
    for a, b in [(1, 1.0), (1, True), (0.0, -0.0), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
                 ((1,), [1]), ((1, 2), (1,))]:
        assert not same_values(a, b), (a, b)


def test_other_options_let_everything_kept_go() -> None:
    """An edited ``mkdocs.yml`` (the plugin's options differ) may change what a
    result shows: the next build keeps nothing of the last."""
    from beliefbase.site.dashboard_data import KeptDashboardData

    kept = KeptDashboardData()
    kept.configured("a")
    kept.names, kept.cypher["k"] = 3, ((), (), None)  # type: ignore[assignment]
    kept.configured("a")
    assert kept.names == 3 and "k" in kept.cypher
    kept.configured("b")
    assert kept.names == 0 and not kept.cypher and kept.options == "b"

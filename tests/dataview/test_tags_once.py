"""Tags read once (issue 27): a list item's tags are the compile's tags
(``codecs.markdown.tag_names``), and nested tags expand one way everywhere
(``ids.tag_parents``: Bases' ``hasTag``, Dataview's ``file.tags``/``FROM #a``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from beliefbase import bases
from beliefbase.dataview import evaluate_inline, index_from_compiled, run
from beliefbase.ids import tag_parents

from tests.conftest import Project

NOW = dt.datetime(2025, 5, 27)


def test_an_items_tags_are_the_compiles(project: Project) -> None:
    """A bug found on the way: a task's ``#2024`` was a tag to Dataview's list items
    (a tag needs a letter: the compile, Obsidian and the note's own tags say no)."""
    project.write("Plan.md", "# Plan\n\n- [ ] pay #2024 bill #proj/x/y\n")
    compiled = project.compile()
    assert compiled.documents["Plan.md"].tags == ("proj/x/y",)
    docs = Path(compiled.options.docs_dir)
    index = index_from_compiled(compiled, lambda p: (docs / p).read_text(encoding="utf-8"))
    assert evaluate_inline("this.file.tasks[0].tags", index, "Plan.md", now=NOW) == (
        "#proj/x/y",)
    assert evaluate_inline("this.file.tags", index, "Plan.md", now=NOW) == (
        "#proj", "#proj/x", "#proj/x/y")
    assert [r.id.path for r in run("LIST FROM #proj/x", index, None, now=NOW).rows] == [
        "Plan.md"]
    records = bases.records_from_compiled(compiled)
    assert records.by_path["Plan.md"].tag_keys == frozenset(tag_parents("proj/x/y"))


def test_tag_parents() -> None:
    assert tag_parents("#a/B/c") == ("a", "a/B", "a/B/c")
    assert tag_parents("a") == ("a",)

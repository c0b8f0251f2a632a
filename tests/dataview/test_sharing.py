"""The engines' data costs little: values the compile froze are shared, not
copied, and a note's links, tasks and list items become objects only when a
query reads them (issue 27's memory goal)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from beliefbase.dataview import build_index, run
from beliefbase.dataview.index import FileObject
from beliefbase.dataview.records import is_frozen, record_from_markdown, records_from_compiled
from beliefbase.frozen import FrozenDict

NOW = dt.datetime(2022, 3, 1)


def _index(project):  # type: ignore[no-untyped-def]
    project.write("notes/Alpha.md", "---\ntags: [proj]\nstatus: open\n---\n# Alpha\n\n"
                  "See [[Beta]].\n\n- [ ] ship it [due:: 2022-01-02]\n- a list item\n")
    project.write("notes/Beta.md", "# Beta\n\nBack to [[Alpha]].\n")
    compiled = project.compile()
    docs = Path(compiled.options.docs_dir)
    records = records_from_compiled(
        compiled, lambda p: (docs / p).read_text(encoding="utf-8"),
        lambda p: (dt.datetime(2022, 1, 1), dt.datetime(2022, 2, 1)))
    return compiled, records, build_index(records)


def test_the_compiles_frontmatter_is_shared_not_copied(project) -> None:  # type: ignore[no-untyped-def]
    compiled, records, _ = _index(project)
    alpha = next(r for r in records if r.path == "notes/Alpha.md")
    assert alpha.frontmatter is compiled.documents["notes/Alpha.md"].meta


def test_a_frontmatter_not_frozen_is_frozen() -> None:
    meta = {"tags": ["a", "b"], "nested": {"x": [1]}}
    record = record_from_markdown("A.md", "text\n", meta)
    assert record.frontmatter == FrozenDict({"tags": ("a", "b"),
                                             "nested": FrozenDict({"x": (1,)})})
    assert not is_frozen(meta) and is_frozen(record.frontmatter)
    assert not is_frozen(FrozenDict({1: "a number as a key"}))  # keys become text
    deep: object = "leaf"
    for _ in range(60):
        deep = (deep,)
    assert not is_frozen(deep)  # freeze_value cuts it off


def test_list_items_become_objects_only_when_a_query_reads_them(project) -> None:  # type: ignore[no-untyped-def]
    _, _, index = _index(project)
    result = run("TABLE status FROM #proj", index, None, now=NOW)
    assert [r.values for r in result.rows] == [("open",)]
    assert index._items == {}  # no query read a task or a list item yet
    tasks = run("TASK WHERE !completed", index, None, now=NOW)
    assert [e.item.text for e in tasks.tasks[0].tasks] == ["ship it [due:: 2022-01-02]"]
    assert index._items["notes/Beta.md"] == ()  # TASK read every note's items
    assert len(index._items["notes/Alpha.md"]) == 2
    lists = run('TABLE length(file.lists) AS n, length(file.tasks) AS t FROM "notes"',
                index, None, now=NOW)
    assert [r.values for r in lists.rows] == [(2, 1), (0, 0)]


def test_a_file_object_reads_as_every_field(project) -> None:  # type: ignore[no-untyped-def]
    _, _, index = _index(project)
    file = index.rows["notes/Alpha.md"]["file"]
    assert isinstance(file, FileObject)
    assert list(file)[:5] == ["name", "folder", "path", "ext", "link"]
    assert len(file) == len(list(file)) == len(dict(file))
    assert [link.path for link in file["inlinks"]] == ["notes/Beta.md"]
    assert [link.path for link in file["outlinks"]] == ["notes/Beta.md"]
    assert [t["text"] for t in file["tasks"]] == ["ship it [due:: 2022-01-02]"]
    assert "lists" in file and "nothing" not in file and file.get("nothing", 1) == 1
    assert file == dict(file) and file != index.rows["notes/Beta.md"]["file"]
    result = run('TABLE file.name, file.inlinks FROM "notes" WHERE file.inlinks', index,
                 None, now=NOW)
    assert [r.values[0] for r in result.rows] == ["Alpha", "Beta"]


def test_release_breaks_the_cycle_of_rows_and_index(project) -> None:  # type: ignore[no-untyped-def]
    import gc
    import weakref

    _, _, index = _index(project)
    run("TASK WHERE !completed", index, None, now=NOW)
    assert index.task_rows  # the TASK rows are the index's, not a module's
    gone = weakref.ref(index)
    index.release()
    gc.disable()
    try:
        del index
        assert gone() is None  # freed by reference counting, no collection needed
    finally:
        gc.enable()

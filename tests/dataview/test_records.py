"""Page records from a real compile: published notes only, the compile's tags
and resolved links, inline fields and tasks from the note's body."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from beliefbase.dataview import build_index, run
from beliefbase.dataview.records import records_from_compiled


def test_records_from_compiled(project) -> None:  # type: ignore[no-untyped-def]
    project.write("notes/Alpha.md", "---\ntags: [proj/x]\nstatus: open\n---\n# Alpha\n\n"
                  "Rating:: 7\nSee [[Beta]].\n\n- [ ] ship it [due:: 2022-01-02]\n")
    project.write("notes/Beta.md", "# Beta\n#other\n")
    project.write("notes/Secret.md", "---\ndraft: true\n---\nlinks [[Alpha]]\n")
    compiled = project.compile()
    docs = Path(compiled.options.docs_dir)
    records = records_from_compiled(
        compiled, lambda p: (docs / p).read_text(encoding="utf-8"),
        lambda p: (dt.datetime(2022, 1, 1), dt.datetime(2022, 2, 1)))
    assert [r.path for r in records] == ["notes/Alpha.md", "notes/Beta.md"]
    index = build_index(records)
    result = run("TABLE status, Rating, file.tags, file.outlinks, file.inlinks FROM #proj",
                 index, None, now=dt.datetime(2022, 3, 1))
    (row,) = result.rows
    status, rating, tags, outlinks, inlinks = row.values
    assert (status, rating, tags) == ("open", 7, ("#proj", "#proj/x"))
    assert [link.path for link in outlinks] == ["notes/Beta.md"]
    assert inlinks == ()  # the draft's link is not data
    tasks = run("TASK WHERE due < date(today)", index, None, now=dt.datetime(2022, 3, 1))
    assert [e.item.text for e in tasks.tasks[0].tasks] == ["ship it [due:: 2022-01-02]"]
    assert tasks.tasks[0].tasks[0].item.line == 10


def test_records_read_inline_fields_from_the_compile(project) -> None:  # type: ignore[no-untyped-def]
    """One reader: the fields are the compile's (``ParsedDoc.inline_fields``), not
    parsed again from the text the site hands over."""
    project.write("Gamma.md", "# Gamma\n\nRating:: 7\nA [mood:: calm] day (due:: 2022-01-02).\n")
    compiled = project.compile()
    parsed = compiled.documents["Gamma.md"].parsed.inline_fields
    assert [(f.key, f.value, f.line, f.column) for f in parsed] == [
        ("Rating", 7, 3, 1), ("mood", "calm", 4, 3), ("due", dt.datetime(2022, 1, 2), 4, 21)]
    (record,) = records_from_compiled(compiled, lambda p: "# Gamma\n\nno fields here\n",
                                      lambda p: (None, None))
    assert record.inline_fields == parsed


def test_an_item_whose_text_starts_with_code_or_math_keeps_it() -> None:
    from beliefbase.dataview.items import extract_items
    items = extract_items("- [ ] $a$ and x\n- `code` first\n- [x] **b** done\n```\n- no item\n```\n")
    assert [(i.text, i.status) for i in items] == [
        ("$a$ and x", " "), ("`code` first", None), ("**b** done", "x")]

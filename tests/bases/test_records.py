"""records_from_compiled: a compile as the files a base sees (published only)."""

from __future__ import annotations

import datetime as dt

from beliefbase.bases import Date, evaluate, parse_base
from beliefbase.bases.records import records_from_compiled

from tests.conftest import Project


def test_records_from_a_compile(project: Project) -> None:
    project.write("Books/Dune.md", "---\nauthor: \"[[Frank]]\"\nprice: 10\n"
                  "created: 2025-01-02\ntags: [book]\n---\n# Dune\n\nSee [[Frank]] and "
                  "[[Secret]] and #scifi/classic.\n\n![[cover.png]]\n")
    project.write("People/Frank.md", "# Frank\n\nWrote [[Dune]].\n")
    project.write("Secret.md", "---\ndraft: true\n---\n# Secret\n\nLinks [[Dune]].\n")
    project.write("cover.png", b"\x89PNG\r\n\x1a\n")
    records = records_from_compiled(project.compile())
    assert [r.path for r in records.records] == [
        "Books/Dune.md", "People/Frank.md", "cover.png"]  # never the draft
    dune = records.by_path["Books/Dune.md"]
    assert (dune.name, dune.basename, dune.folder, dune.ext) == ("Dune.md", "Dune", "Books", "md")
    assert dune.size > 0
    assert dune.tags == ("book", "scifi/classic")
    assert dune.properties["price"] == 10
    assert dune.properties["author"].target == "Frank"
    assert dune.ctime == Date(dt.datetime(2025, 1, 2)) and dune.mtime is None
    assert [(link.target, link.path) for link in dune.links] == [
        ("Frank", "People/Frank.md"), ("Secret", None),  # a draft is no target
        ("Frank", "People/Frank.md")]  # the frontmatter link, after the body's
    assert [(link.target, link.path) for link in dune.embeds] == [("cover.png", "cover.png")]
    assert [link.path for link in dune.backlinks] == ["People/Frank.md"]  # not the draft's

    base = parse_base('filters: file.hasLink("Frank") || file.ext == "png"\n'
                      "views: [{type: table, order: [file.name, author]}]\n", "B.base")
    result = evaluate(base, None, records, now=dt.datetime(2025, 5, 27))
    assert [r.record.name for r in result.rows] == ["cover.png", "Dune.md"]
    assert result.rows[1].cells[1].path == "People/Frank.md"


def test_records_share_the_compiles_values(project: Project) -> None:
    """Unchanged frontmatter is the compile's own; equal links are one object."""
    project.write("A.md", "---\nstatus: open\ntags: [x, y]\n---\n# A\n\n[[B]] and [[B]].\n")
    project.write("B.md", "---\ncreated: 2025-01-02\n---\n# B\n\n[[A]]\n")
    compiled = project.compile()
    records = records_from_compiled(compiled)
    a, b = records.by_path["A.md"], records.by_path["B.md"]
    assert a.properties is compiled.documents["A.md"].meta
    assert a.properties["tags"] is compiled.documents["A.md"].meta["tags"]
    assert b.properties is not compiled.documents["B.md"].meta  # a date became a Date
    assert b.properties["created"] == Date(dt.datetime(2025, 1, 2))
    assert a.links[0] is a.links[1] and a.links[0].path == "B.md"
    assert [link.path for link in b.backlinks] == ["A.md"]

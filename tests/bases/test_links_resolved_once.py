"""Links resolved once (issue 27): a base's links go where the page's links go.

The compile's resolver decides what a link points to (``builder.resolve``: the
nearest of two notes of one name, titles and aliases too); Bases reads its answer
for the note's links, its properties' links and the links a query makes, never
a tie-break of its own.  Before, a property ``[[Note]]`` in ``b/Src.md`` went to
``a/Note.md`` (the alphabetically first) while the page's ``[[Note]]`` went to
``b/Note.md``, and ``[[Nick]]`` (an alias) went nowhere.
"""

from __future__ import annotations

import datetime as dt

from beliefbase.bases import evaluate, parse_base
from beliefbase.bases.records import records_from_compiled

from tests.conftest import Project

NOW = dt.datetime(2025, 5, 27)


def _vault(project: Project) -> None:
    project.write("a/Note.md", "# Note A\n\n## Part\n")
    project.write("b/Note.md", "# Note B\n\n## Part\n")
    project.write("People/Frank.md", "---\naliases: [Nick]\n---\n# Frank\n")
    project.write("b/Src.md", '---\nrelated: "[[Note]]"\nfriend: "[[Nick]]"\n'
                  'part: "[[Note#Part|the part]]"\n---\n# Src\n\n'
                  "See [[Note]], [[Nick]] and [[Note#Part|the part]].\n")


def test_property_links_go_where_the_pages_links_go(project: Project) -> None:
    _vault(project)
    compiled = project.compile()
    page = [(r.link.target, r.target) for r in compiled.links["b/Src.md"]
            if r.link.form == "wikilink"]
    assert page == [("Note", "b/Note.md"), ("Nick", "People/Frank.md"),
                    ("Note", "b/Note.md")]
    records = records_from_compiled(compiled)
    src = records.by_path["b/Src.md"]
    assert [link.path for link in src.links[:3]] == [t for _, t in page]
    base = parse_base('filters: file.path == "b/Src.md"\nformulas:\n  made: link("Note")\n'
                      "views: [{type: table, order: [related, friend, part, formula.made]}]\n",
                      "b/Q.base")
    (row,) = evaluate(base, None, records, src, now=NOW).rows
    assert [cell.path for cell in row.cells] == [
        "b/Note.md", "People/Frank.md", "b/Note.md", "b/Note.md"]
    assert row.cells[2].display == "the part"


def test_link_equality_uses_the_compiles_answer(project: Project) -> None:
    _vault(project)
    records = records_from_compiled(project.compile())
    src = records.by_path["b/Src.md"]
    expected = {"this.related == file.asLink()": ["b/Note.md"],
                'file.asLink() == link("Note")': ["b/Note.md"],
                'file.asLink() == "Note"': ["b/Note.md"],
                "this.file.hasLink(file)": ["People/Frank.md", "b/Note.md"]}
    for expr, paths in expected.items():
        base = parse_base(f"filters: '{expr}'\nviews: [{{type: table}}]\n", "b/Q.base")
        rows = evaluate(base, None, records, src, now=NOW).rows
        assert [r.record.path for r in rows] == paths, expr

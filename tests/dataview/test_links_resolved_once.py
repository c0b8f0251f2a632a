"""Links resolved once (issue 27): a query's links go where the page's links go.

The compile's resolver decides what a link points to (``builder.resolve``: the
nearest of two notes of one name, titles and aliases too); Dataview reads its
answer for ``file.outlinks``/``file.inlinks``, field values, list items,
``FROM [[x]]``, ``[[x]]`` and ``link()`` in a query, and link equality.  Before,
a field ``[[Note]]`` in ``b/Src.md`` went to ``a/Note.md`` (the shorter, then
alphabetically first path) while the page's ``[[Note]]`` went to ``b/Note.md``,
and ``[[Nick]]`` (an alias) went nowhere.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from beliefbase.dataview import evaluate_inline, index_from_compiled, run

from tests.conftest import Project

NOW = dt.datetime(2025, 5, 27)


def _index(project: Project):  # type: ignore[no-untyped-def]
    project.write("a/Note.md", "# Note A\n\n## Part\n")
    project.write("b/Note.md", "# Note B\n\n## Part\n")
    project.write("People/Frank.md", "---\naliases: [Nick]\n---\n# Frank\n")
    project.write("b/Src.md", '---\nrelated: "[[Note]]"\nfriend: "[[Nick]]"\n---\n# Src\n\n'
                  "See [[Note#Part]] and [[Nick]].\n\nsee:: [[Note#Part]]\n\n"
                  "- an item about [[Note]]\n")
    compiled = project.compile()
    docs = Path(compiled.options.docs_dir)
    page = [r.target for r in compiled.links["b/Src.md"] if r.link.form == "wikilink"]
    assert page == ["b/Note.md", "People/Frank.md", "b/Note.md"]  # the compile's answer
    return index_from_compiled(compiled, lambda p: (docs / p).read_text(encoding="utf-8"))


def test_values_and_query_links_go_where_the_pages_links_go(project: Project) -> None:
    index = _index(project)

    def path(expr: str) -> str:
        return evaluate_inline(expr, index, "b/Src.md", now=NOW).path  # type: ignore[no-any-return]

    assert path("this.related") == "b/Note.md"
    assert path("this.friend") == "People/Frank.md"
    assert path("this.see") == "b/Note.md"
    assert path("[[Note]]") == "b/Note.md"
    assert path('link("Note")') == "b/Note.md"
    assert path("this.file.lists[0].outlinks[0]") == "b/Note.md"
    assert [link.path for link in evaluate_inline("this.file.outlinks", index, "b/Src.md",
                                                  now=NOW)] == ["b/Note.md", "People/Frank.md"]
    assert evaluate_inline("this.related = [[Note]]", index, "b/Src.md", now=NOW) is True


def test_from_a_link_and_inlinks_use_the_compiles_answer(project: Project) -> None:
    index = _index(project)
    linking = run("LIST FROM [[Note]]", index, "b/Src.md", now=NOW)
    assert [r.id.path for r in linking.rows] == ["b/Src.md"]
    outgoing = run("LIST FROM outgoing([[Src]])", index, "b/Src.md", now=NOW)
    assert [r.id.path for r in outgoing.rows] == ["People/Frank.md", "b/Note.md"]
    inlinks = run('LIST WHERE contains(file.inlinks, [[Src]])', index, "b/Src.md", now=NOW)
    assert [r.id.path for r in inlinks.rows] == ["People/Frank.md", "b/Note.md"]
    assert [link.path for link in evaluate_inline("[[Note]].file.inlinks", index, "b/Src.md",
                                                  now=NOW)] == ["b/Src.md"]

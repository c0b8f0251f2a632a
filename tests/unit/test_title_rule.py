"""The title rule (SPEC §4): frontmatter ``title`` -> an H1 that is the note's first
content -> the file name.  An H1 further down is a section, never the title."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Heading One\n\nBody.\n", "Heading One"),
        ("\n\n# After blank lines\n", "After blank lines"),
        ("Heading One\n===========\n\nBody.\n", "Heading One"),
        ("---\ntitle: From Meta\n---\n# Heading\n", "From Meta"),
        ("---\ntags: [a]\n---\n\n# Under frontmatter\n", "Under frontmatter"),
        ("Intro paragraph.\n\n# Late heading\n", "my note"),
        ("## Second level first\n\n# Then a one\n", "my note"),
        ("```\n# not a heading\n```\n\n# Real but late\n", "my note"),
        ("- a list\n\n# Late\n", "my note"),
        ("No heading at all.\n", "my note"),
        ("#\n\nBody\n", "my note"),  # an empty H1 names nothing
    ],
)
def test_title(project, text: str, title: str) -> None:  # type: ignore[no-untyped-def]
    project.write("my note.md", text)
    compiled = project.compile()
    assert compiled.documents["my note.md"].title == title


def test_late_h1_is_a_section(project) -> None:  # type: ignore[no-untyped-def]
    project.write("n.md", "Intro.\n\n# Part One\n\nText.\n")
    doc = project.compile().documents["n.md"]
    assert doc.title == "n"
    assert [s.anchor for s in doc.sections] == ["part-one"]


def test_page_shows_the_title_above_a_late_h1(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "[[Notes]]\n")
    project.write("Notes.md", "Intro text.\n\n# Part One\n\nMore.\n")
    project.write("titled.md", "# Titled\n\nBody.\n")
    result = project.build()
    assert result.error is None
    article = result.article("Notes/")
    assert article.count("<h1") == 2
    assert article.index('<h1 class="bb-title">Notes</h1>') < article.index('id="part-one"')
    assert '>Notes</a>' in result.article("")  # links show the file name, not "Part One"
    titled = result.article("titled/")
    assert titled.count("<h1") == 1 and "bb-title" not in titled

"""Obsidian ``%%comments%%``: removed before anything reads a note, lines kept."""

from __future__ import annotations

import pytest
from beliefbase.codecs.comments import strip_comments
from beliefbase.codecs.markdown import note_text, parse_markdown


def parse(text: str):  # type: ignore[no-untyped-def]
    return parse_markdown("note.md", text.encode(), "docs/note.md")  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), [
    ("no comment here\n", "no comment here\n"),
    ("a %%hidden%% b\n", "a  b\n"),
    ("a%%hidden%%b\n", "ab\n"),
    ("two %%x%% and %%y%% end\n", "two  and  end\n"),
    # alone on its line: the line stays, blank
    ("p\n\n%%hidden%%\n\nq\n", "p\n\n\n\nq\n"),
    # multi-line: every newline kept, so later lines keep their numbers
    ("a\n%%\nline 1\nline 2\n%%\nb\n", "a\n\n\n\n\nb\n"),
    ("before %%starts\nends%% after\n", "before\nafter\n"),
    # unclosed: hidden to the end of the note, newlines kept
    ("shown\n%% never closed\nhidden\n", "shown\n\n\n"),
    ("shown %% never closed", "shown"),
    # no trailing spaces left behind (a hard line break) ...
    ("text  %%c%%\nnext\n", "text\nnext\n"),
    # ... and no leading spaces (an indented code block)
    ("para\n\n%%c%%     not code\n", "para\n\nnot code\n"),
    ("  - item %%c%%\n", "  - item\n"),
    # `%%` in code is text, and a commented-out code block is hidden whole
    ("`%%not a comment%%` x\n", "`%%not a comment%%` x\n"),
    ("```\n%% in a fence\n```\nafter %%gone%%\n", "```\n%% in a fence\n```\nafter\n"),
    ("p\n\n    %% indented code\n", "p\n\n    %% indented code\n"),
    ("%%\n```\ncode %% inside\n```\n%%\nshown\n", "\n\n\n\n\nshown\n"),
    ("<!-- %%html comment%% -->\n", "<!-- %%html comment%% -->\n"),
    # frontmatter is not Markdown
    ("---\ntitle: 50%% off\n---\nbody %%x%%\n", "---\ntitle: 50%% off\n---\nbody\n"),
])
def test_strip_comments(text: str, expected: str) -> None:
    assert strip_comments(text) == expected
    assert strip_comments(text).count("\n") == text.count("\n")


def test_crlf_comments_are_removed_after_newlines_are_normalised() -> None:
    data = b"a %%x%% b\r\n%%\r\nhidden\r\n%%\r\n[[Shown]]\r\n"
    assert note_text(data) == ("a  b\n\n\n\n[[Shown]]\n", True)
    assert [(link.target, link.line) for link in parse(data.decode()).links] == [("Shown", 5)]


def test_links_tags_and_footnotes_in_comments_do_not_count() -> None:
    doc = parse(
        "Text [[Visible]] #seen[^1]\n"
        "%% [[Hidden]] #secret [^2] ![[Embedded]]\n"
        "[^2]: a footnote in a comment %%\n"
        "Inline %%[[AlsoHidden]] #nope%% end [[After]]\n"
        "[^1]: shown\n"
    )
    assert [(link.target, link.line) for link in doc.links] == [("Visible", 1), ("After", 4)]
    assert [tag.name for tag in doc.tags] == ["seen"]
    assert [f.id for f in doc.footnote_refs] == ["1"]
    assert [(f.id, f.line) for f in doc.footnote_defs] == [("1", 5)]


def test_lines_after_a_comment_keep_their_numbers() -> None:
    doc = parse("# Top\n%%\none\ntwo\n%%\n## Below\n[[Target]]\n")
    assert [(h.text, h.line) for h in doc.headings] == [("Top", 1), ("Below", 6)]
    assert doc.links[0].line == 7
    assert doc.line_count == 7

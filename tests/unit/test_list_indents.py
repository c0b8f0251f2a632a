"""Nested lists indented the CommonMark way (two spaces under ``- a``) nest as in Obsidian."""

from __future__ import annotations

import markdown
import pytest
from beliefbase.site.markdown.list_indents import NestedListIndents
from beliefbase.site.markdown.obsidian_markdown import ObsidianMarkdownExtension

from tests.unit.test_obsidian_markdown import render


def lines(text: str) -> list[str]:
    return NestedListIndents(markdown.Markdown()).run(text.split("\n"))


def flat(html: str) -> str:
    return html.replace("\n", "")


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("- a\n  - b\n    - c\n- d", "<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul>"),
        ("1. one\n   1. nested\n2. two", "<ol><li>one<ol><li>nested</li></ol></li><li>two</li></ol>"),
        ("- a\n    - b\n        - c", "<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li></ul>"),
        ("- a\n\n  para in a\n\nafter", "<ul><li><p>a</p><p>para in a</p></li></ul><p>after</p>"),
        ("- a\n\n1. b", "<ul><li>a</li></ul><ol><li>b</li></ol>"),  # sane_lists
    ],
)
def test_nesting(text: str, html: str) -> None:
    assert flat(render(text)) == html


def test_four_space_lists_are_unchanged() -> None:
    text = "- a\n    - b\n        - c\n    more of b\n- d\n\n    para of d"
    assert lines(text) == text.split("\n")


def test_a_fence_moves_with_its_item() -> None:
    got = lines("- item\n  ```py\n  def f():\n      return 1\n  ```\n- next")
    assert got == ["- item", "    ```py", "    def f():", "        return 1", "    ```", "- next"]
    assert "<code>" in render("- item\n  ```py\n  x = 1\n  ```\n- next")


def test_not_lists() -> None:
    for text in ("text\n\n    code block", "* * *", "a - b\n  - c?"):
        assert lines(text) == text.split("\n") or "<li>" in render(text)
    assert lines("text\n\n    code block") == ["text", "", "    code block"]
    # eight spaces under a top-level item: a code block in it, as before
    code = flat(render("- a\n\n        code in a"))
    assert code.startswith("<ul><li>a<div class=\"highlight\"><pre>"), code


def test_inside_callouts(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "> [!note] Steps\n> - a\n>   - b\n>     - c\n")
    result = project.build()
    assert result.error is None
    assert flat(result.article("")).count("<ul>") == 3


def test_registered_with_the_obsidian_rules() -> None:
    md = markdown.Markdown(extensions=[ObsidianMarkdownExtension()])
    assert "bb_nested_list_indents" in md.preprocessors

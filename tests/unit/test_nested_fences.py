"""Fenced code inside callouts, quotes and list items is a code block (issue 16, point 11)."""

from __future__ import annotations

import markdown
import pytest
from beliefbase.site.markdown.callouts import CalloutExtension

CASES = {
    "callout": "> [!note] Code\n> text before\n> ```py\n> print(1 < 2)\n> ```\n> text after\n",
    "quote": "> quote\n> ```\n> q()\n> ```\n",
    "nested quote": "> > ```\n> > deep()\n> > ```\n",
    "tight list": "- item\n  ```py\n  code()\n  ```\n- item2\n",
    "loose list": "1. num\n\n    ```\n    four()\n    ```\n",
    "sub-list indentation": "- a\n  - sub\n  ```\n  at_item()\n  ```\n",
}


@pytest.mark.parametrize("superfences", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_nested_fence_renders_as_pre(name: str, superfences: bool) -> None:
    fences = "pymdownx.superfences" if superfences else "fenced_code"
    html = markdown.Markdown(extensions=[fences, CalloutExtension()]).convert(CASES[name])
    assert "<pre" in html, html
    assert "<p><code>" not in html and "```" not in html
    assert "<p><pre" not in html  # a block of its own, never inside a paragraph


def test_callout_text_around_the_fence_stays_paragraphs() -> None:
    html = markdown.Markdown(extensions=["fenced_code", CalloutExtension()]).convert(
        CASES["callout"])
    assert "<p>text before</p>" in html and "<p>text after</p>" in html
    assert "print(1 &lt; 2)" in html


def test_indented_code_block_with_a_fence_inside_stays_code() -> None:
    text = "Para.\n\n    ```\n    not a fence\n    ```\n"
    html = markdown.Markdown(extensions=["fenced_code", CalloutExtension()]).convert(text)
    assert "<pre><code>```\nnot a fence\n```\n</code></pre>" in html


def test_unclosed_nested_fence_is_left_alone() -> None:
    html = markdown.Markdown(extensions=["fenced_code", CalloutExtension()]).convert(
        "> ```\n> never closed\n")
    assert "<blockquote>" in html and "never closed" in html

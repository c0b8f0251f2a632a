"""``paragraphs_near``: the lines of the paragraphs a quoted sentence can come from."""

from __future__ import annotations

from beliefbase.site.serve.dependents import paragraphs_near

TEXT = "---\ntitle: T\n---\n# T\n\nOne line [[a]].\nwrapped [[b]] on.\n\n  \nOther [[c]].\n"


def test_the_paragraph_of_a_line_and_nothing_across_blank_lines() -> None:
    assert paragraphs_near(TEXT, {6}) == {6, 7}
    assert paragraphs_near(TEXT, {7}) == {6, 7}
    assert paragraphs_near(TEXT, {10}) == {10}  # a line of spaces is blank too
    assert paragraphs_near(TEXT, {6, 10}) == {6, 7, 10}
    assert paragraphs_near(TEXT, set()) == set()


def test_lines_past_the_text_are_kept() -> None:
    assert paragraphs_near("a\n", {5}) == {5}

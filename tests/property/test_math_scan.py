"""Property: the math scanner finds well-formed, disjoint formulas outside code, fast."""

from __future__ import annotations

import time

from beliefbase.codecs.mask import code_and_math, code_only_regions, code_regions, mask
from beliefbase.codecs.math import find_math
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.lists(st.sampled_from(list("$$$\\\n x1>`[]# ") + ["\n\n", "```\n", "[[a]]"]),
                max_size=80).map("".join)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_formulas_are_disjoint_delimited_and_outside_code(text: str) -> None:
    code = code_only_regions(text)
    formulas = find_math(text, code)
    end = 0
    for f in formulas:
        assert end <= f.start < f.end <= len(text)
        assert text[f.start] == "$" and text[f.end - 1] == "$"
        assert not any(s <= f.start < e for s, e in code)
        end = f.end
    assert len(mask(text, code_regions(text))) == len(text)
    # the one-pass reading of code spans and formulas agrees with the code regions
    joint_code, joint = code_and_math(text)
    assert joint_code == code and joint == formulas


HEADINGS = st.lists(st.sampled_from(["$$", "$", "`", "x", "\n", "\n\n", "## H\n", "\n# T\n\n",
                                     "\\text{`a`}"]), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(HEADINGS)
def test_no_formula_swallows_a_heading_set_off_by_blank_lines(text: str) -> None:
    for f in code_and_math(text)[1]:
        inside = text[f.start:f.end]
        assert "\n\n# T\n" not in inside and "\n# T\n\n" not in inside, inside


def test_a_paragraph_full_of_dollars_is_linear() -> None:
    text = ("price $5, " * 20_000) + "\n"
    start = time.perf_counter()
    assert find_math(text, []) == []
    assert time.perf_counter() - start < 1.0

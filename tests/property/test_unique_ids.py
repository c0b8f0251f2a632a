"""Heading ids: ``unique_id`` (counting on from where it stopped) gives exactly the ids
Python-Markdown's ``toc.unique`` gives, in any order of any headings."""

from __future__ import annotations

from beliefbase.builder.documents import unique_id
from hypothesis import given
from hypothesis import strategies as st
from markdown.extensions.toc import unique

SLUGS = st.sampled_from(["same", "same_1", "same_2", "x_3", "x", "", "a_10", "a_9", "a",
                         "b_1_1", "b_1", "b", "c_0", "c_01"])


@given(st.lists(SLUGS, max_size=40))
def test_same_ids_as_toc(slugs: list[str]) -> None:
    ours: set[str] = set()
    theirs: set[str] = set()
    tried: dict[tuple[str, int], int] = {}
    assert [unique_id(s, ours, tried) for s in slugs] == [unique(s, theirs) for s in slugs]

"""The fast searches (names of several words, one-word names) find exactly what
``find_name`` finds."""

from __future__ import annotations

from itertools import islice

from beliefbase.site.reader.mentions import (
    SENTENCES_PER_SOURCE,
    find_name,
    find_spaced,
    single_spaced,
    whole_words,
)
from hypothesis import given
from hypothesis import strategies as st

# few letters, every kind of gap, word and non-word punctuation: many near-misses
TEXT = st.text(alphabet="ab_é. \t\r\n\x00", max_size=80)
WORD = st.text(alphabet="ab_é.", min_size=1, max_size=3)
NAME = st.lists(WORD, min_size=2, max_size=3).map(" ".join)


@given(TEXT, NAME)
def test_same_offsets_as_find_name(text: str, name: str) -> None:
    assert list(find_spaced(text, single_spaced(text), name)) == list(find_name(text, name))


# one-word names of letters and digits (what ``scan_prose`` hands ``whole_words``)
ALNUM = st.text(alphabet="ab\u00e92\u00b2", min_size=1, max_size=3).filter(str.isalnum)


@given(st.text(alphabet="ab\u00e92\u00b2_. \t\n\x00\u0301", max_size=80),
       st.sets(ALNUM, max_size=4))
def test_whole_words_as_find_name(text: str, names: set[str]) -> None:
    found = whole_words(text, names)
    for name in names:
        assert found.get(name, []) == list(islice(find_name(text, name), SENTENCES_PER_SOURCE))


@given(st.text(alphabet="ab. \t\r\n\x0b\x0c\x1c\x1f\x85\u00a0\u3000é", max_size=60))
def test_single_spaced_is_the_gap_regex(text: str) -> None:
    """Split and joined (ASCII text, no other white space) or by the regex: the same."""
    import re

    assert single_spaced(text) == re.sub(r"[ \t\r\n]+", " ", text)

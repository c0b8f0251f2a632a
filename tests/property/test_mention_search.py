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


@given(st.text(alphabet="ab\u00e9_. \n", max_size=400), st.sets(ALNUM, max_size=8))
def test_whole_words_by_search_or_one_pass_agree(text: str, names: set[str]) -> None:
    """Each word looked for with ``str.find``, the rest in one pass once the checks run
    out (short words inside many others): the same offsets as the one pass alone."""
    from beliefbase.site.reader.mentions import _words_in_one_pass

    assert whole_words(text, names) == _words_in_one_pass(text, names)

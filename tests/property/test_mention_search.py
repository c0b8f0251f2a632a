"""The fast search for names of several words finds exactly what ``find_name`` finds."""

from __future__ import annotations

from beliefbase.site.reader.mentions import find_name, find_spaced, single_spaced
from hypothesis import given
from hypothesis import strategies as st

# few letters, every kind of gap, word and non-word punctuation: many near-misses
TEXT = st.text(alphabet="ab_é. \t\r\n\x00", max_size=80)
WORD = st.text(alphabet="ab_é.", min_size=1, max_size=3)
NAME = st.lists(WORD, min_size=2, max_size=3).map(" ".join)


@given(TEXT, NAME)
def test_same_offsets_as_find_name(text: str, name: str) -> None:
    assert list(find_spaced(text, single_spaced(text), name)) == list(find_name(text, name))

"""Property: what a build with none after it scans (``held``: the names a note holds;
``first_places``: where a few of them are) is what ``scan_prose`` finds.

``held`` takes a one-word name's whole words from the text split in C where it is
ASCII (every character that is no word character a space) and ``first_places``
looks for `` name `` in it; the texts mix ASCII and other word characters, ``_``,
control characters, punctuation and every kind of gap.
"""

from __future__ import annotations

from types import SimpleNamespace

from beliefbase.site.reader.mentions import MentionNames, first_places, held, scan_prose
from hypothesis import example, given, settings
from hypothesis import strategies as st

# names of at least ``MIN_NAME`` characters: one word of letters (ASCII or not) and
# digits, acronyms, other one-word names, names of several words
WORDS = ["abc", "cab", "bab", "abé", "a_bc", "drf", "c++", "abc cab", "cab  abc", "abc-cab"]
TEXT = st.lists(st.sampled_from(WORDS + [" ", "\t", "\n", "_", ".", "\x01", "\x00", "é", "²",
                                         "DRF", "Abc", "[[abc]]", "`abc`", ","]),
                max_size=30).map("".join)
NAMES = st.lists(st.sampled_from(WORDS + ["DRF", "Abc", "BAB"]), min_size=1, max_size=6)


def _names(titles: list[str]) -> MentionNames:
    docs = [SimpleNamespace(path=f"n{k}.md", url=f"n{k}/", title=title, aliases=())
            for k, title in enumerate(titles)]
    return MentionNames(docs)  # type: ignore[arg-type]


@settings(max_examples=300)
@given(TEXT, NAMES)
@example("abc_ cab", ["abc", "cab"])  # "_" is a word character: "abc_" is no "abc"
@example("abc\x01cab abé", ["abc", "cab", "abé"])
def test_held_is_what_scan_prose_finds(text: str, titles: list[str]) -> None:
    names = _names(titles)
    hits = scan_prose(text, names, None, keep_words=False).hits
    assert [names.ordered[k] for k in held(text, names)] == list(hits.names)


@settings(max_examples=300)
@given(TEXT, NAMES, st.data())
def test_first_places_are_scan_prose_places(text: str, titles: list[str], data) -> None:  # type: ignore[no-untyped-def]
    names = _names(titles)
    hits = scan_prose(text, names, None, keep_words=False).hits
    wanted = data.draw(st.sets(st.sampled_from(hits.names))) if hits.names else set()
    assert dict(first_places(text, names, wanted).items()) == {
        name: hits.get(name) for name in wanted}


def test_first_places_of_words_next_to_each_other() -> None:
    """Two occurrences share the space between them; "abc_" is no "abc"."""
    names = _names(["abc", "cab"])
    assert dict(first_places("abc_ abc abc abc", names, ["abc"]).items()) == {"abc": (5, 9)}
    assert dict(first_places("Abc cab\u00e9 cab", names, ["abc", "cab"]).items()) == {
        "abc": (0,), "cab": (9,)}

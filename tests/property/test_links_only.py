"""A snippet's text with no markup but its wikilinks (``inline._links_only``, the
common case of a quoted sentence) reads as the whole of ``plain_text`` reads it."""

from __future__ import annotations

from beliefbase.codecs import inline
from beliefbase.codecs.inline import plain_text
from hypothesis import given, settings
from hypothesis import strategies as st

WORDS = st.sampled_from([
    "a", "Bee", "c.", "d!", "e?", "x", "é", "1.", "#tag", "|", "(p)", '"q"', "-",
    "[[T]]", "![[T]]", "[[T|D]]", "[[T#H]]", "[[#H]]", "[[T#^b]]", "[[ T | D ]]", "[[T|]]",
    "![[i.png|300]]", "[[a]][[b]]", "!![[x]]", "[[x]]!", "[[]]", "[[!x]]", "[[[x]]", "[[x]]]",
    # markup the short cut must leave to the whole
    "[", "]", "\\", "\\[[x]]", "_", "*", "&amp;", "<b>", ":", "`c`", "$m$", "~~", "==", "^x",
    "%%", "[!", "[x](u)", "\x02", "\x0e",
])
TEXTS = st.lists(WORDS, min_size=1, max_size=12).flatmap(
    lambda words: st.sampled_from([" ", "", "\n"]).map(lambda sep: sep.join(words)))


def titles(target: str, fragment: str, display: str | None) -> str:
    """A link's text that holds markup itself (kept as it is, as the stash keeps it)."""
    return display or (f"*{target}_[&amp;]" if target else fragment)


def whole(text: str) -> str:
    """``plain_text`` with every pattern it would run (the short cut never taken)."""
    saved = inline._links_only
    inline._links_only = lambda text, wikitext: None  # type: ignore[assignment]
    try:
        return plain_text(text, titles, snippet=True)
    finally:
        inline._links_only = saved


@settings(max_examples=400)
@given(TEXTS)
def test_links_only_reads_as_every_pattern(text: str) -> None:
    assert plain_text(text, titles, snippet=True) == whole(text)


def test_the_short_cut_is_taken_only_for_links() -> None:
    assert inline._links_only("See [[Note|the note]] and ![[pic.png]] now.", titles) == (
        "See the note and *pic.png_[&amp;] now.")  # the link's text as it is
    assert inline._BUT_LINKS.search("Odd [[!x]] link")  # "[!": a callout's mark to the whole
    assert inline._links_only("A [bracket] and [[Note]]", titles) is None  # no link's

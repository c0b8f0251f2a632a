"""``mentions.snippet`` with a panel's ``shown_names`` made once splits every sentence
exactly as the per-sentence search of the target's names did (kept here as the
reference)."""

from __future__ import annotations

from beliefbase.codecs.snippet import sentence
from beliefbase.site.reader import mentions as m
from hypothesis import given
from hypothesis import strategies as st


class _Doc:
    def __init__(self, title: str, aliases: tuple[str, ...]) -> None:
        self.path, self.title, self.aliases, self.url = "t.md", title, aliases, "t/"


def _wikitext(target: str, fragment: str, display: str | None) -> str:
    return display or target


def _reference(body: str, offset: int, target: _Doc) -> m.Snippet:
    """The snippet as made before ``shown_names``: every name's key and spelling found
    again for each sentence."""
    text = sentence(body, offset, _wikitext)
    for name in sorted((m.name_key(n) for n in (target.title, *target.aliases)), key=len,
                       reverse=True):
        if len(name) < m.MIN_NAME:
            continue
        exact = next((n.strip() for n in (target.title, *target.aliases)
                      if m.name_key(n) == name and m.is_acronym(n.strip())), None)
        at = next(m.find_name(text, exact) if exact else m.find_name(text.lower(), name), -1)
        if at < 0:
            continue
        return m.around(text, at, at + len(name) + m._extra_space(text, at, name))
    return m.Snippet(text[:m.SNIPPET_MAX], "", "")


# few letters, capitals for acronyms, gaps and sentence ends: names recur and overlap
WORD = st.sampled_from(["are", "ARE", "Are", "link", "Link", "res", "go", "ab", "ABC"])
NAME = st.lists(WORD, min_size=1, max_size=3).map(" ".join)
NAMES = st.tuples(NAME, st.lists(st.one_of(NAME, st.sampled_from(["  ARE ", "x", ""])),
                                 max_size=3).map(tuple))
BODY = st.lists(st.one_of(WORD, st.sampled_from([". ", "\n", "  ", ", ", "*", "`", "\n\n",
                                                 "# ", "- ", "x" * 150])),
                max_size=60).map(" ".join)


@given(BODY, NAMES, st.integers(min_value=0, max_value=400))
def test_snippet_with_shown_names_is_the_reference(body: str, names: tuple[str, tuple[str, ...]],
                                                   offset: int) -> None:
    target = _Doc(*names)
    offset = min(offset, max(0, len(body) - 1))
    expected = _reference(body, offset, target)
    made_once = m.shown_names(target)  # type: ignore[arg-type]
    assert m.snippet(body, offset, target, _wikitext, made_once) == expected  # type: ignore[arg-type]
    assert m.snippet(body, offset, target, _wikitext) == expected  # type: ignore[arg-type]

"""Property: a build with none after it (``find_mentions(keep=False)``, which counts
each target's sources from the notes holding each of its names) finds the panels that
the kept build finds from every (source, target) pair.

The cases that walk differs on: a name several notes own, a target named by its title
and an alias in the same note, notes that link to a target (or are it) ahead of its
first shown sources in the panels' order, more sources than a panel shows.
"""

from __future__ import annotations

from unittest import mock

import pytest
from beliefbase.compile import Compiler
from beliefbase.site.reader import mentions
from beliefbase.site.reader.mentions import MentionCache, find_mentions
from hypothesis import given, settings
from hypothesis import strategies as st

from .vault_edits import edited_vault

NOTES = [f"n{i}" for i in range(7)]
# shared titles and aliases: a name with several owners, a target with several names
FRONT = st.sampled_from([
    "", "---\ntitle: Red Planet\n---\n", "---\ntitle: Blue Moon\naliases: [Red Planet]\n---\n",
    "---\naliases: [Gamma, Blue Moon]\n---\n", "---\ntitle: Gamma\n---\n",
    "---\naliases: [n3]\n---\n", "---\npublish: false\n---\n"])
WORDS = st.sampled_from(["Red Planet", "blue moon", "gamma", "n1", "n2", "n3", "n5", "and",
                         "[[n1]]", "[[n2]]", "[[n4]]", "[[Red Planet]]", "`gamma`", "N0"])
NOTE = st.tuples(FRONT, st.lists(WORDS, max_size=8))


@pytest.mark.parametrize("shown", [mentions.MENTIONS_SHOWN, 2, 1])
@settings(max_examples=40, deadline=None)
@given(notes=st.lists(NOTE, min_size=len(NOTES), max_size=len(NOTES)))
def test_once_equals_kept(shown: int, notes) -> None:  # type: ignore[no-untyped-def]
    texts = {name: f"{front}# T{k}\n\n" + " ".join(words) + ".\n\nAgain " + " ".join(words)
             + ".\n" for k, (name, (front, words)) in enumerate(zip(NOTES, notes, strict=True))}
    with mock.patch.object(mentions, "MENTIONS_SHOWN", shown), edited_vault(texts) as vault:
        compiled = Compiler(vault.options).compile(vault.sources)

        def body(doc):  # type: ignore[no-untyped-def]
            return (vault.docs / doc.path).read_text(encoding="utf-8")[doc.parsed.body_offset:]

        kept = find_mentions(compiled, body, MentionCache())
        once = find_mentions(compiled, body, MentionCache(keep_words=False), keep=False)
        assert once == kept

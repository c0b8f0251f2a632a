"""Property: unlinked mentions found with a cache that lived through any sequence of
edits equal those found from scratch, and the targets said to have changed are
exactly those whose mentions differ or quote an edited note.

``mkdocs serve`` keeps one ``MentionCache``: a note's findings are kept while its
scan, its links and the owners of the names it contains stay the same, and only
the targets of what changed get their list made again.
"""

from __future__ import annotations

from unittest import mock

import pytest
from beliefbase.compile import Compiler
from beliefbase.site.reader import mentions
from beliefbase.site.reader.mentions import MentionCache, find_mentions
from beliefbase.site.serve.dependents import changed_mentions
from hypothesis import given, settings
from hypothesis import strategies as st

from .vault_edits import edited_vault

NAMES = ["alpha", "beta", "gamma", "delta"]
TITLES = st.sampled_from(["", "---\ntitle: Red Planet\n---\n", "---\ntitle: Blue Moon\n---\n",
                          "---\naliases: [Red Planet]\n---\n", "---\naliases: [DRF]\n---\n",
                          "---\npublish: false\n---\n"])
PROSE = st.sampled_from([
    "The Red Planet rises.", "A blue moon tonight.", "See [[Red Planet]].", "About alpha.",
    "Gamma and delta.", "DRF again.", "the drf", "[[beta]] says Beta is red planet.",
    "`Red Planet` in code.", "Nothing here.", "Alpha meets [[beta]] here."])
EDIT = st.tuples(st.sampled_from(NAMES), st.booleans(), TITLES, st.lists(PROSE, max_size=4))


@pytest.mark.parametrize("shown", [mentions.MENTIONS_SHOWN, 1])
@settings(max_examples=60, deadline=None)
@given(edits=st.lists(EDIT, min_size=1, max_size=8))
def test_kept_mentions_equal_fresh_ones(shown: int, edits) -> None:  # type: ignore[no-untyped-def]
    """``shown=1``: each panel shows one source of several, the first by title,
    which a retitled, new or deleted note changes on panels it is not on."""
    first = {name: f"# {name.title()}\n\nThe Red Planet and Gamma.\n" for name in NAMES}
    with mock.patch.object(mentions, "MENTIONS_SHOWN", shown), edited_vault(first) as vault:
        compiler = Compiler(vault.options)

        def body(doc):  # type: ignore[no-untyped-def]
            return (vault.docs / doc.path).read_text(encoding="utf-8")[doc.parsed.body_offset:]

        cache = MentionCache()
        before = find_mentions(compiler.compile(vault.sources), body, cache)
        for name, delete, front, prose in edits:
            sources = vault.edit(name, delete, front + f"# {name.title()}\n\n" + " ".join(prose)
                                 + "\n")
            compiled = compiler.compile(sources)
            after = find_mentions(compiled, body, cache)
            assert after == find_mentions(compiled, body, MentionCache())
            changed = compiled.changed | compiled.removed
            assert changed_mentions(before, after, changed, cache.touched_since(before)) == (
                changed_mentions(before, after, changed))
            before = after

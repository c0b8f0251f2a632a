"""Property: a compiler that lived through any sequence of edits equals a fresh one.

``mkdocs serve`` keeps one ``Compiler`` and re-resolves, re-indexes and
re-checks only what an edit can affect (backlinks per target, embed walks per
page, duplicate blocks per note, symlink scan per folder).  Hypothesis edits a
small vault of notes that link, embed and alias each other; after every step
the long-lived compiler must report exactly what a new one reports.
"""

from __future__ import annotations

from beliefbase.builder import Compiler
from hypothesis import given, settings
from hypothesis import strategies as st

from .vault_edits import edited_vault

# "sub/alpha" shares a base name with "alpha" (ambiguous); "sub/index" is a folder note
NAMES = ["alpha", "beta", "gamma", "delta", "sub/alpha", "sub/index"]
PIECES = st.sampled_from([
    "[[alpha]]", "[[beta#Part]]", "![[gamma]]", "![[delta#Part]]", "![[alpha#^b1]]",
    "[[Nick]]", "[[Title Beta]]", "[[nowhere]]", "![[beta]]", "[[gamma#^b1]]", "[[sub]]",
    "[[sub/alpha]]", "[[same]]", "[[Title Betta]]", "[[gamm]]",  # dangling: "did you mean" follows the names
    "\n## Part\n", "\nline ^b1\n", "\nagain ^b1\n", "\n```\n[[alpha]]\n```\n", "text",
])
FRONT = st.sampled_from(["", "---\ntitle: Title Beta\n---\n", "---\naliases: [Nick]\n---\n",
                         "---\nid: same\n---\n", "---\npublish: false\n---\n"])
EDIT = st.tuples(st.sampled_from(NAMES), st.booleans(), FRONT, st.lists(PIECES, max_size=6))


def snapshot(compiled) -> tuple[object, ...]:  # type: ignore[no-untyped-def]
    backlinks = {t: [(rl.source, rl.link.line, rl.link.column) for rl in rls]
                 for t, rls in compiled.backlinks.items()}
    links = {p: [(rl.link.line, rl.link.column, rl.status, rl.target, rl.anchor) for rl in rls]
             for p, rls in compiled.links.items()}
    return ([str(d) for d in compiled.diagnostics], list(backlinks.items()), links,
            sorted(compiled.documents))


@settings(max_examples=60, deadline=None)
@given(st.lists(EDIT, min_size=1, max_size=8))
def test_long_lived_compiler_equals_a_fresh_one(edits) -> None:  # type: ignore[no-untyped-def]
    first = {name: f"# {name}\n\n## Part\n\nSee [[alpha]].\n" for name in NAMES}
    with edited_vault(first) as vault:
        live = Compiler(vault.options)
        live.compile(vault.sources)
        for name, delete, front, pieces in edits:
            sources = vault.edit(name, delete, front + f"# {name}\n\n" + " ".join(pieces) + "\n")
            assert snapshot(live.compile(sources)) == snapshot(
                Compiler(vault.options).compile(sources))

"""Property: a compiler that lived through any sequence of edits equals a fresh one.

``mkdocs serve`` keeps one ``Compiler`` and re-resolves, re-indexes and
re-checks only what an edit can affect (backlinks per target, embed walks per
page, duplicate blocks per note, symlink scan per folder).  Hypothesis edits a
small vault of notes that link, embed and alias each other; after every step
the long-lived compiler must report exactly what a new one reports, and every
earlier compile must still read as it did when it was returned (a later compile
never changes an earlier one).

Headings such as ``## See [[beta]]`` take their anchor from beta's title, so
retitling, aliasing, renaming or deleting beta moves the anchor that
``[[alpha#see-title-beta]]`` names (issue 17: the anchors went stale).
"""

from __future__ import annotations

from typing import Any

from beliefbase.compile import Compiler
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
    # headings whose anchors follow another note's title, and links to those anchors
    "\n## See [[beta]]\n", "\n## On [[Nick]]\n", "\n## About [[gamma#Part]]\n",
    "[[alpha#see-title-beta]]", "[[alpha#see-beta]]", "[[gamma#See Title Beta]]",
    "![[alpha#see-beta]]", "[[delta#on-nick]]", "[[sub/index#about-part]]",
])
FRONT = st.sampled_from(["", "---\ntitle: Title Beta\n---\n", "---\naliases: [Nick]\n---\n",
                         "---\nid: same\n---\n", "---\npublish: false\n---\n"])
#: write (False) / delete (True) a note, or rename it to another name (a str)
ACTION = st.one_of(st.booleans(), st.sampled_from(NAMES))
EDIT = st.tuples(st.sampled_from(NAMES), ACTION, FRONT, st.lists(PIECES, max_size=6))


def snapshot(compiled) -> tuple[object, ...]:  # type: ignore[no-untyped-def]
    backlinks = {t: [(rl.source, rl.link.line, rl.link.column) for rl in rls]
                 for t, rls in compiled.backlinks.items()}
    links = {p: [(rl.link.line, rl.link.column, rl.status, rl.target, rl.anchor) for rl in rls]
             for p, rls in compiled.links.items()}
    sections = {p: [(s.anchor, s.text) for s in d.sections] for p, d in compiled.documents.items()}
    return ([str(d) for d in compiled.diagnostics], list(backlinks.items()), links,
            sorted(compiled.documents), sections, {p: d.title for p, d in compiled.documents.items()})


@settings(max_examples=60, deadline=None)
@given(st.lists(EDIT, min_size=1, max_size=8))
def test_long_lived_compiler_equals_a_fresh_one(edits) -> None:  # type: ignore[no-untyped-def]
    # no H1: a note is titled by its file name until an edit gives it one, so renames
    # retitle; alpha's second heading follows beta's title, delta's gamma's heading,
    # and gamma links to both
    first = {name: "## Part\n\nSee [[alpha]].\n" for name in NAMES}
    first["alpha"] = "## Part\n\n## See [[beta]]\n\nSee [[sub/alpha]].\n"
    first["beta"] = "---\ntitle: Old Beta\n---\n## Part\n"  # any edit of beta retitles it
    first["gamma"] = "## Part\n\n[[alpha#see-old-beta]] [[alpha#see-beta]] [[delta#about-part]]\n"
    first["delta"] = "## About [[gamma#Part]]\n\nSee [[alpha]].\n"  # shows gamma's heading
    with edited_vault(first) as vault:
        live = Compiler(vault.options)
        first_compile = live.compile(vault.sources)
        earlier = [(first_compile, snapshot(first_compile))]
        for edit in edits:
            sources = _apply(vault, *edit)
            compiled = live.compile(sources)
            assert snapshot(compiled) == snapshot(Compiler(vault.options).compile(sources))
            earlier.append((compiled, snapshot(compiled)))
        for compiled, seen in earlier:
            assert snapshot(compiled) == seen


@settings(max_examples=40, deadline=None)
@given(st.lists(EDIT, min_size=1, max_size=6))
def test_a_compacted_compiler_compiles_on_as_a_fresh_one(edits) -> None:  # type: ignore[no-untyped-def]
    """``Compiler.compact`` (a one-off build drops the tables only a next compile
    reads): the next compile makes them again and finds what a fresh one finds."""
    first = {name: "## Part\n\nSee [[alpha]] and [[Title Beta]].\n" for name in NAMES}
    first["beta"] = "---\ntitle: Old Beta\n---\n## Part\n"
    with edited_vault(first) as vault:
        live = Compiler(vault.options)
        live.compile(vault.sources)
        for edit in edits:
            live.compact()
            sources = _apply(vault, *edit)
            compiled = live.compile(sources)
            assert snapshot(compiled) == snapshot(Compiler(vault.options).compile(sources))


def _apply(vault: Any, name: str, action: str | bool, front: str, pieces: list[str]) -> Any:
    """One generated edit: a rename (``action`` the new name), else a delete or a write."""
    if isinstance(action, str):
        return vault.rename(name, action)
    return vault.edit(name, action, front + f"# {name}\n\n" + " ".join(pieces) + "\n")

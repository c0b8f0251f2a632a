"""Property: ``NameIndex.updated`` (what a rebuild after an edit uses) equals the
index built from scratch from the resulting documents, each list's order included, and
leaves the index it started from as it was."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from beliefbase.builder.index import _TABLES, NameIndex
from hypothesis import given, settings
from hypothesis import strategies as st

BIDS = ["0190f0a0-0000-7000-8000-00000000aaaa", "0190f0a0-0000-7000-8000-00000000bbbb",
        "0190f0a0-0000-7000-8000-00000001bbbb"]  # the last two share a bref
PATHS = ["a.md", "b/a.md", "b/index.md", "c/README.md", "img.md", "z/b.md"]
ASSETS = ["b/img.png", "a.pdf", "img.md.png"]


@dataclass(frozen=True)
class Doc:
    """What a NameIndex reads of a ``Document``."""

    path: str
    bid: str
    title: str
    aliases: tuple[str, ...]
    id: str | None

    @property
    def folder(self) -> str:
        return self.path.rpartition("/")[0]


_doc = st.builds(
    Doc, st.sampled_from(PATHS), st.sampled_from(BIDS),
    st.sampled_from(["A", "Alpha", "alpha ", "Index", "Img", ""]),
    st.lists(st.sampled_from(["A", "Nick", "img", "b"]), max_size=2).map(tuple),
    st.none() | st.sampled_from(["x", "y"]),
)


def _unique(docs: list[Doc]) -> dict[str, Doc]:
    return {d.path: d for d in docs}


def tables(index: NameIndex) -> dict[str, dict[object, object]]:
    """Every table: keys in any order (lookups), each list in its order (it decides
    which note a link finds first)."""
    return {t: dict(getattr(index, t)) for t in _TABLES}


@settings(max_examples=300, deadline=None)
@given(st.lists(_doc, max_size=6), st.lists(_doc, max_size=4),
       st.sets(st.sampled_from(PATHS)), st.lists(st.sampled_from(ASSETS), unique=True))
def test_updated_equals_built(before: list[Doc], edited: list[Doc], deleted: set[str],
                              assets: list[str]) -> None:
    old_docs = _unique(before)
    new_docs = dict(old_docs)
    for path in deleted:
        new_docs.pop(path, None)
    new_docs.update(_unique(edited))
    old = NameIndex(old_docs.values(), assets)  # type: ignore[arg-type]
    snapshot = copy.deepcopy(tables(old))
    gone = [d for p, d in old_docs.items() if new_docs.get(p) is not d]
    new = [d for p, d in new_docs.items() if old_docs.get(p) is not d]
    updated = old.updated(gone, new)  # type: ignore[arg-type]
    built = NameIndex(new_docs.values(), assets)  # type: ignore[arg-type]
    assert tables(updated) == tables(built)
    assert list(updated.docs) == list(built.docs)
    assert tables(old) == snapshot

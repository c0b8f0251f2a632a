"""The "did you mean" suggester: close names, and the same answer in every process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from beliefbase.builder.suggest import _RAREST, _SHORTLIST, Suggester, _limit, _shortlist, _trigrams
from beliefbase.ids import normalize_name
from hypothesis import given, settings
from hypothesis import strategies as st

# The names of the benchmark's 1,000-note vault: many share words, so candidates tie.
PROBE = """
import json
from beliefbase.bench.notes import plan_vault
from beliefbase.builder.suggest import Suggester
notes = plan_vault(1000).notes
s = Suggester([n.title for n in notes] + [a for n in notes for a in n.aliases])
print(json.dumps([s.suggest(n.title.rsplit(" ", 1)[0] + f" Draft {i}")
                  for i, n in enumerate(notes[:300])]))
"""


def test_suggests_close_names() -> None:
    s = Suggester(["Continuous Policy", "Portable Onboarding", "Zebra"])
    assert s.suggest("Continuous Polcy") == " (did you mean 'Continuous Policy'?)"
    assert s.suggest("Nothing alike") == ""


def test_suggestions_do_not_depend_on_hash_order() -> None:
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", PROBE], env=env,
                             capture_output=True, text=True, check=True)
        outputs.add(run.stdout)
    assert len(outputs) == 1
    assert any(json.loads(outputs.pop()))  # the probe does get suggestions


def test_inherited_answers_equal_fresh_ones_after_a_rename() -> None:
    from beliefbase.bench.notes import plan_vault

    notes = plan_vault(1000).notes
    names = [n.title for n in notes] + [a for n in notes for a in n.aliases]
    words = [n.title.rsplit(" ", 1)[0] + f" Draft {i}" for i, n in enumerate(notes[:300])]
    old = Suggester(names)
    for word in words:
        old.suggest(word)
    renamed = [("Continuous Pricing Planner" if i == 5 else n) for i, n in enumerate(names)]
    renamed[7] = names[7] + " Renamed"
    new = Suggester(renamed)
    new.inherit(old)
    kept = len(new._memo)
    assert 0 < kept < len(words)  # most answers kept, the ones near the change not
    fresh = Suggester(renamed)
    assert [new.suggest(w) for w in words] == [fresh.suggest(w) for w in words]
    # the words answered as before are those whose messages need not be made again
    carried = [w for w in words if new.answers_as_before([w])]
    assert len(carried) == kept
    assert all(old.suggest(w) == new.suggest(w) for w in carried)
    assert not new.answers_as_before(words)
    assert not Suggester(renamed).answers_as_before(words[:1])  # nothing inherited


def test_an_inherited_index_equals_a_fresh_one() -> None:
    """Names removed and added (a note deleted, one created, one retitled): the
    index updated from the last one is the index built from scratch."""
    from beliefbase.bench.notes import plan_vault

    notes = plan_vault(300).notes
    names = [n.title for n in notes] + [a for n in notes for a in n.aliases]
    old = Suggester(names)
    old.suggest("Continuous Polcy")  # builds the index
    changed = [n for n in names if n != names[3]][10:] + ["Brand New Note", names[0] + " II"]
    new = Suggester(changed)
    new.inherit(old)
    fresh = Suggester(changed)
    assert new._grams == fresh._index()
    assert new._postings == fresh._postings
    assert old._grams is not None and old._grams != new._grams  # the old one is untouched
    assert Suggester(names)._index() == old._grams


def test_answers_are_kept_when_a_deletion_moves_the_common_trigram_cut_off() -> None:
    """Trigrams shared by more than 5% of the names (counted in thousands) are not
    ranked by: removing one name can move that cut-off (2,000 names: 100; 1,999:
    50).  Answers are still kept for words none of whose trigrams changed sides,
    and the others are worked out again."""
    from beliefbase.bench.notes import plan_vault

    notes = plan_vault(2000).notes
    names = sorted({n.title for n in notes} | {a for n in notes for a in n.aliases})[:2000]
    words = [n.title.rsplit(" ", 1)[0] + f" Draft {i}" for i, n in enumerate(notes[:300])]
    old = Suggester(names)
    for word in words:
        old.suggest(word)
    new = Suggester(names[:1000] + names[1001:])
    assert _limit(len(names)) != _limit(len(names) - 1)
    new.inherit(old)
    carried = [w for w in words if new.answers_as_before([w])]
    assert 0 < len(carried) < len(words)  # many trigrams changed sides, not all
    fresh = Suggester(names[:1000] + names[1001:])
    assert [new.suggest(w) for w in words] == [fresh.suggest(w) for w in words]


_WORDS = ["alpha", "beta", "gamma", "delta", "release", "plan", "planet", "relay", "data",
          "date", "gate", "late", "alp", "bet"]


def _counted_shortlist(index: dict[str, set[str]], grams: set[str]) -> list[tuple[int, str]]:
    """The shortlist as first written: count every name of the rarest postings."""
    from collections import Counter

    counts: Counter[str] = Counter()
    for _, gram in sorted((len(index[g]), g) for g in grams if g in index)[:_RAREST]:
        counts.update(index[gram])
    return sorted((-shared, name) for name, shared in counts.items() if shared >= 2)[:_SHORTLIST]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join),
                min_size=1, max_size=60),
       st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join))
def test_the_shortlist_is_the_counted_one(names: list[str], word: str) -> None:
    index = Suggester(names)._index()
    grams = _trigrams(normalize_name(word))
    assert _shortlist(index, grams) == _counted_shortlist(index, grams)


def test_never_suggests_what_was_written() -> None:
    s = Suggester(["Foo", "Foo Bar", "Food"])
    for word in ("Foo", "foo", " Foo", "Foo.md"):
        hint = s.suggest(word)
        assert "'Foo'" not in hint, (word, hint)
    assert "'Foo'" in s.suggest("Fooo")
    assert "'Foo Bar'" in s.suggest("sub/Foo Bar")  # a path: its note elsewhere helps


def test_prefetched_answers_are_those_asked_one_by_one(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from beliefbase.bench.notes import plan_vault
    from beliefbase.builder import suggest

    notes = plan_vault(600).notes
    names = [n.title for n in notes] + [a for n in notes for a in n.aliases]
    words = [n.title.rsplit(" ", 1)[0] + f" Draft {i}" for i, n in enumerate(notes)]
    asked = Suggester(names)
    expected = [asked.suggest(word) for word in words]
    monkeypatch.setattr(suggest, "PREFETCH_THRESHOLD", 50)
    ahead = Suggester(names)
    ahead.prefetch(words * 2, workers=2)

    def not_here(*_args: object) -> object:
        raise AssertionError("answered here, not ahead")

    monkeypatch.setattr(suggest, "_shortlist", not_here)  # (a forked worker had its own)
    assert [ahead.suggest(word) for word in words] == expected


def test_a_compile_words_its_unresolved_links_the_same_with_answers_ahead(  # type: ignore[no-untyped-def]
        project, monkeypatch) -> None:
    from beliefbase.builder import suggest

    for i in range(40):
        project.write(f"n{i}.md", f"# Note number {i}\n\n[[Note numbr {i}]] [[Note number {i + 1}x]]"
                      f" [[file{i}.pdf]] [[Nothing like it {i}]]\n")
    messages = []
    for threshold in (10**9, 2):
        monkeypatch.setattr(suggest, "PREFETCH_THRESHOLD", threshold)
        compiled = project.compile()
        messages.append([(d.code, d.file, d.line, d.column, d.message)
                         for d in compiled.diagnostics])
    assert messages[0] == messages[1]
    assert sum("did you mean 'Note number" in m[-1] for m in messages[0]) >= 40

""""Did you mean …?" for unresolved links, fast enough for thousands of them.

``difflib`` compares a word with every candidate; with 5,000 titles and a few
hundred dangling links that is seconds.  Instead, a trigram index finds the
names sharing the most (informative) trigrams with the word, ranked by the
Dice coefficient of their trigram sets.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from ..ids import normalize_name

_SHORTLIST = 12
_RAREST = 8
#: Dice coefficient of trigram sets a suggestion needs (0.5: half the trigrams shared).
_MIN_DICE = 0.5
#: A trigram shared by more names than this says little ("  a", "ion") and is skipped.
_COMMON = 0.05


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


class Suggester:
    """Closest existing names to a target that matched nothing.

    The trigram index is built on the first suggestion: a knowledge base whose
    links all resolve never pays for it.
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._names: list[str] = sorted(set(names))
        self._grams: dict[str, list[int]] | None = None
        self._memo: dict[str, str] = {}
        self._name_grams: dict[int, set[str]] = {}  # of the names that made a shortlist

    def release(self) -> None:
        """Drop the trigram index (a one-shot build needs no more suggestions)."""
        self._grams = None
        self._name_grams = {}

    def same_names(self, other: Suggester | None) -> bool:
        return other is not None and self._names == other._names

    def inherit(self, old: Suggester | None) -> None:
        """Keep ``old``'s answers that the change of names cannot alter.

        A word's suggestions come from the names sharing its (not too common)
        trigrams, ranked by their overlap and then by name; if no added or
        removed name shares such a trigram with the word (and the cut-off for
        common trigrams, which depends on the number of names, stayed), the
        answer is the same.  A retitled note then costs a few words'
        suggestions, not every unresolved link's.
        """
        if (old is None or not old._memo or old._grams is None
                or _limit(len(old._names)) != _limit(len(self._names))):
            return
        if self._grams is None:
            self._grams = self._index()
        # Trigrams too common to rank by (left out of both indexes) never count.
        grams: set[str] = set()
        for name in set(old._names).symmetric_difference(self._names):
            grams |= {g for g in _trigrams(normalize_name(name))
                      if g in old._grams or g in self._grams}
        for word, answer in old._memo.items():
            if grams.isdisjoint(_trigrams(normalize_name(word))):
                self._memo[word] = answer

    def _index(self) -> dict[str, list[int]]:
        grams: dict[str, list[int]] = defaultdict(list)
        for i, name in enumerate(self._names):
            for gram in _trigrams(normalize_name(name)):
                grams[gram].append(i)
        limit = _limit(len(self._names))
        return {g: ids for g, ids in grams.items() if len(ids) <= limit}

    def suggest(self, word: str) -> str:
        """`` (did you mean 'A' or 'B'?)`` or ``""``."""
        if word in self._memo:
            return self._memo[word]
        if self._grams is None:
            self._grams = self._index()
        index = self._grams
        grams = _trigrams(normalize_name(word))
        # candidates: names sharing at least two of the word's rarest trigrams; every
        # tie is broken by value, never by set or hash order (same output every run)
        rarest = sorted((len(index[g]), g) for g in grams if g in index)[:_RAREST]
        counts: Counter[int] = Counter()
        for _, gram in rarest:
            counts.update(index[gram])
        shortlist = sorted((-shared, i) for i, shared in counts.items() if shared >= 2)
        scored = []
        for _, i in shortlist[:_SHORTLIST]:
            theirs = self._name_grams.get(i)
            if theirs is None:
                theirs = self._name_grams[i] = _trigrams(normalize_name(self._names[i]))
            dice = 2 * len(grams & theirs) / (len(grams) + len(theirs))
            if dice >= _MIN_DICE:
                scored.append((-dice, self._names[i]))
        result = _phrase([name for _, name in sorted(scored)[:3]])
        self._memo[word] = result
        return result


def _limit(names: int) -> int:
    """Postings longer than this are too common a trigram to rank by."""
    return max(50, int(names * _COMMON))


def _phrase(names: list[str]) -> str:
    if not names:
        return ""
    shown = [repr(n) for n in names]
    joined = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f" (did you mean {joined}?)"

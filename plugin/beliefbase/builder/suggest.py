""""Did you mean …?" for unresolved links, fast enough for thousands of them.

``difflib`` compares a word with every candidate; with 5,000 titles and a few
hundred dangling links that is seconds.  A trigram index first narrows the
candidates to the few dozen that share the most trigrams, and difflib ranks
those.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from ..diagnostics import did_you_mean
from ..ids import normalize_name

_SHORTLIST = 40


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


class Suggester:
    """Closest existing names to a target that matched nothing."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names: list[str] = sorted(set(names))
        self._grams: dict[str, list[int]] = defaultdict(list)
        for i, name in enumerate(self._names):
            for gram in _trigrams(normalize_name(name)):
                self._grams[gram].append(i)
        self._memo: dict[str, str] = {}

    def suggest(self, word: str) -> str:
        """`` (did you mean 'A' or 'B'?)`` or ``""``."""
        if word in self._memo:
            return self._memo[word]
        counts: Counter[int] = Counter()
        for gram in _trigrams(normalize_name(word)):
            counts.update(self._grams.get(gram, ()))
        shortlist = [self._names[i] for i, _ in counts.most_common(_SHORTLIST)]
        result = did_you_mean(word, shortlist)
        self._memo[word] = result
        return result

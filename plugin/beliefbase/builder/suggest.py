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
from .parallel import map_if_it_pays

_SHORTLIST = 12
_RAREST = 8
#: Dice coefficient of trigram sets a suggestion needs (0.5: half the trigrams shared).
_MIN_DICE = 0.5
#: A trigram shared by more names than this says little ("  a", "ion") and is skipped.
_COMMON = 0.05
_STEP = 1000
#: Words to answer before forked workers pay (a word takes up to half a millisecond at
#: 20,000 names; a fork of a large compile some tens).
PREFETCH_THRESHOLD = 400


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


class Suggester:
    """Closest existing names to a target that matched nothing.

    The trigram index is built on the first suggestion: a knowledge base whose
    links all resolve never pays for it.  Under ``mkdocs serve`` the next
    compile's suggester updates the last one's index with the names added and
    removed instead of indexing every name again (``inherit``).
    """

    #: ``frozen.CACHES``: the index and answers, functions of ``_names`` (taken over
    #: from the last compile's suggester by ``inherit``, whose own are left as they were)
    __caches__ = ("_postings", "_grams", "_memo", "_name_grams", "_carried")

    def __init__(self, names: Iterable[str]) -> None:
        self._names: tuple[str, ...] = tuple(sorted(set(names)))
        #: trigram -> the names containing it (every trigram)
        self._postings: dict[str, set[str]] | None = None
        #: the same without trigrams too common to rank by
        self._grams: dict[str, set[str]] | None = None
        self._memo: dict[str, str] = {}
        self._name_grams: dict[str, set[str]] = {}  # of the names that made a shortlist
        #: words whose answer ``inherit`` took over: the same as the last suggester's
        self._carried: frozenset[str] = frozenset()

    def release(self) -> None:
        """Drop the trigram index (a one-shot build needs no more suggestions)."""
        self._postings = self._grams = None
        self._name_grams = {}

    def same_names(self, other: Suggester | None) -> bool:
        return other is not None and self._names == other._names

    def inherit(self, old: Suggester | None) -> None:
        """Take over ``old``'s index, and its answers that the change of names
        cannot alter.

        A word's suggestions come from the names sharing its (not too common)
        trigrams, ranked by their overlap and then by name; if no added or
        removed name shares such a trigram with the word (and the cut-off for
        common trigrams, which depends on the number of names, stayed), the
        answer is the same.  A retitled note then costs a few words'
        suggestions, not every unresolved link's; so does a deleted one that
        moves the cut-off (a trigram that many names share no longer counts).
        """
        if old is None or old._postings is None:
            return
        removed = set(old._names).difference(self._names)
        added = set(self._names).difference(old._names)
        postings = dict(old._postings)  # sets shared with ``old`` are replaced, not changed
        for name in removed:
            for gram in _trigrams(normalize_name(name)):
                rest = postings[gram] - {name}
                if rest:
                    postings[gram] = rest
                else:
                    del postings[gram]
        for name in added:
            for gram in _trigrams(normalize_name(name)):
                postings[gram] = postings.get(gram, set()) | {name}
        self._use(postings)
        assert self._grams is not None and old._grams is not None
        if not old._memo:
            return
        # Trigrams too common to rank by (left out of both indexes) never count.
        grams: set[str] = set()
        for name in removed | added:
            grams |= {g for g in _trigrams(normalize_name(name))
                      if g in old._grams or g in self._grams}
        # The cut-off for common trigrams follows the number of names: a deletion
        # can move it by one, and the trigrams with just that many names then
        # count in one index and not the other (the others' postings are the same).
        low, high = sorted((_limit(len(old._names)), _limit(len(self._names))))
        if low != high:
            grams |= {g for g, names in postings.items() if low < len(names) <= high}
        for word, answer in old._memo.items():
            if grams.isdisjoint(_trigrams(normalize_name(word))):
                self._memo[word] = answer
        self._carried = frozenset(self._memo)

    def answers_as_before(self, words: Iterable[str]) -> bool:
        """Does each of ``words`` get the answer the last suggester gave it (taken
        over by ``inherit``)?  Then a message worded with it need not be made again."""
        return self._carried.issuperset(words)

    def _index(self) -> dict[str, set[str]]:
        if self._grams is None:
            postings: dict[str, set[str]] = defaultdict(set)
            for name in self._names:
                for gram in _trigrams(normalize_name(name)):
                    postings[gram].add(name)
            self._use(dict(postings))
        assert self._grams is not None
        return self._grams

    def _use(self, postings: dict[str, set[str]]) -> None:
        limit = _limit(len(self._names))
        self._postings = postings
        self._grams = {g: names for g, names in postings.items() if len(names) <= limit}

    def prefetch(self, words: Iterable[str], workers: int = 0) -> None:
        """Answer ``words`` ahead, in forked workers where there are enough of them
        (``suggest`` then finds them answered); else nothing, each answered when asked.
        A cold compile of 20,000 ``gen_vault.py`` notes asks about 6,000 words, about
        3 s of one core.  The answers are ``suggest``'s, whoever computed them."""
        todo = sorted({word for word in words if word not in self._memo})
        if len(todo) < PREFETCH_THRESHOLD:
            return
        self._index()  # (made once, before the fork: every worker shares it)
        answers = map_if_it_pays(self.suggest, todo, PREFETCH_THRESHOLD, workers,
                                 fork_only=True)
        if answers is not None:
            self._memo.update(zip(todo, answers, strict=True))

    def suggest(self, word: str) -> str:
        """`` (did you mean 'A' or 'B'?)`` or ``""``."""
        if word in self._memo:
            return self._memo[word]
        index = self._index()
        grams = _trigrams(normalize_name(word))
        if sum(g in index for g in grams) < 2:  # no name can share two of them
            self._memo[word] = ""
            return ""
        # candidates: names sharing at least two of the word's rarest trigrams; every
        # tie is broken by value, never by set or hash order (same output every run)
        scored = []
        for _, name in _shortlist(index, grams):
            theirs = self._name_grams.get(name)
            if theirs is None:
                theirs = self._name_grams[name] = _trigrams(normalize_name(name))
            dice = 2 * len(grams & theirs) / (len(grams) + len(theirs))
            if dice >= _MIN_DICE:
                scored.append((-dice, name))
        # never the text the user wrote (with or without ".md"): it matched nothing
        written = {normalize_name(word),
                   normalize_name(word[:-3] if word.lower().endswith(".md") else word)}
        result = _phrase([name for _, name in sorted(scored)
                          if normalize_name(name) not in written][:3])
        self._memo[word] = result
        return result


def _shortlist(index: dict[str, set[str]], grams: set[str]) -> list[tuple[int, str]]:
    """The first ``_SHORTLIST`` of (-shared, name), most shared first, of the names
    sharing at least two of the rarest ``grams``.

    Counting and ordering by count run in C (``Counter``, ``most_common``); only
    the names tied with the last one kept are ordered by name in Python.  At
    20,000 notes a word's rarest postings hold a thousand names each, and
    ordering all of them by (count, name) took seconds over the dangling links.
    """
    counts: Counter[str] = Counter()
    for _, gram in sorted((len(index[g]), g) for g in grams if g in index)[:_RAREST]:
        counts.update(index[gram])
    ranked = counts.most_common()
    end = min(len(ranked), _SHORTLIST)
    if end and (last := ranked[end - 1][1]) >= 2:  # the names tied with the last one
        while end < len(ranked) and ranked[end][1] == last:
            end += 1
    return sorted((-shared, name) for name, shared in ranked[:end] if shared >= 2)[:_SHORTLIST]


def _limit(names: int) -> int:
    """Postings longer than this are too common a trigram to rank by: 5% of the
    names, counted in whole thousands, so that adding or deleting a note almost
    never moves it (when it does, ``inherit`` keeps fewer answers)."""
    return max(50, int(names // _STEP * _STEP * _COMMON))


def _phrase(names: list[str]) -> str:
    if not names:
        return ""
    shown = [repr(n) for n in names]
    joined = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f" (did you mean {joined}?)"

"""The per-page entity pipeline of SPEC §7, in its order.

1. manual tags (``codecs.entity_syntax.find_manual``);
2. their wrappers stripped: the render text (detection masks the whole syntax,
   so nothing is found inside it, and offsets stay those of the raw text);
3. auto-detection of every known name and alias, project-wide (``Names``: one
   Aho-Corasick automaton), whole words only, the longest match winning where
   matches overlap;
4. auto mentions of a name rejected in this text (``Name:REJECT_ENTITY``) dropped;
5. aliases resolved to their canonical entity (the automaton maps each surface
   form to its key);
6. merged with the manual mentions (which always win: they are masked out of
   step 3, so an auto mention never overlaps one).

**Case rule.** A known name matches only as written, letter case included
(``Smaug`` finds ``Smaug`` and ``Smaug's``, not ``smaug``): entity names are proper
names, and a lower-case ``will`` or ``bill`` is a common word.  Whole word:
the characters before and after the match are not letters, digits or ``_``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import ahocorasick

from ..codecs.entity_syntax import ManualMention, entity_key, find_manual, protected_regions
from ..codecs.mask import mask
from ..frozen import FrozenDict
from .model import Span


class Names:
    """Every name auto-detection looks for, each with the key of its entity."""

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        self.keys: dict[str, str] = FrozenDict(names)
        self._automaton: ahocorasick.Automaton | None = None
        if self.keys:
            automaton = ahocorasick.Automaton(ahocorasick.STORE_ANY)
            for name, key in self.keys.items():
                automaton.add_word(name, (len(name), name, key))
            automaton.make_automaton()
            self._automaton = automaton

    def __bool__(self) -> bool:
        return bool(self.keys)

    def find(self, text: str) -> list[tuple[int, int, str, str]]:
        """(start, end, name, key) of every whole-word match, longest first where
        matches overlap, in text order."""
        if self._automaton is None:
            return []
        found: list[tuple[int, int, str, str]] = []
        size = len(text)
        for last, (length, name, key) in self._automaton.iter(text):
            start, end = last + 1 - length, last + 1
            if start > 0:
                before = text[start - 1]
                if before.isalnum() or before == "_":
                    continue
            if end < size:
                after = text[end]
                if after.isalnum() or after == "_":
                    continue
            found.append((start, end, name, key))
        found.sort(key=lambda f: (f[0], f[0] - f[1]))
        kept: list[tuple[int, int, str, str]] = []
        for item in found:
            if kept and item[0] < kept[-1][1]:
                continue  # inside or across a longer (or earlier) match
            kept.append(item)
        return kept


def detect(
    body: str,
    names: Names,
    *,
    manual: Sequence[ManualMention] | None = None,
    regions: Sequence[tuple[int, int]] | None = None,
) -> list[Span]:
    """The merged mentions of one text, in text order (module doc: the pipeline)."""
    if regions is None:
        regions = protected_regions(body)
    if manual is None:
        manual = find_manual(body, list(regions))
    spans: list[Span] = []
    rejected: set[str] = set()
    for m in manual:
        if m.kind == "reject":
            rejected.add(m.name.casefold())
        elif m.kind == "alias":
            spans.append(Span(m.start, m.end, m.name, m.canonical or "", "manual", "alias"))
        else:
            spans.append(Span(m.start, m.end, m.name, entity_key(m.name), "manual", "tag"))
    if names:
        masked = mask(body, sorted([*regions, *((m.start, m.end) for m in manual)]))
        for start, end, name, key in names.find(masked):
            if name.casefold() in rejected:
                continue
            spans.append(Span(start, end, name, key, "auto", "auto"))
        spans.sort(key=lambda s: s.start)
    return spans

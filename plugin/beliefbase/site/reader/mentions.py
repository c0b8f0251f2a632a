"""Unlinked mentions (SPEC §9): pages that name a page without linking to it.

A page *mentions* a note when its prose contains the note's title or one of
its aliases as whole words, case-insensitively (acronyms such as ``CLI``
in capitals only), outside code, links, headings, tags and HTML, and the
page has no link to that note.

Fast at thousands of notes, without comparing every note with every name:

1. ``MentionNames`` keys every title and alias (at least 3 characters) by its
   first word (one-word names) or its first two words (longer names).
2. For each note, its prose is tokenised once; the words and the adjacent
   word pairs, as sets, are intersected with those keys (set operations in C).
   Only the names that survive are searched for, with a precise pattern.
3. The hits of a note depend only on its text and on the set of names, so
   they are cached by (content hash, names hash) across ``mkdocs serve``
   rebuilds: a rebuild after editing one note's body rescans that note only.
4. A page's panel shows its first ``MENTIONS_SHOWN`` sources and the count:
   only those get a ``Mention`` (with the offsets of their sentences).  Notes
   named by everyday words ("Ideas", "Meeting") are mentioned by thousands of
   pages; what is kept per note and per target is compact (``Hits``, a tuple of
   targets, a list of sources), not a record per (source, target) pair.
5. A build with none after it walks no pair at all (``_mentions_once``): each
   name's holders give each target's count, and only the shown sources are
   searched for where they name it.
"""

from __future__ import annotations

import functools
import re
import string
from array import array
from bisect import bisect_left
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import accumulate, chain, islice, repeat
from typing import Any

from ...builder.documents import Document
from ...builder.parallel import map_if_it_pays
from ...codecs.grammar import ATX_OPEN
from ...codecs.inline import SnippetPart, WikiText, snippet_parts
from ...codecs.inline_fields import line_field
from ...codecs.mask import code_regions, mask
from ...codecs.snippet import sentence
from ...compile.compiled import Compiled
from ...ids import SrcPath, normalize_name

#: Names shorter than this are never looked for ("AI", "Go" would be everywhere).
MIN_NAME = 3
#: At most this many sentences per (page, note) pair.
SENTENCES_PER_SOURCE = 2
#: Longest sentence shown, in characters around the match.
SNIPPET_MAX = 260
#: Below this many notes to scan, other processes cost more than they save.
SCAN_POOL_THRESHOLD = 300
#: Unlinked mentions listed on a page (the count says how many there are).
MENTIONS_SHOWN = 25

# What is not prose, beyond code: links and embeds of every form, bare URLs,
# HTML tags and comments, #tags (each branch starts with a literal, so the
# regex engine can skip to the next candidate character) ...
_INLINE_NOT_PROSE = re.compile(
    r"""
      \[\[[^\[\]\n]*\]\]                            # wikilink / embed (a "!" is no word)
    | \[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]             # [text] ...
      (?:\([^)\n]*\)|\[[^\]\n]*\])                  #   (url) or [ref]
    | <[^<>\n]+>                                    # HTML tag, autolink
    | https?://\S+                                  # bare URL
    | \#(?<![\w&/]\#)[^\s\#\[\]()]+                  # #tag
    | \{\{\s*query\s*:[^{}\n]*\}\}                   # {{query:ID}} (grammar.QUERY_EMBED)
    """,
    re.VERBOSE,
)
# ... and whole lines: headings (and inline field keys: ``_field_keys``).
_LINE_NOT_PROSE = re.compile(
    r"""
    ^(?:""" + ATX_OPEN + r"""(?:[ \t][^\n]*)?$            # ATX heading
      | [^\n]+\n[ \t]{0,3}(?:=+|-+)[ \t]*$            # setext heading (text + underline)
    )
    """,
    re.VERBOSE | re.MULTILINE,
)
_NOT_NEWLINE = re.compile(r"[^\n]")
# Punctuation (and blanked text) as spaces: then str.split() gives the words, fast.
_SPACES = str.maketrans(
    {c: " " for c in string.punctuation + "\x00\u2013\u2014\u2019\u201c\u201d"})
_GAP = re.compile(r"[ \t\r\n]+")  # what may separate the words of a name in a text
#: ASCII white space that ``str.split`` splits at and ``_GAP`` does not (``single_spaced``)
_OTHER_SPACE = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")
_WORD = re.compile(r"\w+")  # a run of word characters (``_is_word``)
#: every ASCII character that is no word character as a space (``_words_of``)
_NOT_WORD = str.maketrans({c: " " for c in map(chr, range(128)) if not (c.isalnum() or c == "_")})
#: the ASCII characters that ``_SPACES`` and ``str.split`` do not treat as ``_NOT_WORD``
#: does: "_" (a word character) and control characters (neither)
_SPLIT_UNLIKE_WORDS = re.compile("[_\x01-\x08\x0e-\x1b\x7f]")
_BLANK = "\x00"  # fills what is not prose: neither a word nor whitespace, so no name spans it


@dataclass(frozen=True)
class Mention:
    """``source`` names ``target`` at these body offsets (start of each match)."""

    source: SrcPath
    target: SrcPath
    offsets: tuple[int, ...]


@dataclass(frozen=True)
class Mentions:
    """A page's "Unlinked mentions" panel: how many pages mention it, and the first
    ``MENTIONS_SHOWN`` of them in the panel's order (by title, then path)."""

    total: int
    shown: tuple[Mention, ...]


#: the panel of a page nothing mentions
NONE = Mentions(0, ())


@dataclass(frozen=True)
class Snippet:
    """A sentence split around the name it mentions, for ``<mark>``."""

    before: str
    match: str
    after: str

    def parts(self) -> tuple[list[SnippetPart], list[SnippetPart], list[SnippetPart]]:
        """Before, match and after as runs of text and code (for the template)."""
        return snippet_parts(self.before), snippet_parts(self.match), snippet_parts(self.after)


def is_acronym(text: str) -> bool:
    """``ARE``, ``DRF``, ``HTTP2``: one short word in capitals."""
    return 2 <= len(text) <= 6 and text.isupper() and text.isalnum()


def name_key(text: str) -> str:
    """Names compare lowercase, with runs of whitespace as one space."""
    return " ".join(text.lower().split())


class MentionNames:
    """Every published note's title and aliases, keyed for the set intersections."""

    def __init__(self, docs: Iterable[Document]) -> None:
        self.owners: dict[str, list[SrcPath]] = defaultdict(list)
        #: name -> how it must be written: acronyms ("ARE", "DRF") match in capitals
        #: only, or every "are" in every note would be a mention
        self.exact: dict[str, str] = {}
        spelled: dict[str, set[str]] = defaultdict(set)
        for doc in docs:
            if doc.url is None:
                continue
            for original in dict.fromkeys((doc.title, *doc.aliases)):
                name = name_key(original)
                if len(name) < MIN_NAME or not name.translate(_SPACES).split():
                    continue
                if doc.path not in self.owners[name]:
                    self.owners[name].append(doc.path)
                spelled[name].add(original.strip())
        for name, forms in spelled.items():
            if len(forms) == 1 and is_acronym(next(iter(forms))):
                self.exact[name] = next(iter(forms))
        #: one-word names of letters and digits, any case (``whole_words`` finds them):
        #: each is its own first word, so a note's candidates among them are the names
        #: among its words (one set intersection, no lookup per word)
        self.plain = frozenset(name for name in self.owners
                               if name.isalnum() and name not in self.exact)
        #: the other names of one word ("c++", acronyms) by their word, longer ones by
        #: their first two words
        self.single: dict[str, list[str]] = defaultdict(list)
        self.pairs: dict[tuple[str, str], list[str]] = defaultdict(list)
        #: every name in order, and each name's place in it (``held``)
        self.ordered = tuple(sorted(self.owners))
        self.index = {name: k for k, name in enumerate(self.ordered)}
        for name in self.ordered:
            words = name.translate(_SPACES).split()
            if len(words) > 1:
                self.pairs[(words[0], words[1])].append(name)
            elif name not in self.plain:
                self.single[words[0]].append(name)
        #: what a scan depends on: each name and how it must be spelled
        self.signature = frozenset((n, self.exact.get(n)) for n in self.owners)
        #: each name as the one string object every note's hits hold
        self.canonical = {name: name for name in self.owners}
        #: a note -> its names (those it owns, possibly with other notes)
        self.names_of: dict[SrcPath, list[str]] = defaultdict(list)
        for name, paths in self.owners.items():
            for path in paths:
                self.names_of[path].append(name)

    def could_occur(self, name: str, words: WordSketch) -> bool:
        """Is ``name``'s first word (one-word names) or first pair among a note's?"""
        parts = name.translate(_SPACES).split()
        return " ".join(parts[:2]) in words

    def candidates(self, words: list[str]) -> tuple[AbstractSet[str], list[str]]:
        """Names whose first word (or pair) occurs in ``words``: the plain ones (a set,
        for ``whole_words``) and the others."""
        distinct = set(words)
        found: list[str] = []
        for word in distinct & self.single.keys():
            found += self.single[word]
        if self.pairs:  # (no set of every pair of words first)
            pairs = zip(words, islice(words, 1, None), strict=False)
            for pair in set(filter(self.pairs.__contains__, pairs)):
                found += self.pairs[pair]
        return self.plain & distinct, found


def _field_keys(body: str) -> list[tuple[int, int]]:
    """The (start, end) of each ``Key::`` that starts a line field (the key is no
    prose) in ``body`` (its code masked): the inline-field reader's own rule
    (``codecs.inline_fields.line_field``)."""
    spans: list[tuple[int, int]] = []
    at = body.find("::")
    while at != -1:
        start = body.rfind("\n", 0, at) + 1
        end = body.find("\n", at)
        end = len(body) if end < 0 else end
        field = line_field(body[start:end])
        if field is not None:
            spans.append((start, start + field[1]))
        at = body.find("::", end)
    return spans


def prose(body: str) -> str:
    """``body`` with everything that is not prose replaced (same length, newlines kept)."""
    code = code_regions(body)
    regions = list(code)
    regions += [m.span() for m in _INLINE_NOT_PROSE.finditer(body)]
    regions += [m.span() for m in _LINE_NOT_PROSE.finditer(body)]
    if "::" in body:
        regions += _field_keys(mask(body, code))
    regions.sort()
    out: list[str] = []
    pos = 0
    for start, end in regions:
        start = max(start, pos)
        if end <= start:
            continue
        out.append(body[pos:start])
        piece = body[start:end]  # (most are a link on one line: no regex needed)
        out.append(_NOT_NEWLINE.sub(_BLANK, piece) if "\n" in piece else _BLANK * len(piece))
        pos = end
    out.append(body[pos:])
    return "".join(out)


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def find_name(low: str, name: str, start: int = 0) -> Iterator[int]:
    """Offsets where ``name`` (lowercase, single spaces) occurs in ``low`` as whole
    words, any run of whitespace between its words.  Plain string search: no
    regex to compile for each of thousands of names."""
    parts = name.split(" ")
    first = parts[0]
    head = _is_word(first[0])
    tail = _is_word(parts[-1][-1])
    size = len(low)
    at = low.find(first, start)
    while at >= 0:
        end = at + len(first)
        ok = not (head and at > 0 and _is_word(low[at - 1]))
        for part in parts[1:] if ok else ():
            gap = end
            while gap < size and low[gap] in " \t\r\n":
                gap += 1
            if gap == end or not low.startswith(part, gap):
                ok = False
                break
            end = gap + len(part)
        if ok and not (tail and end < size and _is_word(low[end])):
            yield at
        at = low.find(first, at + 1)


def single_spaced(text: str) -> str:
    """``text`` with each gap between words (spaces, tabs, newlines) as one space.

    An ASCII text whose only white space is those four (most notes) is split and
    joined again in C: the regex tried its class at every character (0.1 ms for a
    5 KB note, a fifth of a note's scan where titles are words of the prose)."""
    if text.isascii() and not any(space in text for space in _OTHER_SPACE):
        joined = " ".join(text.split())
        if not joined:
            return " " if text else ""
        head = " " if text[0] in " \t\r\n" else ""
        tail = " " if text[-1] in " \t\r\n" else ""
        return head + joined + tail
    return _GAP.sub(" ", text)


def find_spaced(low: str, spaced: str, name: str) -> Iterator[int]:
    """``find_name(low, name)`` for a name of several words, faster.

    A common first word occurs dozens of times per note; the whole name is
    looked for in ``spaced`` (``single_spaced(low)``) instead, and each hit is
    placed in ``low`` by ``find_name`` from where it can start: offsets only
    shrink in ``spaced``, and the hits keep their order.
    """
    head = _is_word(name[0])
    tail = _is_word(name[-1])
    size = len(spaced)
    resume = 0
    at = spaced.find(name)
    while at >= 0:
        end = at + len(name)
        if not (head and at > 0 and _is_word(spaced[at - 1])) and not (
                tail and end < size and _is_word(spaced[end])):
            found = next(find_name(low, name, max(at, resume)), None)
            if found is None:
                return
            yield found
            resume = found + 1
        at = spaced.find(name, at + 1)


def whole_words(low: str, wanted: AbstractSet[str]) -> dict[str, list[int]]:
    """Word -> the offsets of its first ``SENTENCES_PER_SOURCE`` occurrences as a
    whole word in ``low``, for the words in ``wanted`` (letters and digits only):
    what ``find_name`` finds for each, in one pass.  (``\\w`` is ``_is_word``:
    ``str.isalnum`` or ``_``.)"""
    found: dict[str, list[int]] = {}
    if not wanted:
        return found
    for match in _WORD.finditer(low):
        word = match.group()
        if word in wanted:
            offsets = found.get(word)
            if offsets is None:
                found[word] = [match.start()]
            elif len(offsets) < SENTENCES_PER_SOURCE:
                offsets.append(match.start())
    return found


def scan(body: str, names: MentionNames) -> list[tuple[str, int]]:
    """(name, offset) of every name in the prose of ``body``, at most a few per name."""
    return [(name, offset) for name, offsets in scan_prose(prose(body), names, None).hits.items()
            for offset in offsets]


class Hits:
    """The names one note contains, each with the offsets of its first (at most
    ``SENTENCES_PER_SOURCE``) occurrences: a sorted tuple of the names and two
    arrays, not a dict of lists of tuples (a vault whose titles are everyday words
    has millions of hits, and every note's are kept while ``mkdocs serve`` runs)."""

    __slots__ = ("names", "_ends", "_offsets")

    def __init__(self, found: dict[str, list[int]] | None = None) -> None:
        found = found or {}
        self.names: tuple[str, ...] = tuple(sorted(found))
        offsets = list(map(found.__getitem__, self.names))
        self._offsets = array("I", chain.from_iterable(offsets))
        self._ends = array("I", accumulate(map(len, offsets)))

    def get(self, name: str) -> tuple[int, ...]:
        """The offsets of ``name`` (none when the note does not contain it)."""
        at = bisect_left(self.names, name)
        if at == len(self.names) or self.names[at] != name:
            return ()
        return tuple(self._offsets[self._ends[at - 1] if at else 0:self._ends[at]])

    def items(self) -> Iterator[tuple[str, tuple[int, ...]]]:
        start = 0
        for name, end in zip(self.names, self._ends, strict=True):
            yield name, tuple(self._offsets[start:end])
            start = end

    def __len__(self) -> int:
        return len(self.names)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Hits) and self.names == other.names
                and self._ends == other._ends and self._offsets == other._offsets)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> tuple[Any, ...]:
        return self.names, self._ends, self._offsets

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.names, self._ends, self._offsets = state

    def renamed(self, canonical: dict[str, str]) -> Hits:
        """These hits with each name the same string object as in ``canonical``
        (a worker's results arrive with a copy of every name, once per note)."""
        self.names = tuple(map(canonical.__getitem__, self.names))
        return self

    def joined(self, gone: AbstractSet[str], fresh: Hits) -> Hits:
        """These hits less the names in ``gone``, plus ``fresh``'s."""
        found = {name: list(offsets) for name, offsets in self.items() if name not in gone}
        found.update((name, list(offsets)) for name, offsets in fresh.items())
        return Hits(found)


class WordSketch:
    """A note's distinct words and word pairs ("next release"), as sorted 32-bit hashes.

    Four bytes each instead of a set of strings: kept for every note while
    ``mkdocs serve`` runs, sets of word strings took far more memory.  A hash
    collision only makes ``in`` answer yes for a word the note lacks, which
    costs one needless scan of that note, never a wrong mention.
    """

    __slots__ = ("_hashes",)

    def __init__(self, words: list[str]) -> None:
        items = set(words)
        items.update(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))
        self._hashes = array("I", sorted({hash(item) & 0xFFFFFFFF for item in items}))

    def __contains__(self, item: str) -> bool:
        key = hash(item) & 0xFFFFFFFF
        at = bisect_left(self._hashes, key)
        return at < len(self._hashes) and self._hashes[at] == key


@dataclass
class _Scanned:
    """One note's scan: its words (to find candidates again) and its hits per name."""

    words: WordSketch | None  # None in a one-shot build: no later name change to check
    hits: Hits
    names: frozenset[tuple[str, str | None]]  # (name, exact spelling) scanned for


def scan_prose(text: str, names: MentionNames, only: set[str] | None,
               keep_words: bool = True) -> _Scanned:
    """Scan prose for the candidate names (``only``: just these)."""
    low = text.lower()
    words = low.translate(_SPACES).split()
    plain, candidates = names.candidates(words)
    if only is not None:
        plain = plain & only
        candidates = [name for name in candidates if name in only]
    # one-word names of letters and digits: their whole-word places are the text's
    # words equal to them, found among its words (a search for each name went
    # through every word that merely contains it: "ba" in "bar", "sabai")
    hits = whole_words(low, plain)
    for name, found in _other_finds(text, low, names, candidates):
        if offsets := list(islice(found, SENTENCES_PER_SOURCE)):
            hits[name] = offsets
    return _Scanned(WordSketch(words) if keep_words else None, Hits(hits), names.signature)


def _other_finds(text: str, low: str, names: MentionNames, candidates: Iterable[str]
                 ) -> Iterator[tuple[str, Iterator[int]]]:
    """Each of ``candidates`` (names that are not ``plain``) with its places in
    ``text`` (``low``: the text in lowercase), found as it is iterated."""
    spaced: str | None = None
    for name in candidates:
        exact = names.exact.get(name)
        if exact:
            yield name, find_name(text, exact)
        elif " " in name:
            spaced = single_spaced(low) if spaced is None else spaced
            yield name, find_spaced(low, spaced, name)
        else:
            yield name, find_name(low, name)


def held(text: str, names: MentionNames) -> array[int]:
    """The names ``scan_prose`` finds in ``text`` (their places in ``names.ordered``,
    ascending), without where: a build with none after it needs the places of a
    few of them only (``_mentions_once``).  A one-word name of letters and digits
    is one of the text's whole words: those are the text's words split at every
    other character, in C, where it is ASCII."""
    low = text.lower()
    plain, candidates = names.candidates(low.translate(_SPACES).split())
    found = [name for name, places in _other_finds(text, low, names, candidates)
             if next(places, None) is not None]
    if plain and low.isascii() and not _SPLIT_UNLIKE_WORDS.search(low):
        found += plain  # (the words split at punctuation and white space are its words)
    elif plain:
        found += plain & _words_of(low)
    return array("I", sorted(map(names.index.__getitem__, found)))


def _words_of(low: str) -> set[str]:
    """The whole words (runs of ``_is_word`` characters) of ``low``."""
    if low.isascii():
        return set(low.translate(_NOT_WORD).split())
    return set(_WORD.findall(low))


def first_places(text: str, names: MentionNames, wanted: Iterable[str]) -> Hits:
    """``scan_prose``'s hits of ``wanted`` in ``text``: names ``held`` found there.

    Few names of a note (those of the targets whose panel shows it): each is
    looked for, not every word of the text gone through (``whole_words``).  In an
    ASCII text whose characters that are no word characters are made spaces, a
    whole word ``w`` is `` w `` (the text padded with a space at each end)."""
    low = text.lower()
    plain = [name for name in wanted if name in names.plain]
    found: dict[str, list[int]] = {}
    if plain and low.isascii():
        padded = " " + low.translate(_NOT_WORD) + " "
        for name in plain:
            key = f" {name} "
            at = padded.find(key)
            offsets: list[int] = []
            while at >= 0 and len(offsets) < SENTENCES_PER_SOURCE:
                offsets.append(at)  # (the padding's space: the word's offset in ``low``)
                at = padded.find(key, at + len(key) - 1)
            if offsets:
                found[name] = offsets
    elif plain:
        found = whole_words(low, set(plain))
    others = [name for name in wanted if name not in names.plain]
    for name, places in _other_finds(text, low, names, others):
        if offsets := list(islice(places, SENTENCES_PER_SOURCE)):
            found[name] = offsets
    return Hits(found)


@dataclass
class MentionCache:
    """Each note's scan by content hash; lives as long as the plugin.

    When the set of names changes (a title edited, a note added), a note is
    not scanned again: only names it could contain (their first word or pair
    is among its words) are looked for, and hits of names that are gone are
    dropped.  A rename costs a scan of the few notes containing the new name.
    """

    notes: dict[str, _Scanned] = field(default_factory=dict)
    #: (names a note was scanned for, names now) -> (gone, added), for this build
    diffs: dict[tuple[frozenset[Any], frozenset[Any]], tuple[set[str], set[str]]] = field(
        default_factory=dict, repr=False)

    #: the name set of the last build: an equal one is replaced by it, so that
    #: comparing a note's names with the current ones is an identity check, not a
    #: comparison of thousands of names per note
    signature: frozenset[Any] = frozenset()
    #: keep each note's word sketch for the next rebuild (``mkdocs serve``); a
    #: one-shot build skips them (a third of the scan's time)
    keep_words: bool = True

    #: the last build's MentionNames, each source's place in the panels' order and
    #: what both were made from: an edit that changes no title or alias reuses them
    #: (making them is costly in a large vault)
    last_names: tuple[tuple[Any, ...], MentionNames, dict[SrcPath, int]] | None = field(
        default=None, repr=False)

    #: the last build's findings per source note, its sources per target, and its result
    sources: dict[SrcPath, _Source] = field(default_factory=dict, repr=False)
    by_target: dict[SrcPath, list[SrcPath]] = field(
        default_factory=lambda: defaultdict(list), repr=False)
    result: dict[SrcPath, Mentions] = field(default_factory=dict, repr=False)
    #: the result before the last build's, and the targets whose panel that build
    #: made again (the others' are the same objects)
    touched: tuple[dict[SrcPath, Mentions], set[SrcPath]] | None = field(
        default=None, repr=False)

    def release(self) -> None:
        """Forget everything kept for the next build (a build with none after it): every
        note's hits, each source's findings, each target's sources, before the panels'
        workers fork with them (5,000 ``gen_vault.py`` notes: 2.1 million pairs).  The
        result already returned stays whole."""
        self.notes, self.sources, self.result = {}, {}, {}
        self.by_target = defaultdict(list)
        self.last_names, self.touched = None, None

    def touched_since(self, before: dict[SrcPath, Mentions]) -> set[SrcPath] | None:
        """The targets whose mentions may differ from ``before`` (None: any)."""
        if self.touched is None or self.touched[0] is not before:
            return None
        return self.touched[1]

    def found_by(self, source: SrcPath) -> dict[SrcPath, tuple[int, ...]]:
        """The notes the last build found ``source`` to mention, with the offsets."""
        found = self.sources.get(source)
        if found is None or self.last_names is None:
            return {}
        names = self.last_names[1]
        return {target: _offsets(found.scanned.hits, names.names_of[target])
                for target in found.found}

    def names_of(self, docs: Iterable[Document]
                 ) -> tuple[MentionNames, dict[SrcPath, int], set[str]]:
        """This build's names, each source's place in the panels' order, and the
        names whose owning notes differ from the last build's (every name the first
        time: nothing found before can be kept)."""
        docs = list(docs)
        key = tuple((d.path, d.url is None, d.title, d.aliases) for d in docs)
        last = self.last_names
        if last is not None and last[0] == key:
            return last[1], last[2], set()
        names = MentionNames(docs)
        self.intern(names)
        ordered = sorted((d for d in docs if d.kind == "markdown" and d.url is not None),
                         key=sort_key)
        rank = {doc.path: k for k, doc in enumerate(ordered)}
        self.last_names = (key, names, rank)
        if last is None:
            self.sources = {}
            return names, rank, set(names.owners)
        old, new = last[1].owners, names.owners
        return names, rank, {name for name in old.keys() | new.keys()
                             if old.get(name) != new.get(name)}

    def intern(self, names: MentionNames) -> None:
        if names.signature == self.signature:
            names.signature = self.signature
        self.signature = names.signature

    def _unscanned(self, digest: str) -> bool:
        seen = self.notes.get(digest)
        return seen is None or (self.keep_words and seen.words is None)

    def scan_ahead(self, docs: Iterable[Document], body_of: Callable[[Document], str],
                   names: MentionNames, workers: int = 0) -> None:
        """Scan the notes never scanned, in several processes when there are many
        (a cold build: every note).  ``workers`` as ``builder.parse.parse_many``."""
        todo = {d.parsed.digest: d for d in docs if self._unscanned(d.parsed.digest)}
        if len(todo) < SCAN_POOL_THRESHOLD:
            return  # ``hits`` scans each as it comes
        # each process reads the bodies of its own notes as it scans them: a list of
        # every body made here first held a copy of each (25 MB at 5,000 notes), and
        # the workers forked with it
        scan_one = functools.partial(_scan_doc, body_of=body_of, names=names,
                                     keep_words=self.keep_words)
        scanned = map_if_it_pays(scan_one, list(todo.values()), SCAN_POOL_THRESHOLD, workers,
                                 fork_only=True)
        if scanned is None:
            return  # one CPU, or a worker failed: ``hits`` scans each as it comes
        canonical = names.canonical
        for digest, (words, found) in zip(todo, scanned, strict=True):
            self.notes[digest] = _Scanned(words, found.renamed(canonical), names.signature)

    def hits(self, digest: str, body: Callable[[], str], names: MentionNames) -> _Scanned:
        seen = self.notes.get(digest)
        if seen is None or (self.keep_words and seen.words is None):
            seen = scan_prose(prose(body()), names, None, self.keep_words)
        elif seen.names is not names.signature:
            seen = _update(seen, body, names, self.diffs)
        self.notes[digest] = seen
        return seen


def _scan_doc(doc: Document, body_of: Callable[[Document], str], names: MentionNames,
              keep_words: bool) -> tuple[WordSketch | None, Hits]:
    """One note's scan, without the name set (which the results would carry back
    from a worker process, pickled once per note)."""
    seen = scan_prose(prose(body_of(doc)), names, None, keep_words)
    return seen.words, seen.hits


def _update(seen: _Scanned, body: Callable[[], str], names: MentionNames,
            diffs: dict[tuple[frozenset[Any], frozenset[Any]], tuple[set[str], set[str]]]
            ) -> _Scanned:
    key = (seen.names, names.signature)
    diff = diffs.get(key)
    if diff is None:  # once per pair of name sets, not once per note
        diff = diffs[key] = ({name for name, _ in seen.names - names.signature},
                             {name for name, _ in names.signature - seen.names})
    gone, added = diff
    wanted = {name for name in added
              if seen.words is None or names.could_occur(name, seen.words)}
    if not wanted and gone.isdisjoint(seen.hits.names):
        # the same hits: the same object, so that what was found from it is kept
        seen.names = names.signature
        return seen
    fresh = scan_prose(prose(body()), names, wanted).hits if wanted else Hits()
    hits = seen.hits.joined(gone, fresh).renamed(names.canonical)
    return _Scanned(seen.words, hits, names.signature)


def find_mentions(
    compiled: Compiled, body_of: Callable[[Document], str], cache: MentionCache,
    workers: int = 0, *, keep: bool = True,
) -> dict[SrcPath, Mentions]:
    """Unlinked mentions of every published note, by target path.

    ``keep=False``: a build with none after it (``mkdocs build``; the caller releases
    the cache next): the same result without what a next build would reuse
    (``_mentions_once``).

    What a note mentions depends on its scan, its links and who owns the names
    it contains; when none of these changed since the last build (the same
    objects, no owner changed) its findings are kept, and only the targets
    whose sources changed get their panel made again (``cache.touched``).  A
    source's place in a panel's order (its title, its path) changes only with its
    text or its path, which make its findings again: every panel it is on is made
    again too.
    """
    if not keep:
        return _mentions_once(compiled, body_of, cache, workers)
    published = compiled.published
    names, rank, owners_changed = cache.names_of(published.values())
    cache.scan_ahead((d for d in published.values() if d.kind == "markdown" and d.url is not None),
                     body_of, names, workers)
    used: dict[str, _Scanned] = {}
    sources: dict[SrcPath, _Source] = {}
    touched: set[SrcPath] = set()
    for doc in published.values():
        if doc.kind != "markdown" or doc.url is None:
            continue
        scanned = cache.hits(doc.parsed.digest, functools.partial(body_of, doc), names)
        used[doc.parsed.digest] = scanned
        links = compiled.links.get(doc.path)
        last = cache.sources.get(doc.path)
        if (last is not None and last.scanned is scanned and last.links is links
                and owners_changed.isdisjoint(scanned.hits.names)):
            sources[doc.path] = last
            continue
        source = sources[doc.path] = _Source(scanned, links,
                                             _found_in(doc.path, scanned.hits, links, names))
        if last is not None:
            touched.update(last.found)
        touched.update(source.found)
    for path in cache.sources.keys() - sources.keys():
        touched.update(cache.sources[path].found)
    cache.notes = used  # keep only what this build used
    cache.diffs.clear()
    by_target = cache.by_target
    gone = {path for path, last in cache.sources.items() if sources.get(path) is not last}
    # each list filtered once (a retitle can make thousands of sources' findings again,
    # each on hundreds of lists: one ``remove`` per pair went through each list each time)
    for target in {target for path in gone for target in cache.sources[path].found}:
        by_target[target] = [path for path in by_target[target] if path not in gone]
    for path, source in sources.items():
        if cache.sources.get(path) is not source:
            for target in source.found:
                by_target[target].append(path)
    result = dict(cache.result)
    for target in touched:
        found = by_target.get(target)
        if found:
            shown = sorted(found, key=rank.__getitem__)[:MENTIONS_SHOWN]
            result[target] = Mentions(len(found), tuple(
                Mention(source, target, _offsets(sources[source].scanned.hits,
                                                 names.names_of[target]))
                for source in shown))
        else:
            by_target.pop(target, None)
            result.pop(target, None)
    cache.touched = (cache.result, touched)
    cache.sources, cache.result = sources, result
    return result


def _mentions_once(compiled: Compiled, body_of: Callable[[Document], str],
                   cache: MentionCache, workers: int) -> dict[SrcPath, Mentions]:
    """``find_mentions`` for a build with none after it: each target's count and its
    first ``MENTIONS_SHOWN`` sources in the panels' order, from the notes that hold
    each name, never from every (source, target) pair; where a note names a target,
    only for the notes shown.

    A note mentions a target when it holds one of the target's names and neither
    links to it nor is it.  So a target's sources are the union of its names'
    holders (``holders``: each name's, as places in the panels' order) less the few
    notes that link to it (``linked``): its count is their number, and only the
    shown ones are walked in Python.  (20,000 ``gen_vault.py`` notes hold 5 million
    names whose owners make 29 million pairs: the walk over every pair took longer
    than the scan.)  Each note is scanned for the names it holds (``held``), and
    the shown sources (half the notes there, 17 names each) for where
    (``first_places``): the places of every name in every note were most of the
    scan, and 4% of them were shown."""
    published = compiled.published
    names, rank, _ = cache.names_of(published.values())
    ordered = sorted((d for d in published.values() if d.kind == "markdown" and d.url is not None),
                     key=lambda d: rank[d.path])
    holders = [array("I") for _ in names.ordered]
    for place, its in enumerate(_each(functools.partial(_held_by, body_of=body_of, names=names),
                                      ordered, workers)):
        # (in C: each name's array, appended this note's place)
        deque(map(array.append, map(holders.__getitem__, its), repeat(place)), 0)
    linked: defaultdict[SrcPath, set[int]] = defaultdict(set)
    for place, doc in enumerate(ordered):
        linked[doc.path].add(place)  # a note does not mention itself
        for resolution in compiled.links.get(doc.path) or ():
            if resolution.target is not None:
                linked[resolution.target].add(place)
    index = names.index
    counted: dict[SrcPath, tuple[int, list[int]]] = {}
    for target, its_names in names.names_of.items():
        lists = [places for name in its_names if (places := holders[index[name]])]
        if not lists:
            continue
        skip = linked.get(target, set())
        first = MENTIONS_SHOWN + len(skip)  # the first shown are among this many
        if len(lists) == 1:
            places = lists[0]
            total = len(places) - sum(map(_holds, repeat(places), skip))
            head: Iterable[int] = places[:first]
        else:
            union = set().union(*lists)
            total = len(union) - len(union.intersection(skip))
            head = sorted(set().union(*(places[:first] for places in lists)))[:first]
        if total:
            counted[target] = (total, [place for place in head if place not in skip]
                               [:MENTIONS_SHOWN])
    # each shown source's names of the targets it is shown for, and where they are
    wanted: defaultdict[int, set[str]] = defaultdict(set)
    for target, (_, shown) in counted.items():
        its_names = names.names_of[target]
        for place in shown:
            wanted[place].update(name for name in its_names
                                 if _holds(holders[index[name]], place))
    shown_sources = sorted(wanted)
    found = _each(functools.partial(_first_places, body_of=body_of, names=names),
                  [(ordered[place], tuple(sorted(wanted[place]))) for place in shown_sources],
                  workers)
    hits_at = dict(zip(shown_sources, found, strict=True))
    return {target: Mentions(total, tuple(
                Mention(ordered[place].path, target,
                        _offsets(hits_at[place], names.names_of[target]))
                for place in shown))
            for target, (total, shown) in counted.items()}


def _each(func: Callable[[Any], Any], items: list[Any], workers: int) -> list[Any]:
    """``[func(item) for item in items]``, in forked workers too when there are many."""
    done = map_if_it_pays(func, items, SCAN_POOL_THRESHOLD, workers, fork_only=True)
    return [func(item) for item in items] if done is None else done


def _held_by(doc: Document, body_of: Callable[[Document], str], names: MentionNames
             ) -> array[int]:
    return held(prose(body_of(doc)), names)


def _first_places(item: tuple[Document, tuple[str, ...]], body_of: Callable[[Document], str],
                  names: MentionNames) -> Hits:
    doc, wanted = item
    return first_places(prose(body_of(doc)), names, wanted)


def _holds(places: array[int], place: int) -> bool:
    """Is ``place`` in ``places`` (ascending)?"""
    at = bisect_left(places, place)
    return at < len(places) and places[at] == place


@dataclass(frozen=True)
class _Source:
    """What one note mentions, and what it was found from."""

    scanned: _Scanned
    links: Any  # the note's resolved links (the compiler's list)
    found: tuple[SrcPath, ...]  # the notes it names and does not link to


def _found_in(path: SrcPath, hits: Hits, links: Any, names: MentionNames
              ) -> tuple[SrcPath, ...]:
    """The notes ``path`` names (by any of their names) without linking to them."""
    named = set(chain.from_iterable(map(names.owners.get, hits.names, repeat(()))))
    named.difference_update(resolution.target for resolution in links or ())
    named.discard(path)
    return tuple(named)  # (in no order: a panel orders its sources by title)


def _offsets(hits: Hits, names: list[str]) -> tuple[int, ...]:
    """The first offsets (at most ``SENTENCES_PER_SOURCE``) where a note's ``hits``
    name a target, by any of its ``names``."""
    if len(names) == 1:
        return hits.get(names[0])
    offsets = {offset for name in names for offset in hits.get(name)}
    return tuple(sorted(offsets)[:SENTENCES_PER_SOURCE])


def snippet(body: str, offset: int, target: Document, wikitext: WikiText,
            names: tuple[tuple[str, str | None], ...] | None = None) -> Snippet:
    """The sentence at ``offset`` as the page shows it (the one snippet maker,
    ``codecs/snippet.py``), split around the name it mentions.  ``names``:
    ``shown_names(target)``, made once for all of a panel's snippets."""
    text = sentence(body, offset, wikitext)
    low = None
    for name, exact in shown_names(target) if names is None else names:
        if exact:
            at = next(find_name(text, exact), -1)
        else:
            low = text.lower() if low is None else low
            at = next(find_name(low, name), -1)
        if at < 0:
            continue
        return around(text, at, at + len(name) + _extra_space(text, at, name))
    return Snippet(text[:SNIPPET_MAX], "", "")


def around(text: str, at: int, end: int) -> Snippet:
    """The sentence ``text`` around its match ``text[at:end]``, cut at spaces to about
    ``SNIPPET_MAX`` characters."""
    before, match, after = text[:at], text[at:end], text[end:]
    room = max(40, (SNIPPET_MAX - len(match)) // 2)
    if len(before) > room:
        cut = before.find(" ", len(before) - room)
        before = "…" + before[cut + 1 if cut >= 0 else len(before) - room:]
    if len(after) > room:
        cut = after.rfind(" ", 0, room)
        after = after[: cut if cut > 0 else room] + "…"
    return Snippet(before, match, after)


def shown_names(target: Document) -> tuple[tuple[str, str | None], ...]:
    """The names ``snippet`` marks in a sentence about ``target``, longest first: each
    (name, its spelling if it is an acronym, which matches in capitals only).  Once per
    panel, not per sentence: a panel quotes up to 50 (``name_key`` of every name for
    each name of each sentence was a tenth of a panel's time)."""
    written = (target.title, *target.aliases)
    keys = [name_key(n) for n in written]
    shown = []
    for name in sorted(keys, key=len, reverse=True):
        if len(name) < MIN_NAME:
            continue
        exact = next((n.strip() for n, key in zip(written, keys, strict=True)
                      if key == name and is_acronym(n.strip())), None)
        shown.append((name, exact))
    return tuple(shown)


def _extra_space(text: str, at: int, name: str) -> int:
    """How much longer than ``name`` its occurrence at ``at`` is (wider whitespace)."""
    end, extra = at, 0
    for k, part in enumerate(name.split(" ")):
        if k:
            gap = end
            while gap < len(text) and text[gap].isspace():
                gap += 1
            extra += gap - end - 1
            end = gap
        end += len(part)
    return extra


def sort_key(doc: Document) -> tuple[str, str]:
    return (normalize_name(doc.title), doc.path)

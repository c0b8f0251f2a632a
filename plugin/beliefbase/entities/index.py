"""The project-wide entity index, built from one compile (SPEC §7).

Two passes over the published notes: the first reads every manual mention
(tags, aliases, rejections) and makes the entities, their type history, the
aliases and the blacklist (a name rejected in two or more notes, unless some
note tags it manually); the second runs the page pipeline (``detect.py``) on
every note with the project's names and records each mention.  The site's
overlay runs the same pipeline on each page's Markdown with ``index.names``,
so a page shows exactly the mentions recorded here.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from .. import diagnostics as diag
from ..codecs.entity_syntax import (
    ManualMention,
    entity_key,
    find_manual,
    protected_regions,
)
from ..codecs.snippet import sentence
from ..frozen import FrozenDict
from ..ids import SrcPath
from .detect import Names, detect
from .model import Entity, Mention, Rejection, Span, TypeGiven

#: Longest sentence kept for a mention on an entity page.


@dataclass(frozen=True)
class EntityIndex:
    """Every entity of a project, and what the page pipeline needs.  Read-only (a
    ``Compiled`` holds it): ``build_index`` makes it whole."""

    entities: dict[str, Entity] = field(default_factory=FrozenDict)  # by key, sorted
    names: Names = field(default_factory=lambda: Names(()))
    blacklist: frozenset[str] = frozenset()  # casefolded names
    by_note: dict[SrcPath, tuple[Span, ...]] = field(default_factory=FrozenDict)
    #: each note's body and manual mentions, as the spans above were found in
    notes: dict[SrcPath, _Note] = field(default_factory=FrozenDict, repr=False)

    def page_spans(self, path: SrcPath | None, text: str) -> tuple[list[Span], list[
            ManualMention]] | None:
        """The spans and manual mentions of note ``path`` shifted into ``text``, when
        ``text`` is that note's body (up to blank lines around it); else None."""
        note = self.notes.get(path) if path is not None else None
        if note is None:
            return None
        core = text.strip("\n")
        if note.released is not None:  # a note without mentions: only its digest is kept
            return ([], []) if _digest(core) == note.released else None
        body = note.body
        if len(core) != len(body.strip("\n")) or core != body.strip("\n"):
            return None
        shift = (len(text) - len(text.lstrip("\n"))) - (len(body) - len(body.lstrip("\n")))
        spans = [Span(s.start + shift, s.end + shift, s.name, s.key, s.source, s.kind)
                 for s in self.by_note.get(note.path, [])]
        manual = [m._replace(start=m.start + shift, end=m.end + shift,
                             name_start=m.name_start + shift, name_end=m.name_end + shift)
                  for m in note.manual]
        return spans, manual

    def __bool__(self) -> bool:
        return bool(self.entities)

    def by_type(self) -> dict[str, list[Entity]]:
        """Entities grouped by type, types and names sorted."""
        groups: dict[str, list[Entity]] = defaultdict(list)
        for entity in self.entities.values():
            groups[entity.type].append(entity)
        return {t: sorted(groups[t], key=lambda e: e.name.casefold()) for t in sorted(groups)}


@dataclass(frozen=True, slots=True)
class _Note:
    """A note's body as the entity stage read it (kept between compiles by path)."""

    path: SrcPath
    body: str
    first_line: int
    regions: tuple[tuple[int, int], ...]
    manual: tuple[ManualMention, ...]
    #: a note without mentions keeps only the digest of its body (blank lines around
    #: it stripped) and ``body`` is "": ``page_spans`` needs no more; else None
    released: bytes | None = None


@dataclass(slots=True)
class _Draft:
    """An entity while ``build_index`` collects it (``Entity`` is read-only)."""

    key: str
    name: str
    type: str
    slug: str
    history: list[TypeGiven] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)

    def entity(self) -> Entity:
        return Entity(self.key, self.name, self.type, self.slug, tuple(self.history),
                      tuple(self.aliases), tuple(self.names), tuple(self.mentions),
                      tuple(self.rejections))


class _Sentences:
    """The sentences around a note's mentions, made when an entity page asks."""

    #: ``frozen.CACHES``: (start, end) of a stretch of the note -> its text (mentions
    #: close together share one): a function of the note's body
    __caches__ = ("_seen",)

    def __init__(self, note: _Note) -> None:
        self.note = note
        self._seen: dict[tuple[int, int], str] = {}

    def around(self, at: int) -> str:
        return _sentence(self.note, at, self._seen)


@dataclass(frozen=True, slots=True)
class _SentenceAt:
    """A mention's ``context``: its sentence, made when called."""

    sentences: _Sentences
    at: int

    def __call__(self) -> str:
        return self.sentences.around(self.at)


def _released(note: _Note) -> _Note:
    """``note`` with its body let go: a 5,000-note vault's bodies are 25 MB, copies of
    the notes' texts, and a note without mentions never shows one."""
    return _Note(note.path, "", note.first_line, (), (),
                 _digest(note.body.strip("\n")))


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


#: Different entities one note may tag: each gets a page, and a note with thousands
#: of tags (a pasted list) would add thousands of pages, like MAX_TAGS_PER_NOTE.
MAX_ENTITIES_PER_NOTE = 100


def note_of(path: SrcPath, body: str, first_line: int = 1) -> _Note:
    regions = protected_regions(body) if ":" in body else []
    manual = find_manual(body, regions) if ":" in body else []
    return _Note(path, body, first_line, tuple(regions), tuple(manual))


def build_index(notes: list[_Note], display: object = str, *, auto: bool = True
                ) -> tuple[EntityIndex, list[diag.Diagnostic]]:
    """The index of ``notes`` (``display`` shows a path in diagnostics); ``auto``
    False (option ``auto_entities``) detects no names, only manual mentions count."""
    shown = display if callable(display) else str
    entities: dict[str, _Draft] = {}
    names: dict[str, str] = {}
    rejected_in: dict[str, set[SrcPath]] = defaultdict(set)
    tagged: set[str] = set()
    found: list[diag.Diagnostic] = []
    for note in sorted(notes, key=lambda n: n.path):
        named: set[str] = set()  # the entities this note tags (MAX_ENTITIES_PER_NOTE)
        for m in note.manual:
            line, column = _position(note, m.name_start)
            if m.kind == "reject":
                rejected_in[m.name.casefold()].add(note.path)
                continue
            key = entity_key(m.canonical if m.kind == "alias" and m.canonical else m.name)
            if not key or m.type is None:
                continue
            if key not in named and len(named) == MAX_ENTITIES_PER_NOTE:
                found.append(diag.make(
                    "too-many-entities", shown(note.path), line, column,
                    f"this note tags more than {MAX_ENTITIES_PER_NOTE} different entities; "
                    f"from {m.name!r} on its tags are text, not entities (each entity gets "
                    "a page): split the note, or write the names without the tag syntax"))
                break
            named.add(key)
            entity = entities.get(key)
            if entity is None:
                entity = entities[key] = _Draft(
                    key, m.name if m.kind == "tag" else _title(key), m.type, _slug(key))
            elif m.kind == "tag" and entity.name == _title(key) and not any(
                    h.kind == "tag" for h in entity.history):
                entity.name = m.name  # a tag's own spelling beats a made-up title
            given = TypeGiven(m.type, note.path, line, column, m.kind)
            if m.type != entity.type:
                first = next(h for h in entity.history if h.type == entity.type) \
                    if entity.history else None
                where = f"{shown(first.path)}:{first.line}:{first.column}" if first else "?"
                found.append(diag.make(
                    "entity-type-conflict", shown(note.path), line, column,
                    f"{m.name} is given type {m.type} here but {entity.type} at {where}; "
                    f"use one type for {entity.name} everywhere (beliefbase entity "
                    "change-type)"))
            entity.history.append(given)
            if m.kind == "tag":
                tagged.add(key)
                names.setdefault(m.name, key)
            else:
                names[m.name] = key
                if m.name not in entity.aliases:
                    entity.aliases.append(m.name)
    for entity in entities.values():
        names.setdefault(entity.name, entity.key)
        entity.aliases.sort(key=str.casefold)
    blacklist = {name for name, where in rejected_in.items() if len(where) >= 2}
    blacklist -= {n.casefold() for n, k in names.items() if k in tagged}
    known = Names((n, k) for n, k in sorted(names.items())
                  if auto and n.casefold() not in blacklist)
    by_note: dict[SrcPath, tuple[Span, ...]] = {}
    for note in sorted(notes, key=lambda n: n.path):
        sentences = _Sentences(note)
        spans = detect(note.body, known, manual=note.manual, regions=note.regions)
        spans = [s for s in spans if s.key in entities]
        if spans:
            by_note[note.path] = tuple(spans)
        for span in spans:
            at = span.start
            if span.source == "manual":
                at = next(m.name_start for m in note.manual if m.start == span.start)
            line, column = _position(note, at)
            entity = entities[span.key]
            entity.mentions.append(Mention(note.path, line, column, span.name, span.source,
                                           span.kind, _SentenceAt(sentences, at)))
            if span.name not in entity.names:
                entity.names.append(span.name)
        for m in note.manual:
            if m.kind != "reject":
                continue
            line, column = _position(note, m.name_start)
            for key in {names.get(m.name, ""), entity_key(m.name)}:
                if key in entities:
                    entities[key].rejections.append(Rejection(m.name, note.path, line, column))
    index = EntityIndex(FrozenDict({k: d.entity() for k, d in sorted(entities.items())}), known,
                        frozenset(blacklist), FrozenDict(by_note),
                        FrozenDict({n.path: n if n.manual or n.path in by_note
                                    else _released(n) for n in notes}))
    return index, found


def _slug(key: str) -> str:
    """``MOUNT_DOOM`` -> ``mount-doom`` (``index`` is the index page's)."""
    slug = key.lower().replace("_", "-")
    return "index-entity" if slug == "index" else slug


def _title(key: str) -> str:
    """``CORY_GILFORD`` -> ``Cory Gilford`` (an entity named only by aliases)."""
    return " ".join(w.capitalize() for w in key.split("_"))


def _position(note: _Note, at: int) -> tuple[int, int]:
    line_start = note.body.rfind("\n", 0, at) + 1
    return note.first_line + note.body.count("\n", 0, at), at - line_start + 1


def _sentence(note: _Note, at: int, seen: dict[tuple[int, int], str]) -> str:
    """The sentence around ``at`` as the page shows it (the one snippet maker,
    ``codecs/snippet.py``: the rule backlinks and mentions cut by), as marked text
    (code and math runs marked: ``snippet_parts``); ``seen`` keeps what was made for
    an offset already."""
    key = (at, at)
    text = seen.get(key)
    if text is None:
        text = seen[key] = sentence(note.body, at)
    return text

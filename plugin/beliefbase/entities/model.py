"""The entity model (SPEC §7): entities, their mentions, type history and rejections.

An entity is known by its key (``entity_key``: ``Mount Doom`` -> ``MOUNT_DOOM``);
everything here is plain data made by ``index.py`` from one compile and read by
the site (overlay, entity pages), the graph and the commands.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..ids import SrcPath

Source = Literal["manual", "auto"]


@dataclass(frozen=True, slots=True)
class Span:
    """One mention found in one text (offsets into that text).

    ``start``/``end`` cover what the raw text holds (for a manual mention the
    whole syntax, ``#Smaug:CREATURE``); ``name`` is what the page shows.
    ``key`` is the canonical entity the mention resolves to (an alias's
    canonical), ``kind`` the syntax (``auto`` for a detected name).
    """

    start: int
    end: int
    name: str
    key: str
    source: Source
    kind: Literal["tag", "alias", "auto"]


@dataclass(frozen=True)
class Mention:
    """A mention of an entity in a note: where (1-based line and column of the
    name in the file), how it was found, and the sentence around it (as the page shows it, marked
    text of ``codecs/snippet.py``; made when first asked for: only entity pages
    show it)."""

    path: SrcPath
    line: int
    column: int
    name: str
    source: Source
    kind: Literal["tag", "alias", "auto"]
    context: Callable[[], str] = field(default=lambda: "", repr=False, compare=False)

    @functools.cached_property
    def sentence(self) -> str:
        return self.context()


@dataclass(frozen=True, slots=True)
class TypeGiven:
    """One manual type given to an entity (a tag or an alias), and where."""

    type: str
    path: SrcPath
    line: int
    column: int
    kind: Literal["tag", "alias"]


@dataclass(frozen=True, slots=True)
class Rejection:
    """``Name:REJECT_ENTITY``: ``name`` is not an entity in the note ``path``."""

    name: str
    path: SrcPath
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Entity:
    """A canonical entity of the project."""

    key: str
    name: str  # shown as the entity's title
    type: str  # the first manual type given (path order); conflicts are diagnostics
    slug: str
    history: tuple[TypeGiven, ...] = ()
    aliases: tuple[str, ...] = ()  # surface forms, sorted
    names: tuple[str, ...] = ()  # every surface form detected
    mentions: tuple[Mention, ...] = ()
    rejections: tuple[Rejection, ...] = ()

    @property
    def notes(self) -> list[SrcPath]:
        """The notes that mention the entity, sorted."""
        return sorted({m.path for m in self.mentions})

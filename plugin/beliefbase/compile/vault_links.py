"""``VaultLinks``: what a link written in a note points to, as the compile decides.

The query engines of Obsidian Bases and Dataview (``bases``, ``dataview``) read
links the compile met (a note's links and embeds, its backlinks: the compile's
``links``/``backlinks``, the graph's edges) and links it never met: a
``[[link]]`` inside a property value, a list item, a query (``link("x")``,
``FROM [[x]]``).  Both kinds are resolved here, by the compile's own resolver
(``builder.resolve``: the five steps, the nearest note winning a tie), never by
an engine's rules of its own: a dashboard's link goes where the page's link goes.

Read-only use of a compile's documents and resolver (``Compiled.documents``,
``Compiled.link_resolver``); answers are memoised per (source, target).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..codecs.model import LinkRef
from ..ids import SrcPath

if TYPE_CHECKING:
    from ..builder.documents import Document
    from ..builder.links import LinkResolver


@dataclass(frozen=True, slots=True)
class _Network:
    id: str = ""


@dataclass(frozen=True, slots=True)
class _Origin:
    """A link written at the docs root by no note (a query with no page)."""

    path: SrcPath = SrcPath("")
    folder: str = ""
    network: _Network = _Network()


_ORIGIN = cast("Document", _Origin())


def split_target(text: str) -> tuple[str, str, str | None]:
    """``[[target#fragment|display]]`` (or its inside) -> (target, fragment, display)."""
    inner = text.strip()
    if inner.startswith("!"):
        inner = inner[1:]
    if inner.startswith("[[") and inner.endswith("]]"):
        inner = inner[2:-2]
    inner, bar, display = inner.partition("|")
    target, _, fragment = inner.partition("#")
    return target.strip(), fragment.strip(), (display.strip() or None) if bar else None


class VaultLinks:
    """The compile's answer to "where does ``[[target]]`` in ``source`` point"."""

    __caches__ = ("_memo",)

    def __init__(self, documents: Mapping[SrcPath, Document],
                 link_resolver: LinkResolver) -> None:
        self._docs = documents
        self._resolver = link_resolver
        self._memo: dict[tuple[str | None, str], str | None] = {}

    def resolve(self, target: str, source: str | None = None) -> str | None:
        """The vault path of the published document or attachment that a wikilink
        target (``Note``, ``folder/Note.md``, ``Note#Heading``, ``[[Note|alias]]``)
        written in the note at ``source`` (``None``: at the docs root) names, as the
        compile resolves that link on the page; ``None`` when it names nothing
        published.  ``[[#Heading]]`` names ``source`` itself."""
        key = (source, target)
        if key in self._memo:
            return self._memo[key]
        name = split_target(target)[0]
        doc = self._docs.get(SrcPath(source)) if source else None
        if not name:
            found = source if doc is not None and doc.published else None
        else:
            ref = LinkRef("wikilink", name, "", None, 0, 0, "links_to")
            resolved = self._resolver.resolve_one(
                ref, doc if doc is not None else _ORIGIN)
            found = str(resolved.target) if resolved.resolved and resolved.target else None
        self._memo[key] = found
        return found

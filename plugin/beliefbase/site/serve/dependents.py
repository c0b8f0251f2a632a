"""Which pages a change touches: what ``mkdocs serve --dirty`` must rebuild.

MkDocs' dirty builds re-render only pages whose own source file is newer than
their output, so a note's backlinks, auto-titles in other notes, embeds of it
and the like would go stale.  After each compile the plugin asks
``dependent_pages`` which other pages show something of the changed notes and
removes their output files, so MkDocs rebuilds exactly those.

A page depends on a changed note when it is linked from it (its backlinks
panel quotes the note), resolved any of its links differently this time, links
to it while the note's face changed (title, headings, blocks, URL — a body
edit leaves linkers alone), is linked from a page of the last two kinds (its
backlinks panel quotes their sentences, which show the new title), or embeds
— directly or through other embeds — the note or a page of those kinds (the
embed shows their text).
When a title or an alias changes and the theme prints the navigation into
every page (Material without the explorer), every page depends on it.
``changed_mentions`` adds the pages whose "Unlinked mentions" panel changed:
a note that starts naming another is not linked to it, yet changes its page,
and so does one whose sentence naming it shows a link's new title;
``changed_keys`` the pages whose belief panels changed (a sidecar or raw file
edited: no note changed at all).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet

from ...builder.documents import Document
from ...builder.resolve import ResolvedLink
from ...compile.compiled import Compiled
from ...ids import SrcPath
from ..reader.mentions import Mentions


def dependent_pages(
    old: Compiled | None, new: Compiled, nav_in_every_page: bool,
    read: Callable[[SrcPath], str] | None = None,
    rewritten: dict[SrcPath, set[int]] | None = None,
) -> set[SrcPath] | None:
    """Source paths of published pages to rebuild besides the changed ones.

    ``None`` means "all of them" (first build, or a change every page shows).
    ``read``: a note's text, to tell which of a re-rendered note's sentences
    show something new (without it, every page it links to is rebuilt).
    ``rewritten``: ``rewritten_notes(old, new)`` if the caller has it already.
    """
    if old is None:
        return None
    changed = new.changed | new.removed
    if not changed:
        return set()
    if nav_in_every_page and _names_changed(old, new, changed):
        return None
    pages: set[SrcPath] = set()
    for path in changed:
        for compiled in (old, new):
            # the notes it links to quote it in their backlinks panel
            pages |= _targets(compiled.links.get(path, []))
    showing = rewritten if rewritten is not None else rewritten_notes(old, new)
    pages |= showing.keys()
    for path, lines in showing.items():
        # the notes whose backlinks panel quotes one of its sentences that changed
        near = paragraphs_near(read(path), lines) if read is not None else None
        for compiled in (old, new):
            pages |= _targets(resolution for resolution in compiled.links.get(path, [])
                              if near is None or resolution.link.line in near)
    # and whatever embeds one of those shows it too (an auto-title inside an embed)
    pages |= _embedders(new, changed | showing.keys())
    return {p for p in pages if p in new.documents and new.documents[p].published}


def rewritten_notes(old: Compiled, new: Compiled) -> dict[SrcPath, set[int]]:
    """Notes whose text renders differently though they did not change, each with
    the lines of its links that show something new: links to a note whose face
    changed (its title, headings, existence), links that resolve differently.
    Pages quoting those sentences (backlinks, unlinked mentions) change too."""
    showing: dict[SrcPath, set[int]] = defaultdict(set)
    for path in new.changed | new.removed:
        if _face_changed(old.documents.get(path), new.documents.get(path)):
            for compiled in (old, new):
                for resolution in compiled.backlinks.get(path, []):
                    showing[resolution.source].add(resolution.link.line)
    for path in _relinked(old, new):
        before, after = _by_place(old.links.get(path)), _by_place(new.links[path])
        showing[path] |= {line for line, column in before.keys() | after.keys()
                          if before.get((line, column)) != after.get((line, column))}
    return dict(showing)


def paragraphs_near(text: str, lines: AbstractSet[int]) -> set[int]:
    """The file lines (1-based) of the paragraphs holding ``lines``: a quoted
    sentence never crosses a blank line."""
    found: set[int] = set()
    paragraph: list[int] = []
    hit = False
    for number, line in enumerate([*text.split("\n"), ""], start=1):
        if line.strip():
            paragraph.append(number)
            hit = hit or number in lines
            continue
        if hit:
            found.update(paragraph)
        paragraph, hit = [], False
    return found | set(lines)


def _face_changed(before: Document | None, after: Document | None) -> bool:
    """Did what other pages show of this note change (title, headings, blocks, URL)?"""
    if before is None or after is None:
        return True
    return (
        before.title != after.title
        or before.url != after.url
        or before.published != after.published
        or [(s.anchor, s.text) for s in before.sections] != [(s.anchor, s.text)
                                                             for s in after.sections]
        or sorted(before.blocks) != sorted(after.blocks)
    )


def _names_changed(old: Compiled, new: Compiled, changed: AbstractSet[SrcPath]) -> bool:
    for path in changed:
        before, after = old.documents.get(path), new.documents.get(path)
        if (before is None) != (after is None):
            return True
        if before is not None and after is not None and (
            before.title != after.title or before.published != after.published
        ):
            return True
    return False


def _targets(links: Iterable[ResolvedLink]) -> set[SrcPath]:
    return {resolution.target for resolution in links
            if resolution.status == "ok" and resolution.target and not resolution.is_asset}


def _relinked(old: Compiled, new: Compiled) -> set[SrcPath]:
    """Pages whose links resolve differently now (a note appeared, a title moved...)."""
    return {path for path, links in new.links.items()
            if old.links.get(path) is not links and _shape(old.links.get(path)) != _shape(links)}


def _shape(links: Sequence[ResolvedLink] | None) -> list[tuple[object, ...]]:
    return [_link_shape(resolution) for resolution in links or []]


def _by_place(links: Sequence[ResolvedLink] | None) -> dict[tuple[int, int], tuple[object, ...]]:
    return {(resolution.link.line, resolution.link.column): _link_shape(resolution)
            for resolution in links or []}


def _link_shape(resolution: ResolvedLink) -> tuple[object, ...]:
    return (resolution.status, resolution.target, resolution.anchor, resolution.anchor_missing,
            resolution.candidates)


def _embedders(compiled: Compiled, pages: AbstractSet[SrcPath]) -> set[SrcPath]:
    """Every page that embeds one of ``pages``, directly or through other embeds."""
    embedded_by: dict[SrcPath, set[SrcPath]] = defaultdict(set)
    for source, links in compiled.links.items():
        for resolution in links:
            if (resolution.link.form == "embed" and resolution.status == "ok"
                    and resolution.target and not resolution.is_asset):
                embedded_by[resolution.target].add(source)
    found: set[SrcPath] = set()
    todo = list(pages)
    while todo:
        for source in embedded_by.get(todo.pop(), ()):
            if source not in found:
                found.add(source)
                todo.append(source)
    return found


def changed_mentions(
    old: dict[SrcPath, Mentions], new: dict[SrcPath, Mentions],
    changed: AbstractSet[SrcPath],
    among: set[SrcPath] | None = None,
) -> set[SrcPath]:
    """Targets whose mentions differ, or are quoted from a changed note (new sentence).

    ``among``: the only targets that can be (``find_mentions`` keeps the others'
    lists, and a changed note's findings are always made again)."""
    return {
        target
        for target in (old.keys() | new.keys() if among is None else among)
        if (now := new.get(target)) != old.get(target)
        or (now is not None and any(m.source in changed for m in now.shown))
    }


def changed_keys(old: dict[SrcPath, str] | None, new: dict[SrcPath, str]) -> set[SrcPath]:
    """Keys whose value differs between two builds (none on the first build)."""
    if old is None:
        return set()
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}

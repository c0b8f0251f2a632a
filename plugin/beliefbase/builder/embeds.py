"""Transclusion: what an embed includes, and when it must stop.

A *unit* is what ``![[Note]]``, ``![[Note#Heading]]`` or ``![[Note#^id]]``
embeds: a document's lines from ``start`` to ``end``.  An embed whose unit
contains one of the embed links that led to it (itself included) would
render forever: that is a cycle (a note embedding itself is the simplest; a
note embedding one of its *other* sections is fine).  Nesting more than
``embed_depth`` embeds is cut off.  A page holds at most ``MAX_EMBEDS``
transclusions and ``MAX_EMBED_LINES`` transcluded lines in all, nested ones
included (ten embeds of notes that embed ten more, five deep, made a page
too large to open): past either, embeds are shown as links (``embed-too-large``).  The
compiler checks every published page once (diagnostics at the offending
link); the renderer applies the same rules with ``blocked`` and ``Budget``
while it renders, in the same order, so what is reported is what the reader
sees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .. import diagnostics as diag
from ..ids import SrcPath
from .documents import Document
from .resolve import ResolvedLink


@dataclass(frozen=True, slots=True)
class Unit:
    path: SrcPath
    start: int  # first file line (inclusive)
    end: int  # last file line (inclusive)
    anchor: str | None = None

    def contains(self, path: SrcPath, line: int) -> bool:
        return self.path == path and self.start <= line <= self.end


#: The embed links that led to the unit being rendered: (file, line), outermost first.
Chain = tuple[tuple[SrcPath, int], ...]

#: Transclusions one page may hold, nested ones included.
MAX_EMBEDS = 200
#: Lines of transcluded notes one page may hold, nested ones included.
MAX_EMBED_LINES = 20_000


@dataclass(slots=True)
class Budget:
    """What one page has transcluded so far (the renderer's and the check's count)."""

    embeds: int = 0
    lines: int = 0

    def take(self, unit: Unit) -> bool:
        """Count ``unit`` in, or False when it would exceed a page's limits."""
        size = unit.end - unit.start + 1
        if self.embeds >= MAX_EMBEDS or self.lines + size > MAX_EMBED_LINES:
            return False
        self.embeds += 1
        self.lines += size
        return True


def unit_of(doc: Document, anchor: str | None) -> Unit:
    """The lines an embed of ``doc`` (whole, one section, or one block) covers."""
    if anchor and anchor.startswith("^"):
        block = doc.blocks.get(anchor[1:])
        if block is not None:
            return Unit(doc.path, block.start, block.end, anchor)
    elif anchor and anchor in doc.by_anchor:
        section = doc.by_anchor[anchor]
        return Unit(doc.path, section.line, section.end_line, anchor)
    return Unit(doc.path, doc.parsed.body_line, max(doc.parsed.line_count, doc.parsed.body_line))


def blocked(target: Unit, chain: Chain, max_depth: int) -> str | None:
    """"embed-cycle", "embed-depth" or None for the last embed of ``chain``."""
    if any(target.contains(path, line) for path, line in chain):
        return "embed-cycle"
    if len(chain) > max_depth:
        return "embed-depth"
    return None


def embeds_within(links: Sequence[ResolvedLink], unit: Unit) -> Iterator[ResolvedLink]:
    """Resolved note embeds written inside ``unit``'s lines."""
    for resolution in links:
        if (
            resolution.link.form in ("embed", "image")  # ![](Note.md) transcludes a note too
            and resolution.status == "ok"
            and not resolution.is_asset
            and unit.start <= resolution.link.line <= unit.end
        ):
            yield resolution


EmbedMemo = dict[SrcPath, tuple[list[diag.Diagnostic], set[SrcPath]]]


def check_embeds(
    docs: dict[SrcPath, Document],
    links: dict[SrcPath, tuple[ResolvedLink, ...]],
    max_depth: int,
    display: Callable[[str], str],
    roots: Iterable[SrcPath] | None = None,
    memo: EmbedMemo | None = None,
) -> list[diag.Diagnostic]:
    """Walk every page's embeds; one diagnostic per offending link.

    ``roots``: the pages that have note embeds, when the caller knows them.
    ``memo``: page -> (its walk's findings, every document the walk went
    through); a page's entry stays right until one of those documents changes,
    and the caller drops it then.
    """
    reported: dict[tuple[str, int, int], diag.Diagnostic] = {}
    for path in sorted(links if roots is None else roots):
        if path not in links or not any(resolution.link.form in ("embed", "image")
                                        for resolution in links[path]):
            continue
        entry = memo.get(path) if memo is not None else None
        if entry is None:
            own: dict[tuple[SrcPath, int, int], diag.Diagnostic] = {}
            reached = {path}
            walker = _Walker(docs, links, max_depth, display, own, reached)
            walker.walk(unit_of(docs[path], None), (), (path,))
            entry = (list(own.values()), reached)
            if memo is not None:
                memo[path] = entry
        for found in entry[0]:  # the first page (in path order) to report a link wins
            reported.setdefault((found.file, found.line, found.column), found)
    return list(reported.values())


class _Walker:
    def __init__(
        self,
        docs: dict[SrcPath, Document],
        links: dict[SrcPath, tuple[ResolvedLink, ...]],
        max_depth: int,
        display: Callable[[str], str],
        reported: dict[tuple[SrcPath, int, int], diag.Diagnostic],
        reached: set[SrcPath],
    ) -> None:
        self.docs, self.links, self.max_depth = docs, links, max_depth
        self.display, self.reported, self.reached = display, reported, reached
        self.budget = Budget()
        self.full = False  # the page's budget ran out: nothing more is transcluded

    def walk(self, unit: Unit, chain: Chain, names: tuple[str, ...]) -> None:
        for resolution in embeds_within(self.links.get(unit.path, []), unit):
            assert resolution.target is not None
            self.reached.add(resolution.target)
            target_doc = self.docs.get(resolution.target)
            if target_doc is None:
                continue
            target = unit_of(target_doc, resolution.anchor)
            here = (*chain, (resolution.source, resolution.link.line))
            problem = blocked(target, here, self.max_depth)
            if self.full:
                return
            if problem is None and not self.budget.take(target):
                self.full = True
                self._too_large(here[0])
                return
            if problem is None:
                self.walk(target, here, (*names, _name(target)))
            elif problem == "embed-cycle":
                # the loop, told from the file the diagnostic is in: a -> b -> a
                start = max(i for i, n in enumerate(names) if n.split("#")[0] == resolution.target)
                loop = [names[-1], *names[start:-1], names[-1]]
                self._report(resolution, problem, " -> ".join(loop))
            else:
                self._report(resolution, problem, " -> ".join((*names, _name(target))))

    def _report(self, resolution: ResolvedLink, problem: str, trail: str) -> None:
        key = (resolution.source, resolution.link.line, resolution.link.column)
        if key in self.reported:
            return
        if problem == "embed-cycle":
            message = (f"this embed includes itself ({trail}); it is shown as a link "
                       "instead. Remove one embed of the loop")
        else:
            message = (f"embeds nested more than {self.max_depth} deep ({trail}); the "
                       "innermost is shown as a link. Raise embed_depth or embed less deeply")
        self.reported[key] = diag.make(
            problem, self.display(resolution.source), resolution.link.line,
            resolution.link.column, message
        )


    def _too_large(self, where: tuple[SrcPath, int]) -> None:
        """The page ran out of its budget within the embed at ``where`` (its own line)."""
        page, line = where
        self.reported.setdefault((page, line, 1), diag.make(
            "embed-too-large", self.display(page), line, 1,
            f"this page transcludes more than {MAX_EMBEDS} notes or {MAX_EMBED_LINES:,} lines "
            "in all (nested embeds count); from within this embed on they are shown as "
            "links. Embed less, or link instead"))


def _name(unit: Unit) -> str:
    return unit.path + (f"#{unit.anchor}" if unit.anchor else "")

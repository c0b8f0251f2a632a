"""Link resolution (SPEC §5.2): a written target -> a document, asset or section.

The five steps, in order; the first that finds anything wins:

1. ``bid:`` prefix -> a full BID or a unique bref;
2. contains ``/`` or ends in ``.md`` -> a path relative to the linking note's
   folder, then to the docs root (``..`` out of docs_dir is refused);
3. frontmatter ``id`` (the linking note's network first, then all);
4. file base name, case-insensitive (notes without extension, other files
   with it; then folders, which stand for their index note; then path
   suffixes such as ``sub/note`` for ``a/sub/note.md``);
5. title or alias, case- and whitespace-insensitive.

Several candidates at one step: the nearest to the linking note wins (same
folder, then the closest ancestor folder, then the shortest path, then
alphabetical) and the link is reported as ``ambiguous-link``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..codecs.model import LinkRef
from ..ids import SrcPath, join_src, looks_like_bref, normalize_name, parse_bid
from .documents import Document, Section
from .index import NameIndex

#: "drawing": an Excalidraw drawing without an exported image (``target``: the drawing)
Status = Literal["ok", "unresolved", "unpublished", "external", "escape", "drawing"]


@dataclass(frozen=True, slots=True)
class Found:
    """What a target string names, before its fragment is looked at."""

    path: SrcPath
    step: int
    candidates: tuple[SrcPath, ...] = ()  # more than one: ambiguous


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    """A link with its target (document or asset path, plus anchor)."""

    link: LinkRef
    source: SrcPath
    status: Status
    target: SrcPath | None = None
    is_asset: bool = False
    anchor: str | None = None  # heading anchor or "^block-id", when it exists
    anchor_missing: bool = False
    candidates: tuple[SrcPath, ...] = ()
    step: int = 0

    @property
    def resolved(self) -> bool:
        return self.status == "ok"


class Resolver:
    """Resolves targets against the published index, then the drafts' index."""

    #: memos of ``find`` (``frozen.CACHES``): what a target finds, a function of the
    #: (read-only) indexes' names alone
    __caches__ = ("_memo", "_anywhere")

    def __init__(self, published: NameIndex, drafts: NameIndex) -> None:
        self.published = published
        self.drafts = drafts
        self._memo: dict[tuple[str, str, str], Found | Status | None] = {}
        self._anywhere: dict[str, Found | Status | None] = {}  # same for every linking note

    def with_indexes(self, published: NameIndex, drafts: NameIndex) -> Resolver:
        """A resolver of indexes that hold the same names as this one's (new document
        objects only): what a target finds is the same, so the answers are shared.
        Within one compile only: the ``Compiler`` starts each compile's own memos
        (``LinkResolver.for_compile``)."""
        out = Resolver(published, drafts)
        out._memo, out._anywhere = self._memo, self._anywhere
        return out

    def find(self, target: str, source: Document) -> Found | Status | None:
        """Found, "escape" (path leaves docs_dir), "unpublished", or None."""
        if target in self._anywhere:
            return self._anywhere[target]
        key = (source.folder, source.network.id, target)
        if key in self._memo:
            return self._memo[key]
        result: Found | Status | None = find_target(self.published, target, source)
        if result is None:
            in_drafts = find_target(self.drafts, target, source)
            result = "unpublished" if isinstance(in_drafts, Found) else None
        if self._same_for_every_source(target, result):
            self._anywhere[target] = result
        else:
            self._memo[key] = result
        return result

    def _same_for_every_source(self, target: str, result: Found | Status | None) -> bool:
        """Would a link from any other note get ``result`` for ``target`` too?

        Only two things read the linking note: the path step (a target with
        '/' or '.md' is relative to its folder) and the choice among several
        candidates (the nearest, and for an ``id`` its own network's first).
        """
        text = target.strip()
        if "/" in text or text.lower().endswith(".md"):
            return False
        if not isinstance(result, Found):
            return True  # found nothing, or only a draft: the steps themselves read no note
        if result.candidates:
            return False
        return result.step != 3 or len(self.published.ids.get(text, ())) == 1


def find_target(index: NameIndex, target: str, source: Document) -> Found | Status | None:
    text = target.strip()
    if text.lower().startswith("bid:"):
        return _by_bid(index, text[4:].strip())
    if "/" in text or text.lower().endswith(".md"):
        found = _by_path(index, text, source.folder)
        if found is not None:
            return found
    if text in index.ids:
        return _pick(index, _prefer_network(index, index.ids[text], source), source, 3)
    key = normalize_name(text[:-3] if text.lower().endswith(".md") else text)
    if key in index.stems:
        return _pick(index, index.stems[key], source, 4)
    if key in index.folders:
        return _pick(index, index.folders[key], source, 4)
    if "/" in text:
        suffix = _by_suffix(index, text)
        if suffix:
            return _pick(index, suffix, source, 4)
    if key in index.names:
        return _pick(index, index.names[key], source, 5)
    return None


def _by_bid(index: NameIndex, value: str) -> Found | None:
    bid = parse_bid(value)
    if bid is not None and bid in index.bids:
        return Found(index.bids[bid], 1)
    if looks_like_bref(value):
        paths = index.brefs.get(value.lower(), [])
        if paths:
            return Found(paths[0], 1, tuple(paths) if len(paths) > 1 else ())
    return None


def _by_path(index: NameIndex, text: str, folder: str) -> Found | Status | None:
    bases = [""] if text.startswith("/") else [folder, ""]
    relative = text.lstrip("/")
    escaped = False
    for base in dict.fromkeys(bases):
        joined = join_src(base, relative)
        if joined is None:
            escaped = True
            continue
        for candidate in _path_forms(joined):
            if candidate in index.paths:
                return Found(index.paths[candidate], 2)
        folder_index = index.folder_index(joined.rstrip("/"))
        if folder_index:
            return Found(folder_index, 2)
        for candidate in _path_forms(joined):
            matches = index.paths_ci.get(candidate.lower())
            if matches:
                return Found(matches[0], 2, tuple(matches) if len(matches) > 1 else ())
    return "escape" if escaped else None


def _path_forms(path: str) -> tuple[str, ...]:
    if path.lower().endswith(".md"):
        return (path,)
    return (path + ".md", path)


def _by_suffix(index: NameIndex, text: str) -> list[SrcPath]:
    tail = "/" + text.strip("/").lower()
    forms = (tail + ".md", tail) if not tail.endswith(".md") else (tail,)
    return sorted(
        SrcPath(p) for p in index.paths if any(("/" + p.lower()).endswith(f) for f in forms)
    )


def _prefer_network(index: NameIndex, paths: Sequence[SrcPath], source: Document) -> (
    Sequence[SrcPath]
):
    same = [p for p in paths if index.docs[p].network.id == source.network.id]
    return same or paths


def _pick(index: NameIndex, paths: Sequence[SrcPath], source: Document, step: int) -> Found:
    if len(paths) == 1:
        return Found(paths[0], step)
    ranked = sorted(paths, key=lambda p: nearness(p, source.folder))
    return Found(ranked[0], step, tuple(ranked))


def nearness(path: str, folder: str) -> tuple[int, int, int, str]:
    """Sort key: same folder, closest ancestor, shortest path, alphabetical."""
    candidate_folder = posixpath.dirname(path)
    if candidate_folder == folder:
        return (0, 0, path.count("/"), path)
    prefix = candidate_folder + "/" if candidate_folder else ""
    if not candidate_folder or (folder + "/").startswith(prefix):
        distance = folder.count("/") + 1 - (candidate_folder.count("/") + 1 if prefix else 0)
        return (1, distance, path.count("/"), path)
    return (2, 0, path.count("/"), path)


def resolve_fragment(doc: Document, fragment: str, slug: object) -> tuple[str | None, bool]:
    """(anchor, missing) for ``Heading``, ``H1#H2`` or ``^block-id`` in ``doc``: a
    function of its (frozen) sections and blocks (``LinkResolver`` memoises it)."""
    if not fragment:
        return None, False
    if fragment.startswith("^"):
        block = fragment[1:].strip()
        if block in doc.blocks:
            return "^" + block, False
        # case aside, as Obsidian compares block ids: [[n#^Intro]] finds ^intro
        lowered = block.lower()
        found = next((known for known in doc.blocks if known.lower() == lowered), None)
        return ("^" + found, False) if found is not None else (None, True)
    parts = [p for p in fragment.split("#") if p.strip()]
    if not parts:
        return None, False
    section = _find_section(doc, parts, slug)
    return (section.anchor, False) if section else (None, True)


def _find_section(doc: Document, parts: list[str], slug: object) -> Section | None:
    """The first section named ``parts[-1]`` whose ancestors include ``parts[:-1]`` in order:
    by its text, anchor or slug, else as Obsidian compares headings (``obsidian_heading_key``)."""
    for matcher in (_heading_matcher, _obsidian_matcher):
        matches = matcher(parts[-1], slug)
        for section in doc.sections:
            if matches(section) and (
                len(parts) == 1 or _has_ancestors(doc, section, parts[:-1], slug)
            ):
                return section
    return None


#: What Obsidian's heading links leave out: its link suggester writes ``[[N#Q what]]``
#: for the heading ``Q: what?`` and ``TCP IP`` for ``TCP/IP``, and resolves such a link
#: by comparing both texts with these characters (and ``[[``/``]]``) as spaces.
_OBSIDIAN_DROPPED = re.compile(r"[!\"#$%&()*+,./:;<=>?@\[\\\]^`{|}~]")


def obsidian_heading_key(text: str) -> str:
    """``text`` compared as Obsidian compares a link's heading with a note's: its
    punctuation (but ``-``, ``_`` and ``'``) read as spaces, case and runs of
    whitespace ignored."""
    return normalize_name(_OBSIDIAN_DROPPED.sub(" ", text))


def _obsidian_matcher(text: str, slug: object) -> Callable[[Section], bool]:
    """``text`` names the heading as Obsidian reads it: the heading as written
    (``$\\Theta$``, ``\\_\\_init\\_\\_``, ``[[Other|the other]]``) or as shown,
    each with Obsidian's punctuation left out."""
    wanted = obsidian_heading_key(text)

    def matches(section: Section) -> bool:
        return bool(wanted) and wanted in (obsidian_heading_key(section.raw),
                                           obsidian_heading_key(section.text))

    return matches


def _heading_matcher(text: str, slug: object) -> Callable[[Section], bool]:
    """A test for "``text`` names this heading": anchor, name, raw Markdown or slug."""
    wanted = normalize_name(text)
    slugged = slug(text) if callable(slug) else None

    def matches(section: Section) -> bool:
        return (
            section.anchor == text
            or section.key == wanted
            or section.anchor == slugged
            or (section.raw != section.text and normalize_name(section.raw) == wanted)
        )

    return matches


def _heading_matches(section: Section, text: str, slug: object) -> bool:
    return _heading_matcher(text, slug)(section)


def _has_ancestors(doc: Document, section: Section, names: list[str], slug: object) -> bool:
    chain: list[Section] = []
    parent = section.parent
    while parent is not None:
        chain.append(doc.by_anchor[parent])
        parent = doc.by_anchor[parent].parent
    remaining = list(reversed(names))
    for ancestor in chain:
        if remaining and (_heading_matches(ancestor, remaining[0], slug)
                          or _obsidian_matcher(remaining[0], slug)(ancestor)):
            remaining.pop(0)
    return not remaining

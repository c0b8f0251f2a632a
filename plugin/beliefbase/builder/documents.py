"""Documents: a ParsedDoc plus its identity (SPEC §4).

Adds to each parsed file: its network, BID (frontmatter ``bid`` or a
provisional one from network + path), title (frontmatter -> an H1 that is the
body's first content -> file name), aliases, ``id``, schema, tags, publish
state, page URL, and its sections with anchors identical to the ``id`` the
rendered heading gets.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..codecs.inline import WikiText, default_wikitext, plain_text
from ..codecs.model import BlockId, Heading, ParsedDoc
from ..frozen import FrozenDict
from ..ids import (
    Bid,
    SrcPath,
    Url,
    normalize_name,
    parse_bid,
    provisional_bid,
    root_url,
    stem,
    url_for_src,
)
from .options import CompileOptions

_IDCOUNT = re.compile(r"^(.*)_([0-9]+)$")
_TAG_SPLIT = re.compile(r"[,\s]+")


@dataclass(frozen=True, slots=True)
class Section:
    """A heading: identity (document BID, anchor), its extent and its parent.

    Its BID is ``section_bid(document BID, anchor)``, computed where needed (the
    graph), not for every heading of every compile.
    """

    anchor: str
    text: str  # the heading as the reader sees it
    key: str  # normalize_name(text): what [[Note#Heading]] is compared with
    raw: str  # the heading's inline Markdown
    level: int
    line: int
    end_line: int  # last line that belongs to the section
    parent: str | None  # anchor of the enclosing heading, None for top level


@dataclass(frozen=True, slots=True)
class Network:
    bid: Bid
    id: str
    title: str
    folder: str  # "" for the docs root
    path: SrcPath | None  # its BeliefNetwork.toml


@dataclass(frozen=True, slots=True)
class Document:
    """A note (Markdown) or node (TOML) with its identity.

    Frozen: a ``Compiled`` shares its documents with the next compile of the same
    ``Compiler`` (``mkdocs serve``), so a change is a new ``Document``
    (``dataclasses.replace``), never an edit of one an earlier compile holds.
    """

    path: SrcPath
    parsed: ParsedDoc
    network: Network
    bid: Bid
    title: str
    aliases: tuple[str, ...]
    id: str | None
    schema: str | None
    tags: tuple[str, ...]
    published: bool
    url: Url | None
    sections: tuple[Section, ...] = ()
    blocks: dict[str, BlockId] = field(default_factory=FrozenDict)
    by_anchor: dict[str, Section] = field(init=False, repr=False, compare=False)
    #: the folder of ``path`` ("" at the docs root); link resolution asks for it per link
    folder: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # derived fields of a frozen instance (also after ``dataclasses.replace``)
        object.__setattr__(self, "folder", posixpath.dirname(self.path))
        object.__setattr__(self, "by_anchor",
                           FrozenDict({s.anchor: s for s in self.sections}))

    @property
    def kind(self) -> str:
        return self.parsed.kind

    @property
    def meta(self) -> dict[str, Any]:
        return self.parsed.meta


def is_drawing(parsed: ParsedDoc) -> bool:
    """An Excalidraw drawing (``*.excalidraw.md``, or ``excalidraw-plugin:`` in its
    frontmatter): JSON for the Obsidian plugin, never a page of its own."""
    return parsed.path.lower().endswith(DRAWING_SUFFIX) or "excalidraw-plugin" in parsed.meta


#: The file name ending of an Excalidraw drawing note.
DRAWING_SUFFIX = ".excalidraw.md"


def is_published(meta: dict[str, Any]) -> bool:
    """``draft: true`` or ``publish: false`` keep a note out of the site."""
    return not (_truthy(meta.get("draft")) or _falsy(meta.get("publish")))


def _truthy(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in ("true", "yes"))


def _falsy(value: Any) -> bool:
    return value is False or (isinstance(value, str) and value.strip().lower() in ("false", "no"))


def string_list(value: Any, split: bool = False) -> tuple[str, ...]:
    """Aliases / tags given as a list, a string, or (tags) a space/comma list."""
    if value is None:
        return ()
    items: Iterable[Any]
    if isinstance(value, str):
        items = _TAG_SPLIT.split(value) if split else [value]
    elif isinstance(value, list | tuple):
        items = value
    else:
        items = [value]
    out: list[str] = []
    for item in items:
        if isinstance(item, list | tuple | dict) or item is None:
            continue
        text = str(item).strip()
        if text and text not in out:
            out.append(text)
    return tuple(out)


def page_path(parsed: ParsedDoc) -> SrcPath:
    """The Markdown path a document's page is built from (node files get one)."""
    if parsed.kind == "toml":
        return SrcPath(parsed.path[: -len(".toml")] + ".md")
    if parsed.kind in ("canvas", "base"):  # issue 28: Board.canvas -> Board.canvas/ (no note's URL)
        return SrcPath(parsed.path + ".md")
    return parsed.path


def frontmatter_tags(meta: Mapping[str, Any]) -> tuple[str, ...]:
    """The tags a note's properties give (``tags:`` or ``tag:``, a list or a text),
    without their ``#``."""
    tags = string_list(meta.get("tags", meta.get("tag")), split=True)
    return tuple(t.lstrip("#") for t in tags if t.lstrip("#"))


def make_document(parsed: ParsedDoc, network: Network, options: CompileOptions) -> Document:
    meta = parsed.meta
    explicit = parse_bid(meta["bid"]) if isinstance(meta.get("bid"), str) else None
    rel = parsed.path[len(network.folder) + 1:] if network.folder else parsed.path
    bid = explicit or provisional_bid(network.bid, rel)
    tags = frontmatter_tags(meta)
    body_tags = tuple(t.name for t in parsed.tags)
    doc_id = meta.get("id")
    schema = meta.get("schema")
    published = is_published(meta) and not is_drawing(parsed)
    return Document(
        path=parsed.path,
        parsed=parsed,
        network=network,
        bid=bid,
        title=_title(parsed),
        aliases=string_list(meta.get("aliases", meta.get("alias"))),
        id=str(doc_id).strip() if doc_id not in (None, "") else None,
        schema=str(schema) if isinstance(schema, str | int) and str(schema) else None,
        tags=tuple(dict.fromkeys(tags + body_tags)),
        published=published,
        url=url_for_src(page_path(parsed), options.use_directory_urls) if published else None,
        sections=sections_of(parsed, options, default_wikitext),
        blocks=FrozenDict({b.id: b for b in reversed(parsed.blocks)}),  # first one wins
    )


#: Root notes that serve as the home page of a vault without ``index.md`` /
#: ``README.md``, in order of preference (file names, compared case-insensitively:
#: Obsidian users write ``Index.md``, ``Readme.md``; the Obsidian help vault has ``Home.md``).
HOME_NAMES = ("index", "readme", "home", "start here", "welcome")


def place_home(docs: dict[SrcPath, Document], before: SrcPath | None,
               options: CompileOptions) -> SrcPath | None:
    """Give a home-named root note the site root's URL when no note has it; return it.

    The note is rendered at the root (not redirected to): its links are written
    relative to the docs root either way, and every link to it, its backlinks
    and graph.json name that one URL.  ``before``: the last compile's home note,
    given its own URL back when it is no longer the home page (serve).
    """
    home_url = root_url(options.use_directory_urls)
    if before is not None and (doc := docs.get(before)) is not None and doc.published:
        _set_url(docs, doc, url_for_src(page_path(doc.parsed), options.use_directory_urls))
    if any(d.url == home_url for d in docs.values()):
        return None
    found = [(HOME_NAMES.index(name), path) for path, d in docs.items()
             if d.published and d.kind == "markdown" and "/" not in path
             and (name := normalize_name(stem(path))) in HOME_NAMES]
    if not found:
        return None
    home = min(found)[1]
    _set_url(docs, docs[home], home_url)
    return home


def _set_url(docs: dict[SrcPath, Document], doc: Document, url: Url) -> None:
    """A new ``Document`` when its URL changes: every cache keyed by the document
    object (graph parts, serve's dependents) then sees a changed note."""
    if doc.url != url:
        docs[doc.path] = dataclasses.replace(doc, url=url)


def _title(parsed: ParsedDoc) -> str:
    title = parsed.meta.get("title")
    if isinstance(title, str | int | float) and not isinstance(title, bool) and str(title).strip():
        return " ".join(str(title).split())
    if parsed.leading_h1:
        text = plain_text(parsed.headings[0].text)
        if text:
            return text
    return stem(parsed.path)


def with_sections(doc: Document, options: CompileOptions, wikitext: WikiText) -> Document:
    """``doc`` with its sections computed again with ``wikitext`` (headings whose text
    has a link without display text take the target's title): ``doc`` itself when
    they come out the same, else a new ``Document``."""
    sections = sections_of(doc.parsed, options, wikitext)
    return doc if sections == doc.sections else dataclasses.replace(doc, sections=sections)


def sections_of(parsed: ParsedDoc, options: CompileOptions, wikitext: WikiText) -> (
    tuple[Section, ...]
):
    """Sections and anchors of a parsed note, the way ``toc`` assigns heading ids."""
    headings = parsed.headings
    # a base's views carry their tabs' ids (codecs/base.py), whatever attr_list says
    explicit = options.heading_attr_ids or parsed.kind == "base"
    used: set[str] = {h.explicit_id for h in headings if h.explicit_id and explicit}
    tried: dict[tuple[str, int], int] = {}
    sections: list[Section] = []
    stack: list[Section] = []
    ends = _section_ends(headings, max(parsed.line_count, 1))
    for heading, end in zip(headings, ends, strict=True):
        text = plain_text(heading.text, wikitext)
        if heading.explicit_id and explicit:
            anchor = heading.explicit_id
        else:
            anchor = unique_id(options.slug(text), used, tried)
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        section = Section(
            anchor=anchor,
            text=text,
            key=normalize_name(text),
            raw=heading.text,
            level=heading.level,
            line=heading.line,
            end_line=end,
            parent=stack[-1].anchor if stack else None,
        )
        sections.append(section)
        stack.append(section)
    return tuple(sections)


def section_bid(doc_bid: Bid, anchor: str) -> Bid:
    """A section's identity: (document BID, anchor).  Interned: the graph names a
    section in its node, its children's edges and every link to it, one string for
    all of them."""
    return Bid(sys.intern(provisional_bid(doc_bid, "#" + anchor)))


def _section_ends(headings: tuple[Heading, ...], last_line: int) -> list[int]:
    """Last line of each section: before the next heading of the same or a higher level."""
    ends = [last_line] * len(headings)
    nearest: list[int | None] = [None] * 7  # nearest later heading line, per level
    for i in range(len(headings) - 1, -1, -1):
        level = headings[i].level
        later = [line for line in nearest[1:level + 1] if line is not None]
        ends[i] = min(later) - 1 if later else last_line
        nearest[level] = headings[i].line
    return ends


def unique_id(slug: str, used: set[str], tried: dict[tuple[str, int], int] | None = None) -> str:
    """Python-Markdown ``toc.unique``: append ``_1``, ``_2``... until unused.

    ``tried`` (one dict per page, like ``used``) remembers where the count stopped for
    each slug, so a page of 20,000 alike headings is not counted from 1 each time
    (the same ids: ``used`` only grows, so the next free number is further on).
    """
    if slug and slug not in used:
        used.add(slug)
        return slug
    m = _IDCOUNT.match(slug)
    root, start = (m.group(1), int(m.group(2))) if m else (slug, 0)
    key = (root, start)
    number = (tried or {}).get(key, start) + 1
    while f"{root}_{number}" in used:
        number += 1
    if tried is not None:
        tried[key] = number
    value = f"{root}_{number}"
    used.add(value)
    return value


def section_of_line(doc: Document, line: int) -> Section | None:
    """The innermost section containing ``line``."""
    found = None
    for section in doc.sections:
        if section.line > line:
            break
        if section.end_line >= line:
            found = section
    return found

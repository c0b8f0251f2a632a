"""The records a codec produces for one source file (the compiler's IR input).

Everything here is immutable, picklable and a pure function of (file bytes,
codec options), which is what makes the parse cache content-addressed.
Line and column numbers are 1-based and count from the top of the *file*
(frontmatter included), so diagnostics point where an editor would.

The small, numerous records are ``NamedTuple``s: they pickle as plain tuples,
about four times faster to load than frozen dataclasses, which matters for a
parse cache of 50,000 links and for results coming back from worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from ..diagnostics import Diagnostic
from ..frozen import FrozenDict, freeze_mapping
from ..ids import SrcPath
from .inline_fields import InlineField

# canvas: issue 28 (codecs/canvas.py); base: issue 27 (codecs/base.py)
DocKind = Literal["markdown", "toml", "network", "canvas", "base"]

#: How a link was written.  ``relation`` on the link says what it means.
LinkForm = Literal[
    "wikilink",  # [[Target]]
    "embed",  # ![[Target]]
    "markdown",  # [text](other.md)
    "image",  # ![alt](picture.png)
    "autolink",  # <https://...>
    "field",  # key:: [[Target]], [key:: [[Target]]] (Dataview inline field)
    "meta",  # frontmatter key: "[[Target]]"
]


class Heading(NamedTuple):
    level: int
    text: str  # inline Markdown of the heading, attribute list removed
    explicit_id: str | None  # from an attr_list ``{#id}``
    line: int
    column: int


class BlockId(NamedTuple):
    """A paragraph or list item ending in `` ^id`` (its lines: ``start``..``end``)."""

    id: str
    line: int
    column: int
    start: int
    end: int


class LinkRef(NamedTuple):
    """One link as written; the builder resolves ``target`` + ``fragment``."""

    form: LinkForm
    target: str  # "" means "this page" ([[#Heading]], [t](#a))
    fragment: str  # after the first '#': "H1#H2", "^block-id" or ""
    display: str | None  # explicit display text
    line: int
    column: int
    relation: str  # links_to | embeds | the field name of a typed link
    context: str = ""  # the sentence around the link, raw Markdown
    size: str | None = None  # ![[picture.png|300]] -> "300"

    @property
    def is_embed(self) -> bool:
        return self.form in ("embed", "image")


class Tag(NamedTuple):
    name: str
    line: int
    column: int


class Footnote(NamedTuple):
    id: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class ParsedDoc:
    """What one source file says, before anything is resolved."""

    path: SrcPath
    kind: DocKind
    digest: str
    #: the frontmatter, read-only all the way down (``frozen.freeze``: mappings are
    #: ``FrozenDict``s, lists tuples): a ``Compiled`` shares it with later compiles
    meta: dict[str, Any] = field(default_factory=FrozenDict)
    frontmatter_format: str | None = None
    body_offset: int = 0  # character offset of the body in the decoded text
    body_line: int = 1  # file line where the body starts
    frontmatter_end: int = 0  # end offset of a frontmatter block (also when it is bad)
    bad_frontmatter: bool = False
    headings: tuple[Heading, ...] = ()
    #: the body's first content is an H1 (``headings[0]``): the note's title, as in MkDocs
    leading_h1: bool = False
    blocks: tuple[BlockId, ...] = ()
    links: tuple[LinkRef, ...] = ()
    tags: tuple[Tag, ...] = ()
    footnote_refs: tuple[Footnote, ...] = ()
    footnote_defs: tuple[Footnote, ...] = ()
    #: every Dataview inline field of the body (``codecs.inline_fields``), typed
    inline_fields: tuple[InlineField, ...] = ()
    meta_lines: dict[str, int] = field(default_factory=FrozenDict)  # frontmatter key -> line
    line_count: int = 0
    diagnostics: tuple[Diagnostic, ...] = ()

    def __post_init__(self) -> None:
        # frozen once, where it is parsed (a cached or a worker's ParsedDoc is
        # unpickled with its FrozenDicts, without coming through here)
        object.__setattr__(self, "meta", freeze_mapping(self.meta))
        object.__setattr__(self, "meta_lines", freeze_mapping(self.meta_lines))

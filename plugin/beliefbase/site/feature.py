"""``SiteFeature``: the one shape of every page feature (tags, folders, recent notes,
entities, beliefs, the graph page...).

A feature is one object per build.  It says

* which files it adds to MkDocs' (``add_files``) and which pages it owns
  (``owns``), with their ``meta`` and ``content``;
* what it adds to the pages of notes: Markdown extensions
  (``markdown_extensions``), HTML above the text (``above``), a row
  under the title (``title_row``), HTML after the text (``after_text``), a
  panel after the page (``panel``), template variables (``page_context``), a
  line in the page's ``<head>`` (``head``); ``release`` drops what only the
  pages needed once they are rendered; ``write_compile_outputs`` and
  ``write_page_outputs`` write its files;
* what it showed (``shown``): one ``Shown`` record, which ``mkdocs serve
  --dirty`` compares with the last build's (``serve/plan.py``) to decide what
  a save re-renders.

``SiteBuild`` (``session.py``) loops over the features ``features.py``
registers, in that order; every hook here answers "nothing", so a feature
defines only what it does.  Where two features add to the same place of a
page, their ``row_rank`` / ``panel_rank`` order them: a place on the page, not
the order of registration (which is the order MkDocs gets their files in).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from .. import diagnostics as diag
from ..builder.documents import Document
from ..compile.compiled import Compiled
from ..frozen import FrozenDict
from ..ids import SrcPath

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

    from ..config import BeliefbaseConfig
    from .render import PageRenderer
    from .templates import Templates

T = TypeVar("T")


@dataclass(frozen=True)
class Shown:
    """What one feature showed in one build: the next ``--dirty`` build compares.

    ``notes``: per note, a digest of what the feature adds to its page (a page
    whose digest differs is re-rendered); ``outputs``: the pages it wrote (one
    no longer written is removed); ``pages``: notes whose pages it says change
    whatever the digests (a page embedding a base file, a changed mention).
    """

    notes: Mapping[SrcPath, str] = field(default_factory=FrozenDict)
    outputs: frozenset[str] = frozenset()
    pages: frozenset[SrcPath] = frozenset()


@dataclass(frozen=True)
class Change:
    """What a feature's ``shown`` may need of the change since the last build."""

    previous: Compiled | None  # the last build's compile (None: the first build)
    compiled: Compiled
    #: notes that render differently though unchanged: the lines of links that do
    #: (``serve/dependents.rewritten_notes``)
    rewritten: Mapping[SrcPath, set[int]]
    before: Shown | None  # what this feature showed in the last build


class Kept:
    """What the features keep from one build to the next under ``mkdocs serve``
    (the reader's per-note work, the vault's git history): one object of each type,
    made on first use."""

    def __init__(self) -> None:
        self._by_type: dict[type, object] = {}

    def get(self, kind: type[T]) -> T:
        """The kept ``kind``, made now if no build made it yet."""
        found = self._by_type.get(kind)
        if found is None:
            found = self._by_type[kind] = kind()
        return cast(T, found)

    def made(self, kind: type[T]) -> T | None:
        """The kept ``kind`` if a build made it."""
        return cast("T | None", self._by_type.get(kind))


@dataclass(frozen=True)
class FeatureContext:
    """What every feature of one build is made with (``FEATURES`` in ``features.py``)."""

    compiled: Compiled
    templates: Templates
    renderer: PageRenderer
    read_text: Callable[[SrcPath], str]
    report: Callable[[diag.Diagnostic], None]  # a diagnostic found while pages render
    options: BeliefbaseConfig
    config: MkDocsConfig
    serving: bool
    kept: Kept  # what outlives this build under serve
    #: the features made so far, by name (one made earlier is there when a later one
    #: is made; any may look another up while pages render)
    made: Mapping[str, SiteFeature]

    def feature(self, name: str) -> Any:
        """The feature ``name`` of this build, or None (switched off, or not made)."""
        return self.made.get(name)


class SiteFeature:
    """One page feature of one build; every hook answers "nothing"."""

    #: the registry's key, unique
    name: ClassVar[str] = ""
    #: rows under a title, top to bottom by rank (dates 10, aliases 20, tags 30)
    row_rank: ClassVar[int] = 50
    #: panels after a page, top to bottom by rank
    panel_rank: ClassVar[int] = 50
    #: its panel needs nothing of this process (no open connection): forked workers
    #: may make it ahead (``panels_ahead.py``)
    panel_ahead: ClassVar[bool] = False

    # -- files and the pages it owns -------------------------------------------------

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Add its pages and assets to ``files``; what was wrong."""
        return []

    def owns(self, src: str) -> bool:
        """Is the page ``src`` one this feature generated?"""
        return False

    def meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of a page it owns (title, search exclusion)."""
        return {}

    def content(self, src: str, page_url: str) -> str | None:
        """The HTML of a page it owns, after its Markdown's."""
        return None

    # -- what it adds to the pages of notes ----------------------------------------------

    def above(self, doc: Document, page_url: str) -> str:
        """HTML above the page's text (breadcrumbs)."""
        return ""

    def title_row(self, doc: Document, page_url: str) -> str:
        """A row under the page's title (first, when the page has no H1)."""
        return ""

    def after_text(self, doc: Document, page_url: str) -> str:
        """HTML after the page's text (searched with it)."""
        return ""

    def panel(self, doc: Document, page_url: str) -> str:
        """A panel after the page (after the theme's search read it)."""
        return ""

    def viewing(self, view: Any, read_text: Callable[[SrcPath], str]) -> SiteFeature:
        """This feature making its panels (``panel_ahead``) from ``view`` (a
        ``panel_view.PanelView``: the compile's documents, links, backlinks and
        mentions, packed) instead of the compile, reading texts with ``read_text``;
        in a process of the panels' burst, which thus touches little of the heap it
        shares (``panel_view.py``).  A feature that reads nothing of the compile
        there may answer itself."""
        return self

    def page_context(self, context: dict[str, Any], doc: Document | None) -> None:
        """Add to the template context of a page (``doc``: its note, if any)."""

    def head(self, page_url: str) -> str:
        """A line for the page's ``<head>``."""
        return ""

    def markdown_extensions(self) -> list[Any]:
        """Python-Markdown extensions for the pages of this build, made with what they
        need (after the callouts, in the order of ``FEATURES``)."""
        return []

    def before_pages(self) -> None:
        """MkDocs' page loop of a full build starts next: make now what pages will
        need and forked workers (``render_ahead``) would otherwise each make again."""

    # -- files made from the compile and after the pages -------------------------------

    def write_compile_outputs(self, site_dir: Path) -> None:
        """Write the files made from the compile alone (a forked worker may, while
        the pages render: ``render_ahead``)."""

    def write_page_outputs(self, site_dir: Path) -> None:
        """Write the files made once every page is rendered (after the theme's
        search index)."""

    def release(self) -> None:
        """Every page is converted: drop what only rendering them needed."""

    # -- mkdocs serve --dirty ------------------------------------------------------------

    def shown(self, change: Change) -> Shown:
        """What it showed in this build (``--dirty`` builds only)."""
        return Shown()


__all__ = ["Change", "FeatureContext", "Kept", "SiteFeature", "Shown"]

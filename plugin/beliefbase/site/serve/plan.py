"""What a save re-renders under ``mkdocs serve --dirty``: one plan, made in one place.

Given the last build's compile and the new one, and what each page feature
showed in both builds (``SiteFeature.shown``, one ``Shown`` each), the plan
names the notes' pages to render again besides the changed ones, and the
generated pages' outputs no build makes any more.  ``Invalidation`` (``dirty.py``)
carries it out: it removes those outputs, so MkDocs renders exactly those pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...compile.compiled import Compiled
from ...ids import SrcPath
from ..feature import Shown
from .dependents import changed_keys, dependent_pages


@dataclass(frozen=True)
class RenderPlan:
    """The pages a dirty build renders again, and the outputs it removes."""

    #: notes whose pages show something of the change (None: every page)
    pages: frozenset[SrcPath] | None
    #: outputs of generated pages that are gone (a tag no note carries any more)
    gone: frozenset[str]
    #: what each feature showed in this build: the next plan's ``before``
    shown: Mapping[str, Shown]


def plan_renders(previous: Compiled | None, compiled: Compiled,
                 before: Mapping[str, Shown], now: Mapping[str, Shown], *,
                 nav_in_every_page: bool, read: Callable[[SrcPath], str] | None = None,
                 rewritten: dict[SrcPath, set[int]] | None = None) -> RenderPlan:
    """The plan of one dirty build (``before``: the last build's ``shown``, {} at first).

    A note's page is rendered again when the compile says it shows something of
    the change (``dependents.dependent_pages``), when a feature's digest of it
    differs from the last build's, or when a feature says so (``Shown.pages``).
    """
    pages = dependent_pages(previous, compiled, nav_in_every_page, read, rewritten)
    if pages is not None:
        for name, shown in now.items():
            last = before.get(name)
            pages |= shown.pages
            pages |= changed_keys(dict(last.notes) if last is not None else None,
                                  dict(shown.notes))
    gone: set[str] = set()
    for name, last in before.items():
        shown_now = now.get(name)
        gone |= last.outputs - (shown_now.outputs if shown_now is not None else frozenset())
    return RenderPlan(frozenset(pages) if pages is not None else None, frozenset(gone),
                      dict(now))

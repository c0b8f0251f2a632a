"""The entity overlay (SPEC §7): a Markdown extension that hides the manual entity
syntax and wraps each mention in a highlight linking to its entity page.

The page's visible text is exactly the render text: each mention's raw bytes
(``#Smaug:CREATURE``, ``Cory:ALIAS_OF_CORY_GILFORD:PERSON``, or an auto-detected
``Smaug``) are replaced, before block parsing, by a stash placeholder whose HTML
(``theme/entity-mention.html``) shows the mention's name and nothing else; a
rejection (``Boromir:REJECT_ENTITY``) becomes its name, unhighlighted.  The
mentions come from the same pipeline the compile ran (``entities.detect``
with the project's names), so the page shows what the entity pages list.

Runs after Python-Markdown stashed raw HTML blocks (priority 19 < 20), so it
never writes inside them; code, math, links, headings and URLs are skipped by
the grammar (``codecs.entity_syntax.protected_regions``).  A link's ``href``
is the entity page's final URL relative to the page (stashed HTML is not seen
by MkDocs' link conversion; embeds render into the same page, so the same
base holds).  Highlights are styled per source (``bb-entity--manual`` /
``--auto``); the reader's toggle (``beliefbase.js``) turns every one off.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Protocol

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.utils import get_relative_url

from ...codecs.entity_syntax import find_manual, protected_regions
from ...entities.detect import detect
from ...entities.index import EntityIndex
from ...ids import SrcPath
from ..escape import UserText
from ..templates import Templates


class PageBeingRendered(Protocol):
    """Which page is being rendered (``render.PageRenderer``)."""

    def page_url(self) -> str | None:
        """The URL of the page the HTML ends up in (None: no page)."""

    def page_path(self) -> SrcPath | None:
        """The note being rendered, when the Markdown is its own (not an embed's)."""


class _NoPage:
    def page_url(self) -> str | None:
        return None

    def page_path(self) -> SrcPath | None:
        return None


class EntityOverlay:
    """What the overlay needs for the pages of one build, given when it is made."""

    def __init__(self, index: EntityIndex | None = None, templates: Templates | None = None,
                 url_of: Callable[[str], str] | None = None,
                 page: PageBeingRendered | None = None) -> None:
        self.index = index if index else None  # none: a project without entities
        self.templates = templates
        self.url_of = url_of or _same  # slug -> site-relative URL
        self.page = page or _NoPage()
        #: each highlight's HTML by (key, source, name, href): pages at one depth
        #: share them (a template render per mention cost too much on busy pages)
        self.made: dict[tuple[str, str, str, str], str] = {}

    def active(self, text: str) -> bool:
        """Could ``text`` show anything of the overlay?"""
        return self.index is not None and (bool(self.index.names) or ":" in text)


def highlight_signatures(index: EntityIndex | None) -> dict[SrcPath, str]:
    """Per note, what its highlights depend on (``mkdocs serve --dirty``: a note whose
    signature changed is rendered again): each mention's place, entity and source,
    and the entity's name, type and page."""
    if index is None:
        return {}
    out: dict[SrcPath, str] = {}
    for path, spans in index.by_note.items():
        parts = []
        for span in spans:
            entity = index.entities.get(span.key)
            shown = (entity.name, entity.type, entity.slug) if entity is not None else ()
            parts.append(repr((span.start, span.end, span.key, span.source, shown)))
        out[path] = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return out


class EntityPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, overlay: EntityOverlay) -> None:
        super().__init__(md)
        self.overlay = overlay

    def run(self, lines: list[str]) -> list[str]:
        overlay = self.overlay
        if overlay.index is None or overlay.templates is None:
            return lines  # a project without entities: not even the join below
        text = "\n".join(lines)
        if not overlay.active(text):
            return lines
        index, templates = overlay.index, overlay.templates
        known = index.page_spans(overlay.page.page_path(), text)
        if known is not None:  # the page is the note the compile read: its spans
            spans, manual = known
        else:  # an embed, or a body other extensions changed: the same pipeline
            regions = protected_regions(text)
            manual = find_manual(text, regions)
            spans = detect(text, index.names, manual=manual, regions=regions)
        spans = [s for s in spans if s.key in index.entities or s.source == "manual"]
        rejects = [(m.start, m.end, m.name) for m in manual if m.kind == "reject"]
        if not spans and not rejects:
            return lines
        page_url = overlay.page.page_url() or ""
        cuts: list[tuple[int, int, str]] = []
        made = overlay.made
        for span in spans:
            entity = index.entities.get(span.key)
            url = overlay.url_of(entity.slug) if entity is not None else ""
            href = get_relative_url(url, page_url) if page_url and url else url
            memo = (span.key, span.source, span.name, href)
            html = made.get(memo)
            if html is None:
                if entity is None:
                    html = templates.render("entity-text.html", label=UserText(span.name))
                else:
                    html = templates.render(
                        "entity-mention.html", label=UserText(span.name), source=span.source,
                        href=href, key=entity.key,
                        title=UserText(f"{entity.name} · {entity.type}"))
                made[memo] = html
            cuts.append((span.start, span.end, self.md.htmlStash.store(html)))
        for start, end, name in rejects:
            html = templates.render("entity-text.html", label=UserText(name))
            cuts.append((start, end, self.md.htmlStash.store(html)))
        cuts.sort()
        out: list[str] = []
        pos = 0
        for start, end, placeholder in cuts:
            out.append(text[pos:start])
            out.append(placeholder)
            pos = end
        out.append(text[pos:])
        return "".join(out).split("\n")


def _same(slug: str) -> str:
    return slug


class EntityOverlayExtension(Extension):
    """Registers the overlay of one build (``EntityOverlay``)."""

    def __init__(self, overlay: EntityOverlay | None = None, **kwargs: Any) -> None:
        self.overlay = overlay if overlay is not None else EntityOverlay()
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(EntityPreprocessor(md, self.overlay), "bb_entities", 19)

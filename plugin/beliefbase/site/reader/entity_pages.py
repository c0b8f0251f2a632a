"""Entity pages (SPEC §7): an index by type at the option ``entities_page``
(``entities/``) and one page per entity (``entities/<slug>/``).

Generated like the tag pages (``tags.py``): empty Markdown, HTML from
``theme/entities-index.html`` and ``theme/entity.html``.  An entity's page shows
its canonical name (the title), type and type history (every manual type given,
where), aliases, every mention with its sentence (manual or auto), the notes
that rejected the name, and the notes that mention it.  A page of the site that
already has one of these URLs is kept, and ours is not generated.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from ... import diagnostics as diag
from ...codecs.snippet import snippet_parts
from ...compile.compiled import Compiled
from ...entities.index import EntityIndex
from ...entities.model import Entity
from ...entities.source import entity_src, entity_url, index_src
from ...ids import SrcPath, url_for_src
from ..escape import UserText
from ..feature import Change, FeatureContext, Shown, SiteFeature
from ..markdown.entity_overlay import (
    EntityOverlay,
    EntityOverlayExtension,
    PageBeingRendered,
    highlight_signatures,
)
from ..templates import Templates
from .generated import GeneratedPages, dest_uris


class EntitySite(SiteFeature):
    """The entity pages of one build."""

    name = "entities"

    @classmethod
    def make(cls, ctx: FeatureContext) -> EntitySite:
        return cls(ctx.compiled, ctx.templates, ctx.compiled.entities, ctx.renderer)

    def __init__(self, compiled: Compiled, templates: Templates, index: EntityIndex,
                 page: PageBeingRendered | None = None) -> None:
        self.compiled = compiled
        self.templates = templates
        self.index = index
        root = compiled.options.entities_page
        self.index_src = index_src(root)
        self.index_url = url_for_src(self.index_src, compiled.options.use_directory_urls)
        self._by_src: dict[str, Entity] = {
            entity_src(root, e.slug): e for e in index.entities.values()}
        self._generated: set[str] = set()
        #: the highlights of the notes' mentions (``markdown/entity_overlay.py``)
        self.overlay = EntityOverlay(index, templates, self.url_of, page)

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        if not self.index:
            return []
        generated = GeneratedPages(files, config)
        for src, listed in [(self.index_src, True)] + [(s, False) for s in self._by_src]:
            if generated.add(src, listed)[1]:
                self._generated.add(src)
        return []

    def markdown_extensions(self) -> list[Any]:
        return [EntityOverlayExtension(self.overlay)]

    def shown(self, change: Change) -> Shown:
        """The pages written, and what each note's highlights depend on (SPEC §7)."""
        return Shown(notes=highlight_signatures(self.index if self.index else None),
                     outputs=frozenset(self.dest_uris))

    @property
    def dest_uris(self) -> set[str]:
        """The output paths of the generated pages (--dirty removes those of gone
        entities)."""
        return dest_uris(self._generated, self.compiled.options.use_directory_urls)

    def owns(self, src: str) -> bool:
        return src in self._generated

    def url_of(self, slug: str) -> str:
        return entity_url(self.compiled.options, slug)

    def meta(self, src: str) -> dict[str, Any]:
        if src not in self._generated:
            return {}
        if src == self.index_src:
            return {"title": UserText("Entities"), "search": {"exclude": True}}
        return {"title": UserText(self._by_src[src].name)}

    def content(self, src: str, page_url: str) -> str | None:
        if src not in self._generated:
            return None
        if src == self.index_src:
            groups = [{"type": UserText(t), "entities": [
                {"name": UserText(e.name), "href": self._href(self.url_of(e.slug), page_url),
                 "count": len(e.mentions), "aliases": [UserText(a) for a in e.aliases]}
                for e in entities]} for t, entities in self.index.by_type().items()]
            return self.templates.render("entities-index.html", groups=groups,
                                         count=len(self.index.entities))
        entity = self._by_src[src]
        return self.templates.render(
            "entity.html", entity_name=UserText(entity.name), type=UserText(entity.type),
            index_href=self._href(self.index_url, page_url),
            conflict=len({h.type for h in entity.history}) > 1,
            history=[{"type": UserText(h.type), "kind": h.kind,
                      "where": UserText(f"{self._title(h.path)}, line {h.line}"),
                      "href": self._note_href(h.path, page_url)} for h in entity.history],
            aliases=[UserText(a) for a in entity.aliases],
            mentions=[{"note": UserText(self._title(m.path)), "line": m.line,
                       "href": self._note_href(m.path, page_url), "source": m.source,
                       "name": UserText(m.name), "sentence": snippet_parts(m.sentence)}
                      for m in entity.mentions],
            rejections=[{"name": UserText(r.name), "where": UserText(self._title(r.path)),
                         "href": self._note_href(r.path, page_url)} for r in entity.rejections],
            notes=[{"title": UserText(self._title(path)), "count": n,
                    "href": self._note_href(path, page_url)}
                   for path, n in sorted(Counter(m.path for m in entity.mentions).items())])

    def _title(self, path: SrcPath) -> str:
        doc = self.compiled.documents.get(path)
        return doc.title if doc is not None else str(path)

    def _note_href(self, path: SrcPath, page_url: str) -> str:
        doc = self.compiled.documents.get(path)
        return self._href(doc.url or "", page_url) if doc is not None else "#"

    @staticmethod
    def _href(url: str, page_url: str) -> str:
        return get_relative_url(url, page_url)

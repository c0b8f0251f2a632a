"""Tag pages (SPEC §9): a tag index, one page per tag, the tag row under a note's title.

Tags are the note's frontmatter ``tags`` plus its body ``#tags``
(``Document.tags``); two spellings that differ in case are one tag, as in
Obsidian (``ids.tag_key``).  A nested tag ``a/b`` also counts for ``a``, as
Obsidian's tag pane counts it: ``a``'s page lists the notes tagged ``a/b``
too.  Only published notes are counted or listed; a tag carried only by
drafts has no page.

Pages (generated, Markdown empty, HTML from ``theme/tags-index.html`` and
``theme/tag.html``): the index at the plugin option ``tags_page``
(``tags/``), each tag at ``ids.tag_page_src`` (``tags/a.md``,
``tags/a/b.md``).  A page of the site that already has one of these URLs
(Material's ``tags_file`` listing at ``tags.md``, say) is kept and ours is
not generated; links still point at that URL.

When MkDocs-Material's ``tags`` plugin is enabled it shows ``page.meta.tags``
above the page itself, so there is no second row; its tag chips link to our
tag pages unless one of its listings already features the tag.
"""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from ... import diagnostics as diag
from ...builder.documents import Document, frontmatter_tags
from ...compile.compiled import Compiled
from ...ids import SrcPath, normalize_name, tag_key, tag_page_src, tag_parents, url_for_src
from ..escape import UserText
from ..feature import Change, FeatureContext, Shown, SiteFeature
from ..templates import Templates
from .generated import GeneratedPages, dest_uris

log = get_plugin_logger("beliefbase.plugin")


@dataclass(frozen=True)
class TagOptions:
    root: str  # the plugin option ``tags_page``: "tags/"
    material_tags: bool  # Material's tags plugin is enabled: it shows the page's tags


@dataclass
class Tag:
    """One tag page: the notes carrying the tag or a tag nested under it."""

    key: str  # tag_key: "project/alpha"
    name: str  # as written in the notes (the commonest spelling): "Project/Alpha"
    src: SrcPath
    url: str  # site-relative, as MkDocs' File.url writes it
    notes: set[SrcPath] = field(default_factory=set)  # this tag or one nested under it
    children: list[str] = field(default_factory=list)  # keys of the tags one level down


def material_tags_enabled(plugins: Any) -> bool:
    """Is MkDocs-Material's ``tags`` plugin enabled for this site?"""
    return any(type(p).__module__.startswith("material.plugins.tags")
               and getattr(p, "config", {}).get("enabled", True)
               for p in plugins.values())


class TagSite(SiteFeature):
    """The tags of one build and their pages."""

    name = "tags"
    row_rank = 30

    @classmethod
    def make(cls, ctx: FeatureContext) -> TagSite:
        options = TagOptions(ctx.options.tags_page, material_tags_enabled(ctx.config.plugins))
        return cls(ctx.compiled, ctx.templates, options)

    def __init__(self, compiled: Compiled, templates: Templates, options: TagOptions) -> None:
        self.compiled = compiled
        self.templates = templates
        self.options = options
        self.tags: dict[str, Tag] = {}
        self.index_src = SrcPath(options.root + "index.md")
        self.index_url = url_for_src(self.index_src, compiled.options.use_directory_urls)
        self._generated: set[str] = set()  # srcs of the pages added to the build
        self._src_index: dict[str, Tag] | None = None
        self._collect()

    def _collect(self) -> None:
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        direct: dict[str, set[SrcPath]] = defaultdict(set)
        for doc in self.compiled.published.values():
            if doc.url is None:
                continue
            for tag in doc.tags:
                key = tag_key(tag)
                if not key:
                    continue
                direct[key].add(doc.path)
                written = "/".join(p for p in tag.lstrip("#").split("/") if p.strip())
                spellings[key][written] += 1
                for prefix in tag_parents(written)[:-1]:  # a tag met only as a parent ("a"
                    spellings[prefix.lower()].setdefault(prefix, 0)  # of "a/b"): as written
        use_dirs = self.compiled.options.use_directory_urls
        for key in sorted(spellings):
            counts = spellings[key]
            # the commonest spelling; of a tag only met as a parent, its first spelling
            name = min(counts, key=lambda s: (-counts[s], s))
            src = tag_page_src(self.options.root, key)
            if src is None:
                continue
            self.tags[key] = Tag(key, name, src, url_for_src(src, use_dirs))
        for key, paths in direct.items():
            for parent in tag_parents(key):
                self.tags[parent].notes |= paths
        for key in self.tags:
            parent = key.rpartition("/")[0]
            if parent:
                self.tags[parent].children.append(key)

    # -- pages -------------------------------------------------------------------------

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """Add the index and the tag pages to ``files``; say which URLs a page of the
        site already had (kept: a link to that tag goes to that page)."""
        if not self.tags:
            return []
        generated = GeneratedPages(files, config)
        pages = [(self.index_src, True)] + [(t.src, False) for t in self.tags.values()]
        for src, listed in pages:
            file, added = generated.add(src, listed)
            if added:
                self._generated.add(src)
            else:
                log.info(f"the site has its own page at {file.url}: no tag page is generated "
                         "there")
        return []

    @property
    def dest_uris(self) -> set[str]:
        """The output paths of the generated tag pages (a --dirty rebuild removes the
        pages of tags that are gone)."""
        return dest_uris(self._generated, self.compiled.options.use_directory_urls)

    def owns(self, src: str) -> bool:
        return src in self._generated

    def meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of a tag page: its title (user text: the theme escapes it), kept
        out of the site search like "All notes" (titles only; the notes are searched,
        their tag rows included)."""
        if src not in self._generated:
            return {}
        hidden = {"search": {"exclude": True}}
        if src == self.index_src:
            return {"title": UserText("Tags"), **hidden}
        tag = self._by_src().get(src)
        return {"title": UserText(f"#{tag.name}"), **hidden} if tag is not None else {}

    def content(self, src: str, page_url: str) -> str | None:
        """The HTML of a tag page (its Markdown is empty)."""
        if src not in self._generated:
            return None
        if src == self.index_src:
            roots = [k for k in self.tags if "/" not in k]
            return self.templates.render("tags-index.html",
                                         tags=self._tree(roots, page_url),
                                         count=len(self.tags))
        tag = self._by_src().get(src)
        if tag is None:
            return None
        docs = sorted((self.compiled.documents[p] for p in tag.notes),
                      key=lambda d: (normalize_name(d.title), d.path))
        # the site root as seen from this page, then each note's URL: one relative-URL
        # computation per page, not per note (a tag may list thousands)
        base = get_relative_url("index.html", page_url).removesuffix("index.html")
        notes = [{"title": UserText(d.title), "href": _from_root(base, d.url or ""),
                  "folder": UserText(posixpath.dirname(d.path)),
                  "nested": [UserText(t) for t in d.tags
                             if tag_key(t) != tag.key and tag_key(t).startswith(tag.key + "/")]}
                 for d in docs]
        parent = tag.key.rpartition("/")[0]
        return self.templates.render(
            "tag.html", tag_name=UserText(tag.name), notes=notes,
            children=self._tree(tag.children, page_url, deep=False),
            parent=self._link(self.tags[parent], page_url) if parent else None,
            index_href=self._href(self.index_url, page_url))

    def _by_src(self) -> dict[str, Tag]:
        if self._src_index is None:  # asked once per tag page: made once
            self._src_index = {t.src: t for t in self.tags.values()}
        return self._src_index

    def _tree(self, keys: list[str], page_url: str, deep: bool = True) -> list[dict[str, Any]]:
        items = []
        for key in sorted(keys, key=lambda k: (normalize_name(self.tags[k].name), k)):
            tag = self.tags[key]
            item = self._link(tag, page_url)
            item["children"] = self._tree(tag.children, page_url) if deep else []
            items.append(item)
        return items

    def _link(self, tag: Tag, page_url: str) -> dict[str, Any]:
        return {"name": UserText(tag.name), "label": UserText(tag.name.rpartition("/")[2]),
                "href": self._href(tag.url, page_url), "count": len(tag.notes)}

    @staticmethod
    def _href(url: str, page_url: str) -> str:
        return get_relative_url(url, page_url)

    # -- notes -------------------------------------------------------------------------

    def url_of(self, tag: str) -> str | None:
        """The site-relative URL of ``tag``'s page, if it has one."""
        found = self.tags.get(tag_key(tag))
        return found.url if found is not None else None

    def src_of(self, tag: str) -> SrcPath | None:
        """The source path of ``tag``'s page (MkDocs converts links to it), if any."""
        found = self.tags.get(tag_key(tag))
        return found.src if found is not None else None

    def title_row(self, doc: Document, page_url: str) -> str:
        """The note's tags as links under its title; none when Material's tags plugin
        shows them instead."""
        if self.options.material_tags or not doc.tags:
            return ""
        shown = [{"name": UserText(t), "href": self._href(url, page_url)}
                 for t in row_tags(doc) if (url := self.url_of(t)) is not None]
        if not shown:
            return ""
        return self.templates.render("tags-row.html", tags=shown)

    def page_context(self, context: dict[str, Any], doc: Document | None) -> None:
        if self.options.material_tags:
            self.material_links(context)  # after Material's tags plugin

    def shown(self, change: Change) -> Shown:
        return Shown(outputs=frozenset(self.dest_uris))

    def material_links(self, context: dict[str, Any]) -> None:
        """Point Material's tag chips that link nowhere (no listing features the tag)
        at our tag pages."""
        from mkdocs.structure.nav import Link

        for ref in context.get("tags") or []:
            links = getattr(ref, "links", None)
            if links is None or links:
                continue
            url = self.url_of(str(getattr(ref, "name", "")))
            if url is not None:
                links.append(Link(str(ref.name), url))


def _from_root(base: str, url: str) -> str:
    """``url`` (site-relative) from a page whose way to the site root is ``base``."""
    return base + url if url != "./" else base or "./"



__all__ = ["Markup", "TagOptions", "TagSite", "material_tags_enabled"]


def row_tags(doc: Document) -> tuple[str, ...]:
    """The tags the row under a note's title shows: those of its properties, as
    Obsidian's reading view shows them above the text. A tag written only in the text
    shows where it is written (a row of them on the note's first line showed twice)."""
    written = {t.name.casefold() for t in doc.parsed.tags}
    front = {t.casefold() for t in frontmatter_tags(doc.meta)}
    return tuple(t for t in doc.tags if t.casefold() in front or t.casefold() not in written)

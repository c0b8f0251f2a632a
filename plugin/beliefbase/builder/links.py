"""Resolve every link of one document and say what is wrong with it.

Wikilinks, embeds, inline fields and frontmatter relations go through the five
resolution steps; Markdown links ``[t](x.md)`` resolve like MkDocs resolves
them (relative to the file, ``/`` = docs root) so that the graph records the
same edge MkDocs renders — MkDocs itself reports a missing target, we check
the anchor.
"""

from __future__ import annotations

import copy
import posixpath
import re
from collections.abc import Iterable, Sequence

from .. import diagnostics as diag
from ..codecs.model import LinkRef
from ..ids import SrcPath, join_src
from .documents import Document, is_drawing
from .excluded import NONE as NOTHING_EXCLUDED
from .excluded import Excluded
from .index import NameIndex
from .options import CompileOptions
from .resolve import Found, ResolvedLink, Resolver, find_target, resolve_fragment
from .suggest import Suggester

_WIKI_FORMS = ("wikilink", "embed", "field", "meta")
# A file extension other than .md ("clip.mp4", "scan.PDF"): 1-5 letters or digits,
# at least one a letter, so "Version 2.0" or "Mr. Smith" are still note names.
_FILE_EXT = re.compile(r"\.(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,5}$")


class LinkResolver:
    """Resolves the links of documents against one compile's indexes.

    Its indexes are read-only; its memos (``__caches__``, and its ``Resolver``'s)
    are its compile's own (``for_compile``): a later compile neither fills nor
    reads an earlier one's.
    """

    #: ``frozen.CACHES``: the suggester of file names, made on the first unresolved
    #: link to a file; (id of a document, fragment) -> (the document, its answer)
    __caches__ = ("_asset_suggester", "_fragments")

    def __init__(
        self,
        resolver: Resolver,
        published: NameIndex,
        suggester: Suggester,
        options: CompileOptions,
    ) -> None:
        self.resolver = resolver
        self.published = published
        self.suggester = suggester
        self.options = options
        self._asset_suggester: Suggester | None = None
        self._fragments: dict[tuple[int, str], tuple[Document, tuple[str | None, bool]]] = {}
        #: files left out of the site: a link matching none but one of them says so
        self.excluded: Excluded = NOTHING_EXCLUDED

    def with_excluded(self, excluded: Excluded) -> LinkResolver:
        """This resolver, its links to files left out of the site told by ``excluded``."""
        out = copy.copy(self)
        out.excluded = excluded
        return out

    def for_compile(self) -> LinkResolver:
        """This resolver with memos of its own, for the next compile (which may leave
        every index as it was, and then gets a copy of the last compile's resolver)."""
        out = copy.copy(self)
        out.resolver = Resolver(self.resolver.published, self.resolver.drafts)
        out._asset_suggester = None
        out._fragments = {}
        return out

    def fragment(self, doc: Document, fragment: str) -> tuple[str | None, bool]:
        """``resolve_fragment`` for a published document, memoised: many links name
        the same heading.  The entry holds the document (so its id is not reused)
        and is used only for that very object: a new ``Document`` has new sections."""
        if not fragment:
            return None, False
        key = (id(doc), fragment)
        found = self._fragments.get(key)
        if found is None or found[0] is not doc:
            found = self._fragments[key] = (doc, resolve_fragment(doc, fragment,
                                                                  self.options.slug))
        return found[1]

    def with_docs(self, replaced: Iterable[Document]) -> LinkResolver:
        """This resolver with new objects for documents whose names did not change
        (``NameIndex.with_docs``); this one is left as it was."""
        replaced = list(replaced)
        published = self.published.with_docs(replaced)
        drafts = self.resolver.drafts.with_docs(replaced)
        if published is self.published and drafts is self.resolver.drafts:
            return self
        out = copy.copy(self)
        out.published = published
        out.resolver = self.resolver.with_indexes(published, drafts)
        return out

    def resolve_doc(self, doc: Document) -> tuple[list[ResolvedLink], list[diag.Diagnostic]]:
        links = self.resolve_links(doc)
        return links, self.rediagnose(doc, links)

    def resolve_links(self, doc: Document) -> list[ResolvedLink]:
        """``doc``'s links resolved, without their diagnostics (``rediagnose``)."""
        links: list[ResolvedLink] = []
        for link in doc.parsed.links:
            if link.form == "autolink":
                links.append(ResolvedLink(link, doc.path, "external"))
                continue
            resolved: ResolvedLink | None
            if link.form in _WIKI_FORMS:
                resolved = self._wikilink(link, doc)
            else:
                resolved = self._markdown_link(link, doc)
            if resolved is not None:
                links.append(resolved)
        return links

    def prefetch_suggestions(self, resolved: Iterable[Sequence[ResolvedLink]]) -> None:
        """"Did you mean" for every unresolved note link of ``resolved`` answered ahead,
        in parallel when there are many (``Suggester.prefetch``)."""
        self.suggester.prefetch(
            r.link.target for links in resolved for r in links
            if r.status == "unresolved" and not is_file_target(r.link.target))

    def rediagnose(self, doc: Document, links: Sequence[ResolvedLink]) -> list[diag.Diagnostic]:
        """The diagnostics of links resolved earlier, worded with today's names.

        "Did you mean" depends on every name in the knowledge base: when names
        change, a note whose links still resolve the same gets its messages again.
        """
        display = self.options.display(doc.path)
        found = (self._diagnose(resolution, doc, display) for resolution in links
                 if resolution.link.form != "autolink")
        return [d for d in found if d is not None]

    def resolve_one(self, link: LinkRef, doc: Document) -> ResolvedLink:
        """Resolve a single wikilink-style link (for links only the renderer met)."""
        return self._wikilink(link, doc)

    def resolve_markdown(self, link: LinkRef, doc: Document) -> ResolvedLink | None:
        """Resolve a single Markdown-syntax link (for links only the renderer met); None
        where the compile would record none (outside docs_dir, or matching nothing)."""
        return self._markdown_link(link, doc)

    def _wikilink(self, link: LinkRef, doc: Document) -> ResolvedLink:
        if not link.target:  # [[#Heading]]: this page
            return self._with_fragment(link, doc, doc.path, Found(doc.path, 0))
        result = self.resolver.find(link.target, doc)
        if result is None:
            return ResolvedLink(link, doc.path, "unresolved")
        if result == "escape":
            return ResolvedLink(link, doc.path, "escape")
        if result == "unpublished":
            found = find_target(self.resolver.drafts, link.target, doc)
            drawing = self._drawing(link, doc, found.path, found.step) if isinstance(
                found, Found) else None
            return drawing or ResolvedLink(link, doc.path, "unpublished")
        assert isinstance(result, Found)
        return self._with_fragment(link, doc, result.path, result)

    def _with_fragment(self, link: LinkRef, doc: Document, path: SrcPath, found: Found) -> (
        ResolvedLink
    ):
        target_doc = self.published.docs.get(path)
        if target_doc is None:  # an asset
            return ResolvedLink(link, doc.path, "ok", path, True, None, False,
                                found.candidates, found.step)
        anchor, missing = self.fragment(target_doc, link.fragment)
        return ResolvedLink(link, doc.path, "ok", path, False, anchor, missing,
                            found.candidates, found.step)

    def _markdown_link(self, link: LinkRef, doc: Document) -> ResolvedLink | None:
        if not link.target:
            return self._with_fragment(link, doc, doc.path, Found(doc.path, 0))
        base = "" if link.target.startswith("/") else doc.folder
        joined = join_src(base, link.target.lstrip("/"))
        if joined is None:
            return None  # outside docs_dir: MkDocs reports it, and it is not in the graph
        path = SrcPath(joined.rstrip("/"))
        if path in self.published.paths:
            return self._with_fragment(link, doc, self.published.paths[path], Found(path, 2))
        folder_index = self.published.folder_index(path)
        if folder_index is not None:
            return self._with_fragment(link, doc, folder_index, Found(folder_index, 2))
        if self.resolver.drafts.paths.get(path):
            return self._drawing(link, doc, path, 2) or ResolvedLink(link, doc.path, "unpublished")
        return self._markdown_fallback(link, doc)

    def _drawing(self, link: LinkRef, doc: Document, path: SrcPath, step: int) -> (
        ResolvedLink | None
    ):
        """A link to the Excalidraw drawing ``path``: its exported image, if the vault
        has one next to it, else status "drawing" (None: ``path`` is no drawing)."""
        draft = self.resolver.drafts.docs.get(path)
        if draft is None or not is_drawing(draft.parsed):
            return None
        for image in drawing_images(path):
            if image in self.published.paths and image not in self.published.docs:
                return ResolvedLink(link, doc.path, "ok", image, True, None, False, (), step)
        return ResolvedLink(link, doc.path, "drawing", path, step=step)

    def _markdown_fallback(self, link: LinkRef, doc: Document) -> ResolvedLink | None:
        """``[t](note.md)`` whose file is elsewhere: found by name, as Obsidian does.

        The renderer re-points the link (``step`` 4 or 5 tells it to).  A target
        that matches nothing is left to MkDocs, which reports it.
        """
        found = self.resolver.find(posixpath.basename(link.target), doc)
        if not isinstance(found, Found):
            return None
        # found elsewhere than MkDocs looks (by name, or a path that differs in
        # case): at least step 4, which tells the renderer to re-point it
        return self._with_fragment(link, doc, found.path,
                                   Found(found.path, max(found.step, 4), found.candidates))

    def _diagnose(
        self, resolution: ResolvedLink, doc: Document, display: str
    ) -> diag.Diagnostic | None:
        if (resolution.status == "ok" and len(resolution.candidates) < 2
                and not resolution.anchor_missing):
            return None  # most links: nothing to say, and no message to word
        link = resolution.link
        written = written_form(link)
        where = (display, link.line, link.column)
        if resolution.status == "unresolved":
            left_out = self.excluded.find(link.target)
            if left_out is not None:
                path, why = left_out
                return diag.make("link-to-unpublished", *where,
                                 f"{written} names {self.options.display(path)}, which is "
                                 f"excluded from the site by {why}; it renders as a broken "
                                 "link. Link to a published note instead, or publish the file "
                                 "by removing it from that exclusion")
            is_file = is_file_target(link.target)
            hint = self._asset_names().suggest(link.target) if is_file else (
                self.suggester.suggest(link.target))
            what = "file" if is_file or (
                link.form == "embed" and "." in posixpath.basename(link.target)) else "note"
            return diag.make("unresolved-link", *where,
                             f"{written} matches no {what}, title or alias{hint}; "
                             f"create the {what} or fix the link")
        if resolution.status == "drawing":
            return diag.make("excalidraw-embed", *where,
                             f"{written} is an Excalidraw drawing with no exported image next "
                             "to it; it shows as its name. Export the drawing as SVG "
                             "(Excalidraw plugin setting 'Auto-export SVG') to show it")
        if resolution.status == "escape":
            return diag.make("path-escape", *where,
                             f"{written} leaves the docs folder; links may only point inside it")
        if resolution.status == "unpublished":
            return diag.make("link-to-unpublished", *where,
                             f"{written} points at a note that is not published (draft or "
                             "publish: false); it renders as a broken link")
        if resolution.candidates and len(resolution.candidates) > 1:
            names = ", ".join(self.options.display(c) for c in resolution.candidates[:5])
            if len(resolution.candidates) > 5:
                names += f" and {len(resolution.candidates) - 5} more"
            return diag.make("ambiguous-link", *where,
                             f"{written} matches {len(resolution.candidates)} notes ({names}); "
                             "using "
                             f"the nearest, {self.options.display(resolution.target or '')}. "
                             "Link by path (e.g. [[folder/name]]) to choose")
        if resolution.anchor_missing and resolution.target is not None:
            return self._anchor_diagnostic(resolution, written, where)
        return None

    def _asset_names(self) -> Suggester:
        """Suggestions for a link to a file: the files' names, never a note's."""
        if self._asset_suggester is None:
            docs = self.published.docs
            self._asset_suggester = Suggester(
                posixpath.basename(p) for p in self.published.paths if p not in docs)
        return self._asset_suggester

    def _anchor_diagnostic(
        self, resolution: ResolvedLink, written: str, where: tuple[str, int, int]
    ) -> diag.Diagnostic:
        assert resolution.target is not None
        target = self.published.docs[resolution.target]
        fragment = resolution.link.fragment
        if fragment.startswith("^"):
            hint = diag.did_you_mean(fragment[1:], sorted(target.blocks))
            what = f"no block ^{fragment[1:]}"
        else:
            last = fragment.split("#")[-1]
            hint = diag.did_you_mean(last, [s.text for s in target.sections])
            what = f"no heading {last!r}"
        outcome = "the link points at the top of the page"
        if target.parsed.kind == "base":  # its views are its headings (codecs/base.py)
            what = what.replace("no heading", "no view")
            outcome = ("the embed shows its first view" if resolution.link.is_embed
                       else "the link opens its first view")
        return diag.make("unresolved-anchor", *where,
                         f"{written}: {target.title!r} has {what}{hint}; {outcome}")


def drawing_images(path: SrcPath) -> list[SrcPath]:
    """Where the Excalidraw plugin exports ``path`` (``a/D.excalidraw.md`` ->
    ``a/D.excalidraw.svg``, ``.png``, then ``a/D.svg``, ``.png``)."""
    base = path[:-3] if path.lower().endswith(".md") else path
    other = base[:-len(".excalidraw")] if base.lower().endswith(".excalidraw") else (
        base + ".excalidraw")
    return [SrcPath(b + ext) for b in (base, other) for ext in (".svg", ".png")]


def is_file_target(target: str) -> bool:
    """Does ``target`` name a file (``clip.mp4``) rather than a note?"""
    base = posixpath.basename(target.strip())
    return bool(_FILE_EXT.search(base)) and not base.lower().endswith(".md")


def written_form(link: LinkRef) -> str:
    """The link as the author wrote it (for messages)."""
    fragment = f"#{link.fragment}" if link.fragment else ""
    if link.form in ("markdown", "image"):
        return f"[{link.display or ''}]({link.target}{fragment})"
    if link.form == "meta":
        return f"{link.relation}: [[{link.target}{fragment}]]"
    bang = "!" if link.form == "embed" else ""
    return f"{bang}[[{link.target}{fragment}]]"

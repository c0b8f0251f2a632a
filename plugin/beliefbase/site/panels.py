"""Panels and generated pages: the data each template gets.

Each method gathers plain data from ``Compiled`` and renders one template;
none builds HTML by hand.  URLs here are final (relative to the page they
appear on): these fragments are added after MkDocs has converted links.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from itertools import accumulate
from typing import Any

from mkdocs.utils import get_relative_url

from ..builder.documents import Document
from ..builder.resolve import ResolvedLink
from ..codecs import snippet as snippets
from ..codecs.inline import WikiText, snippet_parts
from ..compile.compiled import Compiled
from ..ids import SrcPath, normalize_name
from .feature import FeatureContext, SiteFeature
from .templates import Templates

#: A line's length -> the offset of the next line's start from the line's own.
_PLUS_ONE = (1).__add__


class Panels(SiteFeature):
    """The "Linked from" panel of the pages of one build (caches per-source lookups)."""

    name = "backlinks"
    panel_rank = 30
    panel_ahead = True

    @classmethod
    def make(cls, ctx: FeatureContext) -> Panels | None:
        return (cls(ctx.compiled, ctx.templates, ctx.read_text) if ctx.options.backlinks
                else None)

    def __init__(self, compiled: Compiled, templates: Templates,
                 read_text: Callable[[SrcPath], str] | None = None) -> None:
        self.compiled = compiled
        self.templates = templates
        self.read_text = read_text
        self._wikitexts: dict[str, WikiText] = {}
        #: where each source's lines start, as 32-bit numbers: a list of Python ints
        #: took 36 bytes a line, 10 MB at 5,000 notes in each process making panels
        #: (``panels_ahead``); the text itself is read again (``read_text``: from
        #: disk, the last few kept), kept here it was every note's text once more
        #: in each of those processes (25 MB at 5,000 notes)
        self._lines: dict[SrcPath, array[int]] = {}

    def release(self) -> None:
        self._wikitexts.clear()
        self._lines.clear()
        snippets.forget()

    def panel(self, doc: Document, page_url: str) -> str:
        return self.backlinks(doc, page_url)

    def viewing(self, view: Any, read_text: Callable[[SrcPath], str]) -> Panels:
        return Panels(view, self.templates, read_text)

    def backlinks(self, doc: Document, page_url: str) -> str:
        """The "Linked from" panel of ``doc``: each linking page with its sentences."""
        compiled = self.compiled
        by_source: dict[SrcPath, list[ResolvedLink]] = defaultdict(list)
        for link in compiled.backlinks.get(doc.path, []):
            by_source[link.source].append(link)
        sources: list[dict[str, Any]] = []
        for path, links in by_source.items():
            source = compiled.documents[path]
            if source.url is None:
                continue
            snippets: list[str] = []
            # a sentence read already gives the same snippet: a note linking here
            # thousands of times from one sentence was read thousands of times
            seen: set[str] = set()
            for resolution in links:
                context = resolution.link.context
                if context:
                    if context in seen:
                        continue
                    seen.add(context)
                text = self._snippet(source, resolution)
                if text and text not in snippets:
                    snippets.append(text)
                if len(snippets) == 3:
                    break
            sources.append({
                "title": source.title,
                "href": get_relative_url(source.url, page_url),
                "bid": source.bid,
                "snippets": [snippet_parts(text) for text in snippets],
            })
        sources.sort(key=lambda s: (normalize_name(s["title"]), s["href"]))
        return self.templates.render("backlinks.html", sources=sources, title=doc.title)

    def _snippet(self, source: Document, resolution: ResolvedLink) -> str:
        if not resolution.link.context:
            if resolution.link.form == "meta" and resolution.target in self.compiled.documents:
                target = self.compiled.documents[resolution.target]
                return f"{resolution.link.relation}: {target.title}"
            return ""
        wikitext = self._wikitexts.get(source.path)
        if wikitext is None:
            wikitext = self._wikitexts[source.path] = _titles(self.compiled, source)
        text, at = self._at(source, resolution)
        if at < 0:  # the note's text is not at hand: the sentence the parser kept
            return snippets.render_text(resolution.link.context, wikitext)
        link = resolution.link
        close = text.find("]]", at, at + 1024) if text.startswith(("[[", "![["), at) else -1
        if close < 0:
            return snippets.sentence(text, at, wikitext)
        shown = wikitext(link.target, link.fragment, link.display)
        return snippets.sentence(text, at, wikitext, close + 2, shown)

    def _at(self, source: Document, resolution: ResolvedLink) -> tuple[str, int]:
        """The source's text and the offset of the link in it (-1: not found)."""
        if self.read_text is None:
            return "", -1
        text = self.read_text(source.path)
        starts = self._lines.get(source.path)
        if starts is None:
            starts = array("I" if len(text) < 1 << 31 else "Q", [0])
            starts.extend(accumulate(map(_PLUS_ONE, map(len, text.split("\n")))))
            self._lines[source.path] = starts
        line = resolution.link.line
        if not 0 < line < len(starts):
            return text, -1
        at = starts[line - 1] + resolution.link.column - 1
        # on the link's line (a column past its end or before it: not found)
        if not starts[line - 1] <= at < min(starts[line], len(text)) or text[at] not in "[!<":
            return text, -1
        return text, at


def _titles(compiled: Compiled, source: Document) -> WikiText:
    """Auto-titles for wikilinks inside a snippet, resolved from ``source``."""
    packed = getattr(compiled, "titles", None)
    if packed is not None:  # a panel_view.PanelView: the same answers, made by its pack
        made: WikiText = packed(source.path)
        return made
    return titles_wikitext(shown_titles(compiled, compiled.links.get(source.path, ())))


def shown_titles(compiled: Compiled, links: Iterable[ResolvedLink]
                 ) -> dict[tuple[str, str], str]:
    """What a wikilink without display text shows, for each (target, fragment) of
    ``links`` that names a document (the last link of each wins): the heading's text
    or the note's title.  The others show themselves (``titles_wikitext``)."""
    table = {(r.link.target, r.link.fragment): r for r in links}
    shown: dict[tuple[str, str], str] = {}
    for key, r in table.items():
        if r.status == "ok" and r.target in compiled.documents:
            doc = compiled.documents[r.target]
            shown[key] = (doc.by_anchor[r.anchor].text if r.anchor and r.anchor in doc.by_anchor
                          else doc.title)
    return shown


def titles_wikitext(shown: Mapping[tuple[str, str], str]) -> WikiText:
    """A snippet's wikilink texts from ``shown_titles``' table."""

    def text(target: str, fragment: str, display: str | None) -> str:
        if display:
            return display
        title = shown.get((target, fragment))
        return title if title is not None else target or fragment

    return text


def wanted_html(compiled: Compiled, page_url: str, templates: Templates) -> str:
    """Every unresolved link target, with the pages that want it."""
    groups: dict[str, dict[str, Any]] = {}
    for path, links in compiled.links.items():
        source = compiled.documents[path]
        href = None  # the source's, worked out once however many links it has
        for resolution in links:
            if resolution.status != "unresolved" or not resolution.link.target:
                continue
            key = normalize_name(resolution.link.target)
            group = groups.setdefault(
                key, {"target": resolution.link.target, "count": 0, "sources": {}})
            group["count"] += 1
            if source.url is not None and path not in group["sources"]:
                if href is None:
                    href = get_relative_url(source.url, page_url)
                group["sources"][path] = {"title": source.title, "href": href,
                                          "line": resolution.link.line}
    wanted = [
        {**g, "sources": sorted(g["sources"].values(), key=lambda s: normalize_name(s["title"]))
         if len(g["sources"]) > 1 else list(g["sources"].values())}
        for g in groups.values()
    ]
    wanted.sort(key=lambda g: (-g["count"], normalize_name(g["target"])))
    return templates.render("wanted.html", wanted=wanted)


def drift_banner_html(compiled: Compiled, doc: Document, templates: Templates) -> str:
    refs = [r for r in compiled.source_refs.get(doc.path, []) if r.status in ("drift", "missing")]
    if not refs:
        return ""
    return templates.render("drift-banner.html", refs=[r.as_json() for r in refs])

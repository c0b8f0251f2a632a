"""A note's frontmatter properties as Obsidian's reading view shows them.

Under the title, a collapsible "Properties" block lists the note's fields in the
order they are written: text, numbers, dates, checkboxes, lists, and links
(``"[[Note]]"`` values, resolved by the compile like every link: ``Compiled.links``
holds them with the form ``meta`` and the field as their relation).  The fields the
site itself reads (``SITE_FIELDS``: the title, aliases and tags, which have their
own lines under the title, and the fields that steer publishing and the theme) are
left out.  The plugin option ``properties: false`` turns the block off for the
whole site, ``properties: false`` in a note for that note.

Python passes data to ``theme/properties.html``; every value is escaped there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from mkdocs.utils import get_relative_url

from ..builder.documents import Document
from ..builder.resolve import ResolvedLink
from ..builder.wikitext import link_text, unresolved_text
from ..codecs.grammar import split_wikilink
from ..compile.compiled import Compiled
from ..ids import asset_url
from .feature import FeatureContext, SiteFeature
from .reader.dates import CREATED_KEYS, MODIFIED_KEYS
from .templates import Templates

if TYPE_CHECKING:
    from .reader.recent import RecentSite

#: Fields the site reads itself (shown elsewhere, or steering the build or the
#: theme): never rows of the block.  ``title``, ``aliases`` and ``tags`` have their
#: own lines under the title; the rest are instructions, not facts about the note.
SITE_FIELDS = frozenset({
    "title", "aliases", "alias", "tags", "tag",  # shown under the title
    "bid", "id", "schema", "source_refs",  # identity and provenance
    "draft", "publish", "properties",  # publishing, this block (and a schema's fields)
    "cssclasses", "cssclass", "template", "icon", "hide", "search", "comments",  # theme
    "query", "view",  # a query note's own query and its view
    "excalidraw-plugin",
})

#: The number of list items or characters of one value the block shows at most.
MAX_ITEMS = 200
MAX_TEXT = 2000

_FRAGMENT_SAFE = "^-_.~!$&()*+,;=:@"  # as render.py's hrefs
_URL = re.compile(r"^(?:https?|mailto):\S+$", re.IGNORECASE)
_WIKILINK = re.compile(r"^\[\[([^\[\]]+)\]\]$")


class PropertiesBlock(SiteFeature):
    """The Properties block under a note's title, after the other rows (dates,
    aliases, tags); none when the plugin option ``properties`` is off."""

    name = "properties"
    row_rank = 90

    @classmethod
    def make(cls, ctx: FeatureContext) -> PropertiesBlock | None:
        return cls(ctx) if ctx.options.properties else None

    def __init__(self, ctx: FeatureContext) -> None:
        self.ctx = ctx

    def title_row(self, doc: Document, page_url: str) -> str:
        left_out = dates_line_fields(self.ctx.feature("recent"))
        return properties_block(self.ctx.compiled, self.ctx.templates, doc, page_url,
                                left_out)

    def embedded_block(self, doc: Document, page_url: str) -> str:
        """The block of ``doc`` shown in another page at ``page_url`` (a canvas file
        node, ``canvas.py``): every field, as no dates line is shown there."""
        return properties_block(self.ctx.compiled, self.ctx.templates, doc, page_url)


def dates_line_fields(recent: RecentSite | None) -> frozenset[str]:
    """The date fields the dates line under the title shows ("Created … · Updated …",
    ``reader/recent.py``), when it shows them: not shown twice."""
    if recent is None or not recent.options.dates or recent.options.dates_elsewhere:
        return frozenset()
    return frozenset(CREATED_KEYS + MODIFIED_KEYS)


def properties_block(compiled: Compiled, templates: Templates, doc: Document,
                     page_url: str, left_out: frozenset[str] = frozenset()) -> str:
    """The Properties block of ``doc`` alone ("" when it shows nothing)."""
    if doc.kind != "markdown" or doc.meta.get("properties") is False:
        return ""
    rows = property_rows(compiled, doc, page_url, left_out)
    return templates.render("properties.html", rows=rows) if rows else ""


def property_rows(compiled: Compiled, doc: Document, page_url: str,
                  left_out: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """One row per shown field: ``{key, type, values: [{kind, text, href?, iso?}]}``."""
    links: dict[tuple[str, str], ResolvedLink] = {}
    for resolution in compiled.links.get(doc.path, ()):
        if resolution.link.form == "meta":
            link = resolution.link
            links.setdefault((link.relation, f"{link.target}#{link.fragment}"), resolution)
    rows = []
    for written, value in doc.meta.items():
        key = str(written)  # YAML keys may be numbers or dates
        if key.lower() in SITE_FIELDS or key.lower() in left_out:
            continue
        items = _items(value)
        shown = [_value(key, item, links, compiled, page_url) for item in items[:MAX_ITEMS]]
        rows.append({"key": key, "type": _type_of(value, shown),
                     "values": shown, "more": max(0, len(items) - MAX_ITEMS)})
    return rows


def _items(value: Any) -> list[Any]:
    """A field's values: a list's items (YAML's ``[[A]]`` is a list in a list), else one."""
    if isinstance(value, (list, tuple)):
        if len(value) == 1 and isinstance(value[0], (list, tuple)) and len(value[0]) == 1:
            return [f"[[{value[0][0]}]]"]  # ``key: [[A]]`` unquoted
        return [f"[[{v[0]}]]" if isinstance(v, (list, tuple)) and len(v) == 1
                and isinstance(v[0], str) else v for v in value]
    return [value]


def _type_of(value: Any, shown: list[dict[str, Any]]) -> str:
    """Obsidian's property type: the icon and layout of the row."""
    if isinstance(value, (list, tuple)):
        return "list"
    kind = shown[0]["kind"] if shown else "empty"
    return {"link": "text", "url": "text", "unresolved": "text"}.get(kind, kind)


def _value(key: str, value: Any, links: Mapping[tuple[str, str], ResolvedLink],
           compiled: Compiled, page_url: str) -> dict[str, Any]:
    if value is None or value == "":
        return {"kind": "empty", "text": ""}
    if isinstance(value, bool):
        return {"kind": "checkbox", "checked": value, "text": "true" if value else "false"}
    if isinstance(value, (int, float)):
        return {"kind": "number", "text": str(value)}
    if isinstance(value, datetime):
        return {"kind": "datetime", "iso": value.isoformat(),
                "text": value.strftime("%Y-%m-%d %H:%M")}
    if isinstance(value, date):
        return {"kind": "date", "iso": value.isoformat(), "text": value.isoformat()}
    if isinstance(value, str):
        return _text_value(key, value.strip(), links, compiled, page_url)
    if isinstance(value, Mapping):  # Obsidian cannot show it either: its JSON, as text
        return {"kind": "object", "text": _cut(_bounded_text(value))}
    return {"kind": "text", "text": _cut(_bounded_text(value))}


def _bounded_text(value: Any) -> str:
    """A nested value as JSON-like text, cut after ``MAX_TEXT`` characters while it is
    made: YAML aliases share values, and an alias bomb written out in full is
    exponential."""
    out: list[str] = []
    size = 0

    def put(text: str) -> bool:
        nonlocal size
        out.append(text)
        size += len(text)
        return size <= MAX_TEXT

    def walk(v: Any) -> bool:
        if isinstance(v, Mapping):
            if not put("{"):
                return False
            for i, (k, item) in enumerate(v.items()):
                if not (put(", " if i else "") and put(json.dumps(str(k), ensure_ascii=False)
                                                       + ": ") and walk(item)):
                    return False
            return put("}")
        if isinstance(v, (list, tuple)):
            if not put("["):
                return False
            for i, item in enumerate(v):
                if not (put(", " if i else "") and walk(item)):
                    return False
            return put("]")
        return put(json.dumps(v, ensure_ascii=False, default=str)
                   if not isinstance(v, str) else json.dumps(v, ensure_ascii=False))

    walk(value)
    return "".join(out)


def _text_value(key: str, text: str, links: Mapping[tuple[str, str], ResolvedLink],
                compiled: Compiled, page_url: str) -> dict[str, Any]:
    m = _WIKILINK.match(text)
    if m:
        target, fragment, display = split_wikilink(m.group(1))
        resolution = links.get((key, f"{target}#{fragment}"))
        if resolution is None:
            return {"kind": "unresolved", "text": display or target}
        return _link_value(resolution, compiled, page_url)
    if _URL.match(text):
        return {"kind": "url", "text": _cut(text), "href": text}
    return {"kind": "text", "text": _cut(text)}


def _link_value(resolution: ResolvedLink, compiled: Compiled, page_url: str) -> dict[str, Any]:
    documents = compiled.documents
    target = resolution.target
    if resolution.status != "ok" or target is None:
        return {"kind": "unresolved", "text": unresolved_text(resolution.link)}
    url = str(asset_url(target) if resolution.is_asset else documents[target].url or "")
    href = get_relative_url(url, page_url)
    if resolution.anchor:
        href += "#" + quote(resolution.anchor, safe=_FRAGMENT_SAFE)
    return {"kind": "link", "text": link_text(resolution, documents), "href": href}


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"

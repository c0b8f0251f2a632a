"""The text a link shows: explicit text, else the target's current title.

Auto-titles (SPEC §5.3) are computed from the compiled documents at render
time, so a renamed note shows its new title in every page that links to it
without explicit text on the next build.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..codecs.inline import WikiText
from ..codecs.model import LinkRef
from ..ids import SrcPath
from .documents import Document
from .resolve import Found, ResolvedLink

if TYPE_CHECKING:
    from .links import LinkResolver


def link_text(resolution: ResolvedLink, docs: Mapping[SrcPath, Document]) -> str:
    """What ``resolution`` renders as."""
    link = resolution.link
    if link.display:
        return link.display
    if resolution.status == "ok" and resolution.target is not None:
        if resolution.is_asset:
            return posixpath.basename(resolution.target)
        target = docs[resolution.target]
        anchor = resolution.anchor
        if anchor and not anchor.startswith("^") and anchor in target.by_anchor:
            return target.by_anchor[anchor].text
        return target.title
    return unresolved_text(link)


def unresolved_text(link: LinkRef) -> str:
    if link.target:
        return link.target
    return link.fragment.lstrip("^")


def auto_title(links: LinkResolver, doc: Document) -> WikiText:
    """A WikiText for headings of ``doc`` (their anchors include link titles)."""

    def text(target: str, fragment: str, display: str | None) -> str:
        if display:
            return display
        found = links.resolver.find(target, doc) if target else Found(doc.path, 0)
        if isinstance(found, Found) and found.path in links.published.docs:
            target_doc = links.published.docs[found.path]
            anchor, _missing = links.fragment(target_doc, fragment)
            if anchor and anchor in target_doc.by_anchor:
                return target_doc.by_anchor[anchor].text
            return target_doc.title
        return target or fragment

    return text

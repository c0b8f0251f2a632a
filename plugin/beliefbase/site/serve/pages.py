"""What a ``--dirty`` rebuild must know of the pages MkDocs will not render.

* ``shown``: a generated page's digest of what it shows, so that
  ``Invalidation.keep_unchanged`` can have MkDocs skip it (MkDocs takes every
  page made in memory for modified);
* ``navigation_signature``: the navigation Material prints into every page, so
  that ``Invalidation.follow_navigation`` renders them all when it changed;
* ``title_unread_pages``: MkDocs reads only the pages it renders, and a page not
  read has no title (nor the meta its navigation item shows: its icon and
  status), which every other page's navigation prints.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from mkdocs.structure.files import Files
from mkdocs.utils.meta import get_data

from ..generated_page import GeneratedPage

if TYPE_CHECKING:
    from ..session import SiteBuild


def shown(site: SiteBuild, src: str, page_url: str) -> str:
    """What the generated page ``src`` shows, as a digest: a ``--dirty`` rebuild
    renders it again only when this changed (or its output is gone).

    A page of ours: its URL, meta and what its HTML is made of (the templates'
    inputs, ``Templates.recording``: a fraction of the HTML's cost).  A document's
    own page (a TOML node's): the document's digest; the pages showing other
    documents are the dependents' (``Invalidation.invalidate`` removes their
    outputs).
    """
    doc = site.by_page.get(src)
    if doc is not None:
        return doc.parsed.digest
    with site.templates.recording():
        made_of = site.generated_content(src, page_url) or ""
    digest = hashlib.blake2b(made_of.encode("utf-8"), digest_size=16)
    digest.update(json.dumps([page_url, site.generated_meta(src)], default=str).encode())
    return digest.hexdigest()


def navigation_signature(site: SiteBuild, nav: Any) -> str:
    """The navigation as the theme prints it into every page: sections, pages'
    URLs, titles, icons and statuses (``SiteBuild.nav_meta``)."""

    def walk(items: Any) -> list[Any]:
        out: list[Any] = []
        for item in items:
            if item.is_page:
                src = item.file.src_uri
                out.append(("page", src, item.url, site.page_title(src), site.nav_meta(src)))
            elif item.is_section:
                out.append(("section", item.title, walk(item.children)))
            else:
                out.append(("link", item.title, item.url))
        return out

    return json.dumps(walk(nav.items), default=str)


def title_unread_pages(site: SiteBuild, files: Files) -> None:
    """Give each page MkDocs will not read its title and what its navigation item
    shows of its meta: Material's navigation (and previous/next links) on every
    rendered page printed "None" for every other, and no page's status."""
    for file in files.documentation_pages():
        page = file.page
        if page is None or file.is_modified():
            continue
        title = site.page_title(file.src_uri)
        if title is None and isinstance(file, GeneratedPage):
            title = get_data(file.content_string)[1].get("title")  # its frontmatter's
        if title is not None:
            page.title = str(title)
        shown = site.nav_meta(file.src_uri)
        if shown:
            page.meta = {**(page.meta or {}), **shown}

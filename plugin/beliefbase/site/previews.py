"""``previews.json``: what a hover preview shows for each published page.

One small file for the whole site, fetched once by ``beliefbase.js`` the
first time a reader hovers (or focuses) an internal link::

    {"version": 1,
     "pages": {"<BID>": {"title": "...", "url": "notes/alpha/", "excerpt": "...",
                         "code": [[start, end], ...]}}}

``url`` is site-relative (as in ``graph.json``); ``excerpt`` is the first
paragraph of prose as the page shows it, as plain text (made by the one snippet
maker, ``codecs/snippet.py``: headings, code blocks, tables, HTML blocks and
embeds skipped; wikilinks shown with their live titles, code spans as their
text, formulas as their TeX), cut at a word boundary.  Drafts are not in the
file.  Every value is text: the script puts it into the page with
``textContent`` only; ``code`` (only when there is some) gives the ranges of
``excerpt`` shown as ``<code>`` (code spans, and formulas as their TeX).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..builder.documents import Document
from ..codecs.inline import WikiText
from ..codecs.snippet import (
    EXCERPT_MAX,
    SOURCE_MAX,
    code_ranges,
    excerpt,
    excerpt_marked,
    first_paragraph,
    first_sentence,
)
from ..compile.compiled import Compiled
from .escape import json_for_html

__all__ = ["EXCERPT_MAX", "PREVIEWS_JSON", "SOURCE_MAX", "excerpt", "excerpt_key",
           "first_paragraph", "first_sentence", "previews_data"]

PREVIEWS_JSON = "previews.json"
PREVIEWS_VERSION = 1


def previews_text(data: dict[str, Any]) -> str:
    return json_for_html(data, sort_keys=True, separators=(",", ":"))


def previews_data(
    compiled: Compiled,
    paragraph_of: Callable[[Document], str],
    wikitext_of: Callable[[Document], WikiText],
    excerpts: dict[Any, str] | None = None,
) -> dict[str, Any]:
    """What ``previews.json`` holds: ``{"version", "pages": {bid: {title, url, excerpt}}}``.

    ``excerpts`` (kept across ``mkdocs serve`` rebuilds) maps a note's content
    hash and the titles its links show to its excerpt, so a rebuild only
    renders the excerpts of notes whose text or link titles changed.
    """
    cache = excerpts if excerpts is not None else {}
    used: dict[Any, str] = {}
    pages: dict[str, dict[str, Any]] = {}
    for doc in compiled.published.values():
        if doc.url is None:
            continue
        key = excerpt_key(compiled, doc)
        text = cache.get(key)
        if text is None:
            paragraph = paragraph_of(doc) if doc.kind == "markdown" else ""
            text = excerpt_marked(paragraph, wikitext_of(doc)) if paragraph else ""
        used[key] = text
        shown, code = code_ranges(text)
        page: dict[str, Any] = {"title": doc.title, "url": doc.url, "excerpt": shown}
        if code:
            page["code"] = [list(run) for run in code]
        pages[doc.bid] = page
    if excerpts is not None:
        excerpts.clear()
        excerpts.update(used)
    return {"version": PREVIEWS_VERSION, "pages": pages}


def excerpt_key(compiled: Compiled, doc: Document) -> tuple[str, tuple[str, ...]]:
    """What ``doc``'s excerpt is made of: its content hash and the titles of the notes
    it links to (its excerpt may show them)."""
    docs = compiled.documents
    titles = tuple(docs[resolution.target].title if resolution.target in docs else ""
                   for resolution in compiled.links.get(doc.path, ())
                   if resolution.status == "ok")
    return doc.parsed.digest, titles

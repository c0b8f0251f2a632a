"""``previews.json``: what a hover preview shows for each published page.

One small file for the whole site, fetched once by ``beliefbase.js`` the
first time a reader hovers (or focuses) an internal link::

    {"version": 1,
     "pages": {"<BID>": {"title": "...", "url": "notes/alpha/", "excerpt": "..."}}}

``url`` is site-relative (as in ``graph.json``); ``excerpt`` is the first
paragraph of prose as plain text (headings, code, tables, HTML blocks and
embeds skipped; wikilinks shown with their live titles), cut at a word
boundary.  Drafts are not in the file.  Every value is text: the script puts
it into the page with ``textContent`` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..builder.documents import Document
from ..codecs.entity_syntax import render_text
from ..codecs.grammar import BLOCK_ID_AT_END as _BLOCK_ID  # a `` ^id`` ending a line
from ..codecs.inline import WikiText, plain_text
from ..codecs.inline_fields import fields_as_text
from ..codecs.mask import mask
from ..compile.compiled import Compiled
from .escape import json_for_html

PREVIEWS_JSON = "previews.json"
PREVIEWS_VERSION = 1
#: Longest excerpt, in characters (the popover shows about five lines).
EXCERPT_MAX = 240
#: Source characters of a paragraph read for its excerpt (markup included).
SOURCE_MAX = 10 * EXCERPT_MAX

_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
# Blocks that are not prose: tables, HTML, admonitions/details/tabs, rules,
# footnote definitions, Obsidian callouts, and lines that only embed something.
_NOT_PROSE = re.compile(
    r"""
    ^\s*(?:
        \|                              # table row
      | <                               # HTML block
      | (?:!!!|\?\?\?|===|:::)          # admonition, details, tab, fenced div
      | (?:[-*_][ \t]*){3,}$            # horizontal rule
      | \[\^[^\]]+\]:                   # footnote definition
      | >[ \t]*\[!                      # callout
      | !\[\[[^\]]*\]\]\s*$             # a lone embed
      | !\[[^\]]*\]\([^)]*\)\s*$        # a lone image
      | [A-Za-z_][\w-]*::               # an inline field line
    )
    """,
    re.VERBOSE,
)
# list markers and quote markers at the start of a line
_LINE_MARKUP = re.compile(r"^[ \t]*(?:[-*+][ \t]+|\d{1,9}[.)][ \t]+|>[ \t]?)+", re.MULTILINE)


def first_paragraph(body: str) -> str:
    """The Markdown of the first prose paragraph of a note body ("" if it has none)."""
    masked = mask(body)
    pos = 0
    for gap in [*_BLANK_LINES.finditer(masked), None]:
        end = gap.start() if gap else len(masked)
        block = _prose_lines(body[pos:end], masked[pos:end])
        pos = gap.end() if gap else end
        if block and not _NOT_PROSE.match(block):
            return block
    return ""


def _prose_lines(block: str, masked: str) -> str:
    """The block without heading lines and code (masked away)."""
    lines = block.split("\n")
    shown = masked.split("\n")
    keep: list[str] = []
    for k, line in enumerate(lines):
        if not shown[k].strip() or _ATX.match(shown[k]):
            continue
        if k + 1 < len(lines) and _SETEXT_UNDERLINE.match(shown[k + 1]) and shown[k].strip():
            continue
        if _SETEXT_UNDERLINE.match(shown[k]) and k > 0 and not keep:
            continue
        keep.append(line)
    return "\n".join(keep).strip()


# The end of a sentence: ".", "!" or "?" (closing quotes and brackets with it)
# before white space and anything but a lower-case letter ("e.g. this" goes on),
# or a CJK full stop.
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s+(?![a-z]))|[。！？]")


def first_sentence(text: str) -> str:
    """The first sentence of a plain-text excerpt (all of it if it has one only)."""
    m = _SENTENCE_END.search(text)
    return text[: m.end()].strip() if m else text


def excerpt(paragraph: str, wikitext: WikiText) -> str:
    """Plain text of a paragraph, at most ``EXCERPT_MAX`` characters (cut at a word).

    Only the paragraph's first ``SOURCE_MAX`` characters are read: the excerpt
    needs a few hundred, and a pathological paragraph (thousands of unclosed
    ``*`` or backticks on one line) would make the inline patterns quadratic.
    """
    if len(paragraph) > SOURCE_MAX:
        cut = paragraph.rfind(" ", 0, SOURCE_MAX)
        paragraph = paragraph[: cut if cut > SOURCE_MAX // 2 else SOURCE_MAX]
    text = _BLOCK_ID.sub("", _LINE_MARKUP.sub("", paragraph))
    text = fields_as_text(text)  # [key:: value] as "key: value", as reading view shows it
    text = plain_text(render_text(text), wikitext)  # entity tags: their names (SPEC §7)
    if len(text) <= EXCERPT_MAX:
        return text
    cut = text.rfind(" ", 0, EXCERPT_MAX)
    return text[: cut if cut > EXCERPT_MAX // 2 else EXCERPT_MAX].rstrip(" ,;:.-") + "…"


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
            text = excerpt(paragraph, wikitext_of(doc)) if paragraph else ""
        used[key] = text
        pages[doc.bid] = {"title": doc.title, "url": doc.url, "excerpt": text}
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

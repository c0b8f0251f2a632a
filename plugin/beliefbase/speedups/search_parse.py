"""Material's parse of pages for its search index: the search offload's worker.

``search_offload.py`` starts a fresh interpreter that runs this file by its path,
not as ``beliefbase.speedups.search_parse``: importing the package would import
every speed-up and what they import (53 of our modules, 0.05 s of the worker's
start at every build) for a loop that needs only ``pickle`` and Material's
``Parser``.  So nothing here imports beliefbase.

Material's ``Parser`` is an ``html.parser.HTMLParser``, whose tokenizer (a dozen
regular expressions and a position tracker per tag, in Python) took more of the
parse than Material's own handlers.  A page is a few kinds of token: text, a
start tag with double-quoted attributes, an end tag.  ``_fed`` reads those with
one regular expression and calls the parser's handlers exactly as
``HTMLParser.goahead`` would (text up to the next ``<`` unescaped in one call,
names lower-cased, attribute values unescaped, ``/>`` through
``handle_startendtag``); at the first token it does not know (a comment, a
declaration, a stray ``<``, an unquoted or single-quoted attribute, an element
whose content HTMLParser reads raw, such as ``script``) the page is parsed again
by ``HTMLParser`` itself.  ``tests/speedups/test_search_parse.py`` compares the
handler calls of both on generated and real pages.
"""

from __future__ import annotations

import pickle
import re
import sys
from html import unescape
from typing import Any

#: one token HTMLParser reads the same way in every Python version: text up to a
#: ``<``; a start tag, its attributes (name or name="value", ASCII spaces between)
#: and its end (``>`` or ``/>``); an end tag without spaces.  Anything else does not
#: match (``_fed`` gives up).
_TOKEN = re.compile(
    r'([^<]+)'
    r'|<([a-zA-Z][-.a-zA-Z0-9:_]*)'
    r'((?:[ \t\n\r\f]+[a-zA-Z_:][-.a-zA-Z0-9:_]*(?:="[^"<>]*")?)*)[ \t\n\r\f]*(/?)>'
    r'|</([a-zA-Z][-.a-zA-Z0-9:_]*)>')
_ATTRIBUTE = re.compile(r'[ \t\n\r\f]+([a-zA-Z_:][-.a-zA-Z0-9:_]*)(?:="([^"<>]*)")?')

#: elements whose content HTMLParser reads as raw text (``script``, ``style``) or, in
#: newer Pythons, escapable raw text: a page with one is parsed by HTMLParser
_RAW = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                  "noframes", "noscript", "plaintext"})

#: (tag, attributes, depth, id, title parts, text parts) of one kept section
Section = tuple[str, dict[str, Any], int, Any, list[str], list[str]]


def parse_pages(pages: list[str]) -> list[list[Section]]:
    """Material's parse of each page, as plain tuples (cheap to send)."""
    return [[(s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text)
             for s in _parse(html) if not s.is_excluded()] for html in pages]


def _parse(html: str) -> list[Any]:
    from material.plugins.search.plugin import Parser

    parser = Parser()
    if not _fed(parser, html):  # (what it fed is thrown away with its parser)
        parser = Parser()
        parser.feed(html)
    parser.close()
    return list(parser.data)


def _fed(parser: Any, html: str) -> bool:
    """Call ``parser``'s handlers for ``html`` as ``HTMLParser.feed`` would; False at
    the first token this does not read (the parser is then half fed)."""
    attributes = _ATTRIBUTE.finditer
    data, start, empty, end = (parser.handle_data, parser.handle_starttag,
                               parser.handle_startendtag, parser.handle_endtag)
    at = 0
    for token in _TOKEN.finditer(html):
        if token.start() != at:
            return False  # something between two tokens that is none
        at = token.end()
        kind = token.lastindex
        if kind == 1:  # text
            text = token[1]
            data(unescape(text) if "&" in text else text)
        elif kind == 5:  # an end tag
            end(token[5].lower())
        else:  # a start tag (its last group, the slash, always takes part)
            tag = token[2].lower()
            if tag in _RAW:
                return False
            attrs = token[3]
            found = [(a[1].lower(), unescape(a[2]) if a[2] else a[2])
                     for a in attributes(attrs)] if attrs else []
            (empty if token[4] else start)(tag, found)
    return at == len(html)


def serve() -> None:
    """The worker: (key, pages) batches in on stdin, (key, sections) out, until the end.

    Answers go through a buffered writer of its own: with ``PYTHONUNBUFFERED`` set
    (common in containers) ``sys.stdout.buffer`` is the raw file, whose ``write``
    may write part of an answer when a signal interrupts it (a stop and continue,
    a profiler attaching) and ``pickle.dump`` drops the rest; the build read a
    garbled stream.  A buffered writer writes what is left."""
    source = sys.stdin.buffer
    sink = open(sys.stdout.fileno(), "wb", closefd=False)  # noqa: SIM115 - for the worker's life
    while True:
        try:
            key, pages = pickle.load(source)  # noqa: S301 - from the process that started us
        except EOFError:
            return
        pickle.dump((key, parse_pages(pages)), sink, pickle.HIGHEST_PROTOCOL)
        sink.flush()

"""Material's parse of pages for its search index: the search offload's worker.

``search_offload.py`` starts a fresh interpreter that runs this file by its path,
not as ``beliefbase.speedups.search_parse``: importing the package would import
every speed-up and what they import (53 of our modules, 0.05 s of the worker's
start at every build) for a loop that needs only ``pickle`` and an HTML parser.
So nothing here imports beliefbase, nor Material (``_parser_class``).

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

import functools
import json
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
    parser_class = _parser_class()
    parser = parser_class()
    if not _fed(parser, html):  # (what it fed is thrown away with its parser)
        parser = parser_class()
        parser.feed(html)
    parser.close()
    return list(parser.data)


#: Material's void tags and the tags its ``Parser`` keeps in a section's text, as the
#: worker was told them (``serve``'s argument); None in the build, which asks Material
_told: tuple[frozenset[str], frozenset[str]] | None = None


def material_tags() -> tuple[frozenset[str], frozenset[str]]:
    """Material's void tags and the tags its ``Parser`` keeps (the installed version's)."""
    if _told is not None:
        return _told
    from material.plugins.search.plugin import Parser, void

    return frozenset(void), frozenset(Parser().keep)


def told() -> str:
    """``material_tags`` for the worker's command line (it imports no Material)."""
    return json.dumps([sorted(tags) for tags in material_tags()])


class ParsedElement:
    """What Material's ``Element`` holds: a tag and its attributes."""

    __slots__ = ("attrs", "tag")

    def __init__(self, tag: str, attrs: dict[str, Any] | None = None) -> None:
        self.tag = tag
        self.attrs = attrs or {}

    def is_excluded(self) -> bool:
        return "data-search-exclude" in self.attrs


class ParsedSection:
    """What Material's ``Section`` holds: its heading element, depth, id, title and text."""

    __slots__ = ("depth", "el", "id", "text", "title")

    def __init__(self, el: ParsedElement, depth: float = 0) -> None:
        self.el = el
        self.depth = depth
        self.text: list[str] = []
        self.title: list[str] = []
        self.id: Any = None

    def is_excluded(self) -> bool:
        return self.el.is_excluded()


@functools.cache
def _parser_class() -> type:
    """``QuickParser``: Material's ``Parser`` with its three handlers written again to
    do the same with fewer Python calls, and without importing Material.

    Material compares elements by tag name (``Element.__eq__``, ``__hash__``), so its
    skip set and every test of the context (``skip.intersection(context)``, ``"pre" in
    context``, ``section.el in context``, ``context[-1] != tag``) calls Python methods
    for each open element, at every tag and text.  Here the open elements' tags are
    kept beside them (``tags``) and the skip set is a set of tag names: the same
    answers (an element is in Material's skip set exactly when its tag is), in C.
    Its elements and sections are ``ParsedElement`` and ``ParsedSection`` above, and the two sets
    of tag names it reads from Material come from the build (``material_tags``):
    importing Material's search plugin imports MkDocs, about 300 modules and 12 MB of
    the worker's memory.  The sections made, and the errors raised, are Material's
    (``tests/speedups/test_search_parse.py`` compares them on generated pages).
    """
    from html import escape
    from html.parser import HTMLParser

    void, keep = material_tags()
    headings = frozenset(f"h{x}" for x in range(1, 7))
    kept_open = ("script", "style", "object")  # never leave the skip set

    class QuickParser(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.skip = {"object", "script", "style"}  # tag names
            self.keep = keep
            self.context: list[ParsedElement] = []
            self.section: Any = None  # (a ParsedSection once the first is made)
            self.data: list[ParsedSection] = []
            self.tags: list[str] = []  # the context's tags

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            attrs_ = dict(attrs)
            if tag in void:
                return
            el = ParsedElement(tag, attrs_)
            self.context.append(el)
            self.tags.append(tag)
            if tag in headings:
                depth = len(self.context)
                if "id" in attrs_:
                    if tag != "h1" and not self.data:
                        self.section = ParsedSection(ParsedElement("hx"), depth)
                        self.data.append(self.section)
                    self.section = ParsedSection(el, depth)
                    if self.data:
                        self.section.id = attrs_["id"]
                    self.data.append(self.section)
            if not self.section:
                self.section = ParsedSection(ParsedElement("hx"))
                self.data.append(self.section)
            for key, value in attrs_.items():
                if key == "data-search-exclude" or (key == "class" and value == "linenodiv"):
                    self.skip.add(tag)
                    return
            if tag in self.keep and self.skip.isdisjoint(self.tags):
                section = self.section
                (section.title if section.el.tag in self.tags else section.text).append(
                    f"<{tag}>")

        def handle_endtag(self, tag: str) -> None:
            tags = self.tags
            if not tags or tags[-1] != tag:
                return
            depth = len(tags)
            if self.section.depth > depth:
                for section in reversed(self.data):
                    if section.depth <= depth:
                        self.section.depth = float("inf")
                        self.section = section
                        break
            self.context.pop()
            tags.pop()
            if tag in self.skip:
                if tag not in kept_open:
                    self.skip.remove(tag)
                return
            if tag in self.keep and self.skip.isdisjoint(tags):
                section = self.section
                data = section.title if section.el.tag in tags else section.text
                index = data.index(f"<{tag}>")
                for i in range(index + 1, len(data)):
                    if not data[i].isspace():
                        index = len(data)
                        break
                if len(data) > index:
                    del data[index:]
                else:
                    data.append(f"</{tag}>")

        def handle_data(self, data: str) -> None:
            tags = self.tags
            if not self.skip.isdisjoint(tags):
                return
            if "pre" not in tags:
                data = " " if data.isspace() else data.replace("\n", " ")
            if not self.section:
                self.section = ParsedSection(ParsedElement("hx"))
                self.data.append(self.section)
            section = self.section
            if section.el.tag in tags:
                if not ("a" in tags and any(el.tag == "a" and el.attrs.get("class") == "headerlink"
                                            for el in self.context)):
                    section.title.append(escape(data, quote=False))
            elif data.isspace():
                text = section.text
                if not text or not text[-1].isspace() or "pre" in tags:
                    text.append(data)
            else:
                section.text.append(escape(data, quote=False))

    return QuickParser


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


def serve(tags: str | None = None) -> None:
    """The worker: (key, pages) batches in on stdin, (key, sections) out, until the end.
    ``tags``: ``told()`` in the build (Material's void and kept tags).

    Answers go through a buffered writer of its own: with ``PYTHONUNBUFFERED`` set
    (common in containers) ``sys.stdout.buffer`` is the raw file, whose ``write``
    may write part of an answer when a signal interrupts it (a stop and continue,
    a profiler attaching) and ``pickle.dump`` drops the rest; the build read a
    garbled stream.  A buffered writer writes what is left."""
    global _told
    if tags is not None:
        void, keep = json.loads(tags)
        _told = frozenset(void), frozenset(keep)
    source = sys.stdin.buffer
    sink = open(sys.stdout.fileno(), "wb", closefd=False)  # noqa: SIM115 - for the worker's life
    while True:
        try:
            key, pages = pickle.load(source)  # noqa: S301 - from the process that started us
        except EOFError:
            return
        pickle.dump((key, parse_pages(pages)), sink, pickle.HIGHEST_PROTOCOL)
        sink.flush()

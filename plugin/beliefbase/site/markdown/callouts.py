"""Callouts: Obsidian's ``> [!type] Title`` and our ``::: disputed`` blocks.

Both render with MkDocs-Material's admonition markup, so the theme styles
them (light and dark) without CSS of ours, except the "Disputed" look:

* ``> [!note] Title`` → ``<div class="admonition note" data-callout="note">``
  with ``<p class="admonition-title">Title</p>`` and the quoted content;
* ``> [!warning|clean no-icon] Title``: the words after the ``|`` (Obsidian's
  metadata, which CSS snippets select on) become classes of the callout and its
  ``data-callout-metadata``;
* ``> [!tip]-`` (collapsed) / ``> [!tip]+`` (open) →
  ``<details class="tip" data-callout="tip"><summary>Tip</summary>…</details>``;
* ``::: disputed Optional title`` … ``:::`` →
  ``<div class="admonition bb-disputed" data-callout="disputed">``.

Obsidian's type names and aliases map onto Material's twelve types
(``_TYPES``); an unknown type renders as a note but keeps its name in
``data-callout`` so a site can style it.  The title and the content are
ordinary Markdown (nested callouts, lists, code, wikilinks all work).  A
blockquote whose first line is not ``[!type]`` stays a plain blockquote.

Block processors (priority, and why):

* ``bb_disputed`` (22): before the blockquote (20) and paragraph (10)
  processors so a ``::: disputed`` line is never swallowed into a paragraph;
  after indented code (80), so an indented example stays code.
* ``bb_callout`` (21): just before ``quote`` (20), which would otherwise turn
  the callout into a plain blockquote; after lists (30, 40) and indented code
  (80), so ``> [!note]`` inside those is handled when their content is parsed.

Fenced code is stashed by a preprocessor before either runs, so ``:::`` or
``> [!x]`` inside a code fence is never a callout; ``nested_fences`` does the
same for a fence inside a callout, quote or list item when superfences is off.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as etree

from markdown import Extension, Markdown, util
from markdown.blockparser import BlockParser
from markdown.blockprocessors import BlockProcessor

from ...codecs.grammar import CALLOUT_HEAD_BODY, QUOTE_MARK, QUOTE_MARKER
from .nested_fences import NestedFences

#: Obsidian callout types (and aliases) -> the MkDocs-Material admonition type.
_TYPES: dict[str, str] = {
    "note": "note",
    "abstract": "abstract", "summary": "abstract", "tldr": "abstract",
    "info": "info", "todo": "info",
    "tip": "tip", "hint": "tip", "important": "tip",
    "success": "success", "check": "success", "done": "success",
    "question": "question", "help": "question", "faq": "question",
    "warning": "warning", "caution": "warning", "attention": "warning",
    "failure": "failure", "fail": "failure", "missing": "failure",
    "danger": "danger", "error": "danger",
    "bug": "bug",
    "example": "example",
    "quote": "quote", "cite": "quote",
}

# A callout's first line: a blockquote line (up to 3 spaces of indent), then the header
# of codecs.grammar ([!type|metadata]± Title).
_CALLOUT_HEAD = re.compile(r"(?:^|\n)" + QUOTE_MARKER + CALLOUT_HEAD_BODY)
# A word of a callout's metadata that may be a CSS class.
_CLASS_WORD = re.compile(r"-?[A-Za-z_][\w-]*")
_DISPUTED_HEAD = re.compile(
    r"""(?:^|\n)[ ]{0,3}:{3}[ \t]*disputed  # "::: disputed" at the start of a line
        (?![\w-])                          # the whole word
        [ \t]*(?P<title>[^\n]*)            # an optional title
    """,
    re.VERBOSE | re.IGNORECASE,
)
_FENCE_OPEN = re.compile(r"^[ ]{0,3}:{3}[ \t]*\S")  # "::: name": opens a nested block
_FENCE_CLOSE = re.compile(r"^[ ]{0,3}:{3}[ \t]*$")  # a bare ":::" closes one


def callout_type(name: str) -> str:
    """The Material admonition type for an Obsidian callout type (unknown -> note)."""
    return _TYPES.get(name.lower(), "note")


def _box(parent: etree.Element, kind: str, name: str, fold: str, title: str,
         meta: str = "") -> etree.Element:
    """The callout element with its title; content goes inside it.  ``meta``: what
    follows a ``|`` in the header (``[!warning|clean no-icon]``), kept as Obsidian keeps
    it (``data-callout-metadata``, which CSS snippets select on) and as classes."""
    words = [w for w in meta.split() if _CLASS_WORD.fullmatch(w)]
    extra = "".join(" " + w for w in dict.fromkeys(words))
    if fold:
        box = etree.SubElement(parent, "details", {"class": kind + extra,
                                                   "data-callout": name})
        if fold == "+":
            box.set("open", "open")
        heading = etree.SubElement(box, "summary")
    else:
        box = etree.SubElement(parent, "div", {"class": f"admonition {kind}{extra}",
                                               "data-callout": name})
        heading = etree.SubElement(box, "p", {"class": "admonition-title"})
    if meta.strip():
        box.set("data-callout-metadata", meta.strip())
    heading.text = title  # Markdown: inline patterns run on it later
    return box


def _callout_head(block: str) -> re.Match[str] | None:
    """The ``> [!type]`` line that starts a blockquote in ``block`` (not a later quote line)."""
    if "[!" not in block:  # every block of every page comes here: skip the regex's scan
        return None
    m = _CALLOUT_HEAD.search(block)
    if m is None or m.start() == 0:
        return m
    previous = block[: m.start()].rsplit("\n", 1)[-1]
    return None if QUOTE_MARK.match(previous) else m


def _parse_before(parser: BlockParser, parent: etree.Element, text: str) -> None:
    """Parse the lines before a callout (an empty block would pad a code block above)."""
    if text.strip():
        parser.parseBlocks(parent, [text])


class CalloutProcessor(BlockProcessor):
    """``> [!type]± Title`` + quoted lines -> an admonition (or ``<details>``)."""

    def test(self, parent: etree.Element, block: str) -> bool:
        return _callout_head(block) is not None and not util.nearing_recursion_limit()

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        block = blocks.pop(0)
        m = _callout_head(block)
        if m is None:  # test() said yes; keep the block if the world changed
            blocks.insert(0, block)
            return False
        _parse_before(self.parser, parent, block[: m.start()])
        name = m.group("type").lower()
        title = m.group("title").strip() or name.capitalize()
        box = _box(parent, callout_type(name), name, m.group("fold"), title,
                   m.group("meta") or "")
        # Every following line belongs to the quote: "> x" loses its marker, and a line
        # without one is a lazy continuation (as in Python-Markdown's blockquotes).
        body = "\n".join(self._clean(line) for line in block[m.end():].split("\n")[1:])
        self.parser.state.set("blockquote")  # lists inside use <p> like in blockquotes
        self.parser.parseChunk(box, body)
        self.parser.state.reset()
        return None

    @staticmethod
    def _clean(line: str) -> str:
        m = QUOTE_MARK.match(line)
        return line[m.end():] if m else line


class DisputedProcessor(BlockProcessor):
    """``::: disputed`` … ``:::`` -> a "Disputed" callout; the content may span blocks."""

    def __init__(self, parser: BlockParser, title: str) -> None:
        super().__init__(parser)
        self.title = title

    def test(self, parent: etree.Element, block: str) -> bool:
        return (":::" in block and bool(_DISPUTED_HEAD.search(block))
                and not util.nearing_recursion_limit())

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        block = blocks.pop(0)
        m = _DISPUTED_HEAD.search(block)
        if m is None:
            blocks.insert(0, block)
            return False
        _parse_before(self.parser, parent, block[: m.start()])
        first = block[m.end():].split("\n")[1:]
        body, rest = self._take_body(first, blocks)
        box = etree.SubElement(parent, "div", {"class": "admonition bb-disputed",
                                               "data-callout": "disputed"})
        heading = etree.SubElement(box, "p", {"class": "admonition-title"})
        heading.text = m.group("title").strip() or self.title
        self.parser.parseChunk(box, body)
        if rest.strip():
            blocks.insert(0, rest)
        return None

    @staticmethod
    def _take_body(first: list[str], blocks: list[str]) -> tuple[str, str]:
        """Lines up to the matching ``:::`` (nested ``::: x`` blocks counted), and the rest.

        Without a closing ``:::`` the block runs to the end of the document.
        """
        chunks: list[list[str]] = [first]
        depth = 1
        while True:
            lines = chunks[-1]
            for index, line in enumerate(lines):
                if _FENCE_CLOSE.match(line):
                    depth -= 1
                    if depth == 0:
                        body = [*chunks[:-1], lines[:index]]
                        text = "\n\n".join("\n".join(chunk) for chunk in body)
                        return text, "\n".join(lines[index + 1:])
                elif _FENCE_OPEN.match(line):
                    depth += 1
            if not blocks:
                return "\n\n".join("\n".join(chunk) for chunk in chunks), ""
            chunks.append(blocks.pop(0).split("\n"))


class CalloutExtension(Extension):
    """Obsidian callouts and ``::: disputed`` blocks as MkDocs-Material admonitions."""

    def __init__(self, **kwargs: object) -> None:
        self.config = {
            "disputed_title": ["Disputed", "Title of a '::: disputed' block without its own"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown API
        parser = md.parser
        title = str(self.getConfig("disputed_title"))
        parser.blockprocessors.register(DisputedProcessor(parser, title), "bb_disputed", 22)
        parser.blockprocessors.register(CalloutProcessor(parser), "bb_callout", 21)
        # a fence inside a callout is code, with or without pymdownx.superfences
        md.preprocessors.register(NestedFences(md), "bb_nested_fences", 26)


def makeExtension(**kwargs: object) -> CalloutExtension:  # noqa: N802 - Markdown's entry point
    return CalloutExtension(**kwargs)

"""Obsidian's Markdown where Python-Markdown reads it otherwise.

Added with the other Markdown defaults (``markdown_defaults``, see
``markdown_defaults.py``):

* ``bb_list_after_paragraph`` preprocessor (19: after fenced code at 25 and raw
  HTML blocks at 20 are stashed): a list straight after a paragraph line
  (``Intro:\\n- a``) starts a list in CommonMark and Obsidian; Python-Markdown
  needs a blank line there, so one is inserted (``>`` inside quotes and
  callouts).  Fences and ``$$`` math are tracked here too, since fences inside
  quotes and lists are not stashed yet.  As in CommonMark only ``-``, ``*``,
  ``+``, ``1.`` and ``1)`` followed by text interrupt a paragraph: "-5 degrees",
  "2024. was" and ``- - -`` rules do not.  Ordered items written ``1)`` (CommonMark,
  Obsidian) become ``1.``, the only form Python-Markdown makes a list of.  The
  compiler's positions come from the note's own text, and its codec also ends a
  paragraph at a list item.
* ``bb_nested_list_indents`` preprocessor (18, after the one above): nested
  items indented the CommonMark way (two spaces under ``- a``) are re-indented
  by four spaces a level, as Python-Markdown nests (``list_indents.py``).
* ``bb_task_statuses`` treeprocessor (19: after inline patterns at 20, so a
  status is plain text at the start of the item): Obsidian's custom task
  statuses ``- [/]``, ``- [-]``, ``- [>]`` … render like ``pymdownx.tasklist``'s
  items (which know only ``[ ]`` and ``[x]``), checked as in Obsidian, with
  ``data-task`` and a ``task-<name>`` class that ``beliefbase.css`` styles.
* ``bb_breaks_before_blocks`` postprocessor (5: after raw HTML and stashed
  blocks are restored at 30): ``nl2br`` turns the newline between a list item's
  first line and a code block or display formula under it into a ``<br />``
  that Obsidian does not show; it is dropped.
* ``mermaid_source``, the ``pymdownx.superfences`` formatter of ``mermaid``
  fences: no Mermaid renderer ships offline (Material loads one from a CDN for
  ``pre.mermaid``), so the diagram is shown as its source under a note.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as etree

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from ...codecs.grammar import (
    CALLOUT_HEAD,
    HEADING,
    INTERRUPTING_ITEM,
    LIST_MARKER,
    ORDERED_NUMBER,
    QUOTED,
    TASK_STATUS,
    THEMATIC_BREAK,
    fence_closes,
    fence_opens,
)
from .block_breaks import BlockBreaks, SeparateQuotes
from .list_indents import NestedListIndents

# An ordered item written "3)" (any indentation: nested items too): its number.
_PAREN_ITEM = re.compile(r"^([ \t]*" + ORDERED_NUMBER + r")\)(?=[ \t]+\S)")
# Any list item (inside a list, lines like these continue it).
_ANY_ITEM = re.compile(r"^[ ]{0,3}" + LIST_MARKER + r"(?:[ \t]|$)")
# A line that is a block of its own: a heading, a table row, a callout head.  (A line
# holding a stash placeholder, \x02...\x03, is a paragraph's: a formula or a code block
# the list may follow directly.)
_OWN_BLOCK = re.compile(HEADING.pattern + r"|^[ ]{0,3}\||" + CALLOUT_HEAD.pattern)


class ListAfterParagraph(Preprocessor):
    """Insert the blank line Python-Markdown needs before a list that follows a paragraph."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fence: str | None = None  # the fence while inside one
        math = False
        state = ""  # "text": a paragraph goes on; "list": a list does; "": anything else
        depth = -1  # quote depth of the previous line
        for line in lines:
            prefix, content = QUOTED.match(line).groups()  # type: ignore[union-attr]
            quote_depth = prefix.count(">")
            if fence is not None:
                if fence_closes(content, fence):
                    fence = None
                out.append(line)
                continue
            if math:
                math = content.count("$$") % 2 == 0
                out.append(line)
                continue
            if m := fence_opens(content):
                fence = m.group("fence")
                state = ""
            elif content.lstrip().startswith("$$") and content.count("$$") % 2 == 1:
                math = True
                state = ""
            elif not content.strip() or THEMATIC_BREAK.match(content):
                state = ""
            elif _ANY_ITEM.match(content) or (state == "list" and _PAREN_ITEM.match(content)):
                if state != "text":
                    state = "list"
                elif INTERRUPTING_ITEM.match(content):  # else "2. x" goes on the paragraph
                    if quote_depth == depth:
                        out.append(prefix.rstrip())
                    state = "list"
                if state == "list" and _PAREN_ITEM.match(content):
                    line = prefix + _PAREN_ITEM.sub(r"\1.", content, count=1)
            elif _OWN_BLOCK.match(content):
                state = ""
            elif state == "" and not content.startswith(("    ", "\t")):
                state = "text"
            depth = quote_depth
            out.append(line)
        return out


# Obsidian's custom task statuses as themes (Minimal, Things) and plugins (Tasks) name
# them; any other character is a task too ("task-other").
STATUS_NAMES = {
    "/": "in-progress", "-": "cancelled", ">": "forwarded", "<": "scheduled",
    "?": "question", "!": "important", "*": "star", '"': "quote", "l": "location",
    "b": "bookmark", "i": "information", "S": "savings", "I": "idea", "p": "pro",
    "c": "con", "f": "fire", "k": "key", "w": "win", "u": "up", "d": "down",
}
# "[c] " at the start of a list item: one character that is not x, X, a space (those
# are pymdownx.tasklist's) or a bracket.
_STATUS = re.compile(r"^ *\[(?P<state>(?![ xX])" + TASK_STATUS + r")\] +")


class TaskStatuses(Treeprocessor):
    """``- [/] text`` and the other custom statuses -> task list items."""

    def run(self, root: etree.Element) -> None:
        lists: list[etree.Element] = []
        for parent in root.iter():
            if parent.tag not in ("ul", "ol"):
                continue
            for li in parent:
                if li.tag == "li" and self._task(li) and parent not in lists:
                    lists.append(parent)
        for parent in lists:
            _add_class(parent, "task-list")

    @staticmethod
    def _task(li: etree.Element) -> bool:
        holder = li
        if not (li.text or "").strip() and len(li) and li[0].tag == "p":
            holder = li[0]  # a loose list: the text is in the item's first paragraph
        m = _STATUS.match(holder.text or "")
        if m is None:
            return False
        state = m.group("state")
        name = STATUS_NAMES.get(state, "other")
        label = etree.Element("label", {"class": "task-list-control"})
        # Obsidian shows every status but a space as checked; disabled as in tasklist
        etree.SubElement(label, "input", {"type": "checkbox", "disabled": "disabled",
                                          "checked": "checked"})
        indicator = etree.SubElement(label, "span", {"class": "task-list-indicator",
                                                     "data-task": state})
        indicator.text = ""
        label.tail = " " + (holder.text or "")[m.end():]
        holder.text = None
        holder.insert(0, label)
        _add_class(li, f"task-list-item task-{name}")
        li.set("data-task", state)
        return True


def _add_class(element: etree.Element, names: str) -> None:
    classes = element.get("class", "").split()
    classes += [n for n in names.split() if n not in classes]
    element.set("class", " ".join(classes))


def mermaid_source(source: str, language: str, class_name: str, options: dict[str, Any],
                   md: Markdown, **kwargs: Any) -> str:
    """A ``mermaid`` fence as readable source (``pymdownx.superfences`` formatter)."""
    box = etree.Element("div", {"class": "bb-mermaid"})
    note = etree.SubElement(box, "p", {"class": "bb-mermaid-note"})
    note.text = "Mermaid diagram (shown as source: no offline renderer)"
    pre = etree.SubElement(box, "pre")
    code = etree.SubElement(pre, "code", {"class": "language-mermaid"})
    code.text = source  # escaped by the serializer
    return etree.tostring(box, encoding="unicode", method="html")


# A line break right before a block (a code block, a display formula, a table under
# a list item's first line): nl2br makes one of the newline there; Obsidian shows none.
_BREAK_BEFORE_BLOCK = re.compile(
    r"<br />\s*(?=<(?:div|pre|table|ul|ol|blockquote|p|span class=\"bb-math-block\")[ >])")


class BreaksBeforeBlocks(Postprocessor):
    """Drop the ``<br />`` that ``nl2br`` puts before a block inside a list item or quote."""

    def run(self, text: str) -> str:
        return _BREAK_BEFORE_BLOCK.sub("", text) if "<br />" in text else text


class ObsidianMarkdownExtension(Extension):
    """Lists after paragraphs and custom task statuses, as Obsidian reads them."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.preprocessors.register(BlockBreaks(md), "bb_block_breaks", 27)
        md.parser.blockprocessors.register(SeparateQuotes(md.parser), "quote", 20)
        md.preprocessors.register(ListAfterParagraph(md), "bb_list_after_paragraph", 19)
        md.preprocessors.register(NestedListIndents(md), "bb_nested_list_indents", 18)
        md.treeprocessors.register(TaskStatuses(md), "bb_task_statuses", 19)
        # after raw HTML (30) and stashed blocks are back in the text
        md.postprocessors.register(BreaksBeforeBlocks(md), "bb_breaks_before_blocks", 5)

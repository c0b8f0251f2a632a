"""Nested lists indented the CommonMark way, re-indented the way Python-Markdown reads them.

In Obsidian (and CommonMark) an item is nested under the item above when it is
indented at least to that item's text: two spaces under ``- a``, three under
``1. a``.  Python-Markdown nests only by four spaces (a tab), so a vault
written with two-space indents (VS Code, Foam, many gardens) came out as one
flat list.  ``NestedListIndents`` (a preprocessor, registered with the other
Obsidian rules in ``obsidian_markdown.py``) rewrites the indentation of every
list to four spaces a level, keeping each line's place in its item: a
continuation line, a nested paragraph or a fenced block moves with the item
it belongs to, and the lines of a fence keep their indentation relative to the
fence.  A list already indented by four spaces or tabs comes out unchanged.

Runs on what Python-Markdown's earlier preprocessors left: tabs are spaces,
top-level fences, HTML blocks and math are placeholders by then; fences inside
lists are not, so they are followed here.  Lists inside quotes and callouts
are re-indented too (after their ``>`` markers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown.preprocessors import Preprocessor

from ...codecs.grammar import LIST_ITEM as _ITEM
from ...codecs.grammar import QUOTED as _QUOTED
from ...codecs.grammar import fence_closes, fence_opens

# A thematic break ("- - -", "***"), at any indentation: not a list item.
_RULE = re.compile(r"^[ ]*([-*_])(?:[ ]*\1){2,}[ ]*$")
#: Python-Markdown's indentation of one list level.
LEVEL = 4


@dataclass(slots=True)
class _Item:
    marker: int  # the column of its marker in the source
    content: int  # the column where the item's text starts in the source
    depth: int  # how many items it is nested in


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class NestedListIndents(Preprocessor):
    """Re-indent nested lists to four spaces a level (see the module doc)."""

    def run(self, lines: list[str]) -> list[str]:
        if not any(_ITEM.match(_QUOTED.match(line).group(2)) for line in lines):  # type: ignore[union-attr]
            return lines
        out: list[str] = []
        stack: list[_Item] = []  # the open items, outermost first
        fence: tuple[str, int] | None = None  # (fence, shift) while inside one
        blank = False  # the line before was blank
        quote = ""  # the quote markers of the lines being read ("> " in a callout)
        for line in lines:
            prefix, text = _QUOTED.match(line).groups()  # type: ignore[union-attr]
            if prefix.replace(" ", "") != quote.replace(" ", ""):
                stack, fence, blank = [], None, False  # another quote: another list
                quote = prefix
            if fence is not None:
                out.append(prefix + _shift(text, fence[1]))
                if fence_closes(text, fence[0]):
                    fence = None
                continue
            if not text.strip():
                out.append(line)
                blank = True
                continue
            out.append(prefix + self._line(text, stack, blank))
            blank = False
            if stack and (m := fence_opens(out[-1][len(prefix):])):
                fence = (m.group("fence"), _indent(out[-1][len(prefix):]) - _indent(text))
        return out

    @staticmethod
    def _line(text: str, stack: list[_Item], blank: bool) -> str:
        """``text`` re-indented for its place in the list ``stack`` (updated)."""
        indent = _indent(text)
        item = _ITEM.match(text) if not _RULE.match(text) else None
        if item is not None and (stack or indent < LEVEL):
            while stack and indent < stack[-1].content:
                stack.pop()
            gap = item.group("gap")
            width = len(gap) if 0 < len(gap) <= LEVEL else 1  # "-      x": x is code
            stack.append(_Item(indent, indent + len(item.group("marker")) + width, len(stack)))
            return " " * (LEVEL * stack[-1].depth) + text[indent:]
        if stack and blank and indent < stack[0].content:
            stack.clear()  # after a blank line, a block of its own: the list has ended
        if not stack or indent < stack[0].content:
            return text  # not in a list, or a lazy continuation line
        owner = next(it for it in reversed(stack) if it.content <= indent)
        if owner.marker == LEVEL * owner.depth and indent >= LEVEL * (owner.depth + 1):
            return text  # an item where Python-Markdown expects it: it reads this line alike
        return _shift(text, LEVEL * (owner.depth + 1) + (indent - owner.content) - indent)


def _shift(line: str, by: int) -> str:
    """``line`` indented ``by`` more spaces (fewer when negative, down to none)."""
    if by >= 0:
        return " " * by + line if line.strip() else line
    return line[min(-by, _indent(line)):]

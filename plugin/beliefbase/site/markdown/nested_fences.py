"""Fenced code inside quotes, callouts and list items, without pymdownx.superfences.

Python-Markdown's ``fenced_code`` only sees a fence that starts in column 0:
``> ```py`` inside a callout or an indented fence under a list item came out
as inline code in a paragraph.  Obsidian (CommonMark) renders them as code
blocks, and so does pymdownx.superfences; this preprocessor gives sites that
use plain ``fenced_code`` the same result.

Preprocessor ``bb_nested_fences`` (26: after whitespace normalisation at 30,
just before ``fenced_code_block`` at 25): each nested fence loses its quote
markers or list indentation and is handed to the site's own
``FencedBlockPreprocessor`` (so its highlighting and attribute options apply),
which stashes the HTML; the stash placeholder goes back in the fence's place
under the same prefix.  With superfences installed (it handles nesting
itself) this does nothing.
"""

from __future__ import annotations

import re

from markdown.extensions.fenced_code import FencedBlockPreprocessor
from markdown.preprocessors import Preprocessor

from ...codecs.grammar import FENCE_RUN, QUOTE_MARKER
from ...codecs.grammar import LIST_ITEM_BLANK as _LIST_ITEM
from ...codecs.grammar import QUOTE_MARK as _QUOTE_MARK

# A fence opening under quote markers ("> ```py", "> > ~~~") or list indentation.
_NESTED_OPEN = re.compile(
    r"^(?P<prefix>(?:" + QUOTE_MARKER + r")+|[ ]+)(?P<fence>" + FENCE_RUN + r")(?P<info>[^\n]*)$"
)


class NestedFences(Preprocessor):
    """Turn fences nested in quotes and list items into stashed code blocks."""

    def run(self, lines: list[str]) -> list[str]:
        try:
            fenced = self.md.preprocessors["fenced_code_block"]  # a Registry: no .get()
        except KeyError:
            return lines  # no fenced code at all
        if type(fenced) is not FencedBlockPreprocessor:
            return lines  # superfences: it nests fences by itself
        if not any("```" in line or "~~~" in line for line in lines):
            return lines
        out: list[str] = []
        i = 0
        while i < len(lines):
            m = _NESTED_OPEN.match(lines[i])
            replaced = self._replace(lines, i, m, fenced) if m else None
            if replaced is None:
                out.append(lines[i])
                i += 1
                continue
            new_lines, i = replaced
            out += new_lines
        return out

    def _replace(
        self, lines: list[str], i: int, m: re.Match[str], fenced: FencedBlockPreprocessor
    ) -> tuple[list[str], int] | None:
        """(the lines that replace the fence opened at ``i``, the index after it) or None."""
        prefix, fence = m.group("prefix"), m.group("fence")
        if fence[0] == "`" and "`" in m.group("info"):
            return None  # not a fence: a code span such as ```x```
        depth = prefix.count(">")
        if depth == 0 and not _in_list(lines, i, len(prefix)):
            return None  # indented code, not a list item's fence
        body: list[str] = []
        for j in range(i, len(lines)):
            stripped = _strip(lines[j], depth, len(prefix))
            if stripped is None:
                return None  # the quote or list item ends before the fence closes
            body.append(stripped)
            closing = stripped.strip()
            if j > i and closing.startswith(fence) and not closing.strip(fence[0]):
                break
        else:
            return None  # never closed: leave it as Python-Markdown reads it
        result = [line for line in fenced.run(body) if line.strip()]
        if len(result) != 1 or result[0] == body[0]:
            return None
        lead = ">" * depth if depth else ""
        placeholder = (prefix if depth else " " * len(prefix)) + result[0]
        # In a quote the code block must be a block of its own, not inside a <p>.
        # (a blank quote line after it only when the quote goes on: a trailing one
        # leaves a newline in the placeholder's paragraph, which then is not replaced)
        if not depth:
            return [placeholder], j + 1
        after = _strip(lines[j + 1], depth, 0) if j + 1 < len(lines) else None
        return [lead, placeholder, *([lead] if after and after.strip() else [])], j + 1


def _in_list(lines: list[str], i: int, indent: int) -> bool:
    """Is line ``i`` (indented ``indent`` spaces) inside a list item above it?"""
    for k in range(i - 1, -1, -1):
        line = lines[k]
        if not line.strip():
            continue
        width = len(line) - len(line.lstrip(" "))
        if width < indent:
            return _LIST_ITEM.match(line) is not None
    return False


def _strip(line: str, depth: int, indent: int) -> str | None:
    """``line`` without ``depth`` quote markers (or ``indent`` spaces); None: not inside."""
    if depth:
        for _ in range(depth):
            m = _QUOTE_MARK.match(line)
            if m is None:
                return None
            line = line[m.end():]
        return line
    if not line.strip():
        return ""
    if len(line) - len(line.lstrip(" ")) < indent:
        return None
    return line[indent:]

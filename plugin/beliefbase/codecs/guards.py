"""Inputs that would crash or stall Python-Markdown, made safe without losing text.

* Lists or quotes nested hundreds of levels deep make Python-Markdown recurse
  until ``RecursionError`` (after ~45 s for 1,000 levels), which would abort
  the whole ``mkdocs build``.  Such a block is reported (``nesting-depth``)
  and rendered as a code block: every character is still on the page.
* A line with hundreds of unmatched ``[`` makes the link patterns quadratic.
  Those brackets are backslash-escaped, which renders the same characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Deeper than this (in columns of indentation, or ``>`` markers) is refused.
MAX_INDENT = 400
MAX_QUOTES = 100
#: A line with more unmatched ``[`` than this has them escaped.
MAX_OPEN_BRACKETS = 64

_LEAD = re.compile(r"^[ \t>]*", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class DeepBlock:
    start: int  # offset of the block in the text
    end: int
    line: int  # 0-based line (in the text) of the first too-deep line
    depth: int  # indentation columns or quote markers found


def deep_blocks(text: str) -> list[DeepBlock]:
    """Blocks (between blank lines) holding a line nested too deeply."""
    if "\n" + " " * 64 not in text and "\t" * 16 not in text and ">" * 32 not in text:
        return []
    found: list[DeepBlock] = []
    for m in _LEAD.finditer(text):
        lead = m.group(0)
        if len(lead) < 32:
            continue
        quotes = lead.count(">")
        indent = len(lead.replace("\t", "    ")) - quotes
        if indent <= MAX_INDENT and quotes <= MAX_QUOTES:
            continue
        start = text.rfind("\n\n", 0, m.start())
        start = 0 if start < 0 else start + 2
        if found and start < found[-1].end:
            continue
        end = text.find("\n\n", m.end())
        end = len(text) if end < 0 else end + 1
        found.append(DeepBlock(start, end, text.count("\n", 0, m.start()),
                               quotes if quotes > MAX_QUOTES else indent))
    return found


def make_renderable(text: str) -> str:
    """``text`` with deep blocks fenced and runaway ``[`` escaped (same visible text)."""
    blocks = deep_blocks(text)
    if blocks:
        out: list[str] = []
        pos = 0
        for block in blocks:
            chunk = text[block.start:block.end]
            fence = "`" * max(3, _longest_backticks(chunk) + 1)
            out.append(text[pos:block.start])
            out.append(f"{fence}text\n{chunk.rstrip(chr(10))}\n{fence}\n")
            pos = block.end
        out.append(text[pos:])
        text = "".join(out)
    if text.count("[") > MAX_OPEN_BRACKETS:
        text = "\n".join(_escape_brackets(line) for line in text.split("\n"))
    return text


def _escape_brackets(line: str) -> str:
    if line.count("[") - line.count("]") <= MAX_OPEN_BRACKETS:
        return line
    return re.sub(r"(?<!\\)\[(?!\[[^\[\]\n]+\]\])", r"\\[", line)


def _longest_backticks(text: str) -> int:
    runs = re.findall(r"`+", text)
    return max((len(r) for r in runs), default=0)

"""Inputs that would crash or stall Python-Markdown, made safe without losing text.

* Lists or quotes nested hundreds of levels deep make Python-Markdown recurse
  until ``RecursionError`` (after a long stall), which would abort
  the whole ``mkdocs build``.  Such a block is reported (``nesting-depth``)
  and rendered as a code block: every character is still on the page.
* Emphasis nested hundreds of levels deep (``**a **a **a … b** b**``) makes
  Python-Markdown's tree walks recurse past Python's limit (``toc``'s
  ``iterparent``, near 800 levels inside a build): such a paragraph is
  reported and shown as a code block too, the rest of the page renders.
* A line with hundreds of unmatched ``[`` makes the link patterns quadratic.
  Those brackets are backslash-escaped, which renders the same characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Deeper than this (in columns of indentation, or ``>`` markers) is refused.
MAX_INDENT = 400
MAX_QUOTES = 100
#: Emphasis nested deeper than this is refused (far below the ~800 that recurse).
MAX_EMPHASIS = 200
#: A line with more unmatched ``[`` than this has them escaped.
MAX_OPEN_BRACKETS = 64

_LEAD = re.compile(r"^[ \t>]*", re.MULTILINE)
# A run of emphasis delimiters (``*``, ``**``, ``_``, ...).
_DELIMITERS = re.compile(r"[*_]+")
# A paragraph break: a line with nothing but spaces (masked code is spaces too).
_BREAK = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True, slots=True)
class DeepBlock:
    start: int  # offset of the block in the text
    end: int
    line: int  # 0-based line (in the text) of the first too-deep line
    depth: int  # indentation columns, quote markers or emphasis levels found
    kind: str = "nesting"  # or "emphasis"


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


def deep_emphasis(text: str) -> list[DeepBlock]:
    """Paragraphs whose emphasis nests deeper than ``MAX_EMPHASIS`` (code left out).

    A delimiter run that can only open (before a word, after a space or
    punctuation: ``**a``) goes one level deeper, one that can only close
    (``a**``) one up; ``a*b`` and ``2 * 3`` do neither, as in CommonMark's
    flanking rules.  An upper bound of the nesting Python-Markdown builds.
    """
    if text.count("*") + text.count("_") <= MAX_EMPHASIS:
        return []
    from .mask import mask  # here: most notes never need it

    masked = mask(text)
    found: list[DeepBlock] = []
    breaks = [(m.start() + 1, m.end()) for m in _BREAK.finditer(masked)]
    starts = [0] + [after for _end, after in breaks]
    ends = [end for end, _after in breaks] + [len(masked)]
    for start, end in zip(starts, ends, strict=True):
        block = masked[start:end]
        if block.count("*") + block.count("_") > MAX_EMPHASIS:
            deepest = _emphasis_depth(block)
            if deepest is not None:
                depth, at = deepest
                found.append(DeepBlock(start, end, masked.count("\n", 0, start + at), depth,
                                       "emphasis"))
    return found


def _emphasis_depth(block: str) -> tuple[int, int] | None:
    """(deepest nesting, offset where it passed the limit), if past ``MAX_EMPHASIS``."""
    depth = peak = 0
    passed = -1
    for m in _DELIMITERS.finditer(block):
        before = block[m.start() - 1] if m.start() else " "
        after = block[m.end()] if m.end() < len(block) else " "
        opens = not after.isspace() and (before.isspace() or not before.isalnum())
        closes = not before.isspace() and (after.isspace() or not after.isalnum())
        if opens and not closes:
            depth += 1
            if depth > peak:
                peak = depth
                if peak == MAX_EMPHASIS + 1:
                    passed = m.start()
        elif closes and not opens and depth:
            depth -= 1
    return (peak, passed) if peak > MAX_EMPHASIS else None


def make_renderable(text: str) -> str:
    """``text`` with deep blocks fenced and runaway ``[`` escaped (same visible text)."""
    blocks = deep_blocks(text)
    emphasis = [b for b in deep_emphasis(text)
                if not any(b.start < o.end and o.start < b.end for o in blocks)]
    if emphasis:
        blocks = sorted(blocks + emphasis, key=lambda b: b.start)
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

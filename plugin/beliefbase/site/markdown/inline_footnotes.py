"""Obsidian's inline footnotes, ``text^[a note]``, as ordinary footnotes.

Python-Markdown's ``footnotes`` extension has no inline form.  Preprocessor
``bb_inline_footnotes`` (22: after fenced code is stashed at 25, so a fence is
a placeholder by then) turns each ``^[note]`` outside code into a reference
``[^label]`` and appends ``[^label]: note`` at the end of the page, where the
``footnotes`` extension finds it.  Labels are ``inline-1``, ``inline-2``, ...,
skipping any label the note already uses.  Without the ``footnotes``
extension it does nothing (the text stays as written).

Inline footnotes are not the user's footnotes for beliefs: the codec never
sees them as ``[^label]`` (they have no label to cite), so belief coverage
neither counts nor asks for them.
"""

from __future__ import annotations

import re

from markdown.preprocessors import Preprocessor

from ...codecs.grammar import FOOTNOTE_ANY as _LABEL  # a label the page already uses
from ...codecs.mask import mask

# A line end followed by a blank line: the paragraph ends there.
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


class InlineFootnotes(Preprocessor):
    """``text^[note]`` -> ``text[^inline-1]`` + ``[^inline-1]: note`` at the end."""

    def run(self, lines: list[str]) -> list[str]:
        if not any("^[" in line for line in lines) or "footnote" not in self.md.inlinePatterns:
            return lines
        text = "\n".join(lines)
        notes = _find(text)
        if not notes:
            return lines
        used = set(_LABEL.findall(text))
        pieces: list[str] = []
        definitions: list[str] = []
        at = 0
        number = 0
        for start, end in notes:
            number += 1
            while f"inline-{number}" in used:
                number += 1
            label = f"inline-{number}"
            pieces += [text[at:start], f"[^{label}]"]
            body = " ".join(text[start + 2:end - 1].split())
            definitions.append(f"[^{label}]: {body}")
            at = end
        pieces.append(text[at:])
        return "".join(pieces).split("\n") + ["", *definitions]


def _find(text: str) -> list[tuple[int, int]]:
    """(start, end) of each ``^[...]`` outside code, brackets balanced, within a paragraph."""
    masked = mask(text)  # (fences are stash placeholders by now; spans, indented code remain)
    found: list[tuple[int, int]] = []
    at = masked.find("^[")
    while at >= 0:
        end = _closing(masked, at + 1)
        escaped = at > 0 and masked[at - 1] == "\\"
        if end is not None and not escaped and text[at + 2:end - 1].strip():
            found.append((at, end))
            at = masked.find("^[", end)
        else:
            at = masked.find("^[", at + 2)
    return found


def _closing(masked: str, open_at: int) -> int | None:
    """One past the ``]`` that closes the ``[`` at ``open_at`` (None: not in its paragraph)."""
    depth = 0
    for i in range(open_at, len(masked)):
        char = masked[i]
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        elif char == "\n" and _BLANK_LINE.match(masked, i):
            return None
    return None

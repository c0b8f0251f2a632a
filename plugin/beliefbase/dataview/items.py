"""List items and tasks of a Markdown body (``file.lists`` and ``file.tasks``).

A list item is a line ``- text``, ``* text``, ``+ text`` or ``1. text``; a task is
a list item with a status box ``[ ]``/``[x]``/``[-]`` ….  An item is the child of
the nearest item above it that is less indented.  Items inside code are not
items.  Emoji shorthands (``📅 2021-08-29`` …) are fields of the task, as in
Dataview."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..codecs.grammar import ATX_HEADING as _HEADING
from ..codecs.grammar import CLOSING_HASHES as _CLOSING_HASHES
from ..codecs.grammar import LIST_ITEM_BLANK as _ANY_ITEM
from ..codecs.grammar import TASK_ITEM as _ITEM
from ..codecs.markdown import tag_names
from ..codecs.mask import code_regions, mask
from .dates import parse_iso
from .inline_fields import InlineField, extract_inline_fields

_LINK = re.compile(r"!?\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|[^\[\]\n]*)?\]\]")
_BLOCK_ID = re.compile(r"\s\^([A-Za-z0-9-]+)\s*$")
_SHORTHANDS = {
    "🗓️": "due", "🗓": "due", "📅": "due", "📆": "due",
    "✅": "completion", "➕": "created", "🛫": "start", "⏳": "scheduled",
}
_SHORTHAND = re.compile("(" + "|".join(sorted(map(re.escape, _SHORTHANDS), key=len,
                                              reverse=True)) + r")\s*(\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True, slots=True)
class ListItem:
    """One list item or task.  ``line`` is the 1-based file line; Dataview's own
    ``line`` field (0-based) is ``line - 1`` in queries."""

    text: str
    symbol: str
    task: bool
    status: str | None  # the character in [ ], None for a plain item
    line: int
    line_count: int
    indent: int
    parent: int | None  # the parent's line, None at the top level
    section: str | None  # the heading above the item
    tags: tuple[str, ...]
    outlinks: tuple[str, ...]  # link targets as written
    block_id: str | None
    fields: tuple[InlineField, ...]
    shorthands: tuple[tuple[str, Any], ...]  # (field name, date) from emoji
    children: tuple[ListItem, ...] = field(default=())

    @property
    def completed(self) -> bool:
        return (self.status or "").lower() == "x"

    @property
    def checked(self) -> bool:
        return self.status is not None and self.status != " "

    @property
    def fully_completed(self) -> bool:
        return self.completed and all(c.fully_completed for c in self.children if c.task)

    def walk(self) -> tuple[ListItem, ...]:
        """This item and all its descendants, in source order."""
        out: list[ListItem] = [self]
        for child in self.children:
            out.extend(child.walk())
        return tuple(out)


def _indent_width(text: str) -> int:
    return len(text.expandtabs(4))


@dataclass
class _Draft:
    fields: dict[str, Any]  # ListItem's, but children
    children: list[_Draft]


def extract_items(body: str, first_line: int = 1, *, masked: str | None = None,
                  fields: tuple[InlineField, ...] | None = None) -> tuple[ListItem, ...]:
    """The top-level list items of a body, each with its children (a tree).
    ``masked`` (the body with code masked) and ``fields`` (its inline fields)
    save the work when the caller has them."""
    if not _ANY_ITEM.search(body):
        return ()
    if masked is None:
        masked = mask(body, code_regions(body))
    if fields is None:
        fields = extract_inline_fields(body, first_line, masked=masked)
    lines = body.split("\n")
    masked_lines = masked.split("\n")
    by_line: dict[int, list[InlineField]] = {}
    for f in fields:
        by_line.setdefault(f.line, []).append(f)
    roots: list[_Draft] = []
    stack: list[tuple[int, _Draft]] = []
    section: str | None = None
    last: _Draft | None = None
    for index, masked_line in enumerate(masked_lines):
        line_no = first_line + index
        heading = _HEADING.match(masked_line)
        if heading:  # "# About C#" is "About C#"; "#" alone is an empty heading
            section = _CLOSING_HASHES.sub("", heading.group("text") or "").strip() or None
            stack.clear()
            last = None
            continue
        m = _ITEM.match(masked_line)
        if m and not m.group("gap"):
            m = None  # "-" alone: under a paragraph, a setext underline
        if not m:
            if last is not None and masked_line.strip() and (
                _indent_width(masked_line[:len(masked_line) - len(masked_line.lstrip())]) > 0
            ):
                last.fields["line_count"] += 1
                continue
            if not masked_line.strip():
                continue
            stack.clear()
            last = None
            continue
        raw = lines[index]
        # the item's marker and box as written: on the masked line the blanks after
        # them run on into masked code or math at the start of the text
        m = _ITEM.match(raw) or m
        indent = _indent_width(m.group("indent"))
        text = raw[m.end():].rstrip()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else None
        block = _BLOCK_ID.search(text)
        status = m.group("status")
        item = dict(
            text=text, symbol=m.group("marker"), task=status is not None, status=status,
            line=line_no, line_count=1, indent=indent,
            parent=parent.fields["line"] if parent else None, section=section,
            tags=tuple(dict.fromkeys("#" + t for t in tag_names(masked_line[m.end():]))),
            outlinks=tuple(_LINK.findall(masked_line[m.end():])),
            block_id=block.group(1) if block else None,
            fields=tuple(by_line.get(line_no, ())),
            shorthands=tuple((_SHORTHANDS[s], parse_iso(d)) for s, d in _SHORTHAND.findall(text)),
        )
        draft = _Draft(item, [])
        if parent is None:
            roots.append(draft)
        else:
            parent.children.append(draft)
        stack.append((indent, draft))
        last = draft
    return tuple(_freeze(d) for d in roots)


def _freeze(draft: _Draft) -> ListItem:
    return ListItem(**draft.fields, children=tuple(_freeze(c) for c in draft.children))


def all_items(roots: tuple[ListItem, ...]) -> tuple[ListItem, ...]:
    """Every item of a tree, in source order (``file.lists``)."""
    out: list[ListItem] = []
    for root in roots:
        out.extend(root.walk())
    return tuple(out)

"""The text edits of the ``entity`` commands (SPEC §7, §10): each changes only the
bytes of one mention.

``mention_edit(action, mention, ...)`` returns a transform for
``writeback.edit_file``: it finds the occurrences of ``mention`` in the note's
body (outside code, links, headings, ...: ``protected_regions``), counting both
plain words and existing manual mentions of that name, picks the ``nth`` one
and writes the syntax of ``action`` in its place:

* ``change-type`` / ``create``: ``#Name:TYPE`` (``#[Two Words]:TYPE``); an
  existing tag is retyped (``#Gondor:PLACE`` -> ``#Gondor:PERSON``), an
  existing alias keeps its canonical and takes the new type;
* ``alias``: ``Name:ALIAS_OF_CANONICAL:TYPE``;
* ``reject``: ``Name:REJECT_ENTITY``.

Writing what is already there changes nothing (idempotent); the new text is
parsed again and the edit refused unless the mention reads back as intended.
Line endings: offsets are found on the text with ``\\r\\n`` read as ``\\n`` and
mapped back, so a CRLF note keeps every ``\\r``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from ..codecs import frontmatter as fm
from ..codecs.entity_syntax import (
    MentionKind,
    entity_key,
    find_manual,
    is_type,
    protected_regions,
    tag_text,
)
from ..writeback import EditError

Action = Literal["change-type", "create", "alias", "reject"]


def _occurrences(body: str, name: str) -> list[tuple[int, int, MentionKind | None,
                                                        str | None]]:
    """(start, end, kind of an existing manual mention or None, its canonical)."""
    regions = protected_regions(body)
    manual = find_manual(body, regions)
    found: list[tuple[int, int, MentionKind | None, str | None]] = [
        (m.start, m.end, m.kind, m.canonical) for m in manual if m.name == name]
    taken = regions + [(m.start, m.end) for m in manual]
    for m in re.finditer(re.escape(name), body):
        start, end = m.span()
        if (start > 0 and _word(body[start - 1])) or (end < len(body) and _word(body[end])):
            continue
        if any(s < end and start < e for s, e in taken):
            continue
        found.append((start, end, None, None))
    return sorted(found)


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def mention_edit(action: Action, name: str, *, type_: str | None = None,
                 canonical: str | None = None, nth: int | None = None
                 ) -> Callable[[str], str]:
    """The transform of one ``entity`` command (module doc)."""
    if not name.strip() or "\n" in name or any(c in name for c in "[]#\\"):
        raise EditError(f"{name!r} cannot be a mention: it must be words on one line, "
                        "without [, ], # or \\")
    if type_ is not None and not is_type(type_):
        raise EditError(f"{type_!r} is not a type: write it in capitals, like PERSON or "
                        "MOUNTAIN_RANGE ([A-Z][A-Z0-9_]*)")
    key = entity_key(canonical) if canonical is not None else None
    if canonical is not None and not key:
        raise EditError(f"{canonical!r} cannot be a canonical entity: give its name or key "
                        "(CORY_GILFORD)")

    def transform(text: str) -> str:
        lf = text.replace("\r\n", "\n")
        body_at = fm.split(lf).body_offset
        body = lf[body_at:]
        found = _occurrences(body, name)
        if not found:
            raise EditError(f"{name!r} does not occur in the note's text (outside code, "
                            "links and headings)")
        if nth is None and len(found) > 1:
            raise EditError(f"{name!r} occurs {len(found)} times in the note; choose one "
                            f"with --nth 1..{len(found)}")
        index = (nth or 1) - 1
        if not 0 <= index < len(found):
            raise EditError(f"--nth {nth}: {name!r} occurs {len(found)} time(s) in the note")
        start, end, kind, old_canonical = found[index]
        if action in ("change-type", "create"):
            if kind == "alias" and action == "change-type":
                new = tag_text("alias", name, type_, old_canonical)
            else:
                new = tag_text("tag", name, type_)
        elif action == "alias":
            new = tag_text("alias", name, type_, key)
        else:
            new = tag_text("reject", name)
        new_body = body[:start] + new + body[end:]
        check = [m for m in find_manual(new_body) if m.start == start]
        if not check or check[0].end != start + len(new) or check[0].name != name:
            raise EditError(f"{new} would not read back as an entity mention where {name!r} "
                            "stands (the character before it must be a space, a line start "
                            "or an opening bracket or quote); edit the note by hand")
        if new_body == body:
            return text
        a, b = _raw(text, body_at + start), _raw(text, body_at + end)
        return text[:a] + new + text[b:]

    return transform


def _raw(text: str, lf_offset: int) -> int:
    """The offset in ``text`` (CRLF kept) of an offset in its ``\\r\\n`` -> ``\\n`` form."""
    pos = 0
    seen = 0
    while True:
        nxt = text.find("\r\n", pos)
        if nxt < 0 or nxt - seen >= lf_offset:
            return lf_offset + seen
        seen += 1
        pos = nxt + 2

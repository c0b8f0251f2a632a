"""Surgical edits of sidecar JSON text, and the ``beliefs supersede`` transform.

The file is never re-dumped: ``set_members`` replaces the bytes of existing
values and inserts missing members after the last one, copying the
whitespace the object already uses between members and around colons (so
CRLF files, tabs, one-line objects keep their style).  ``supersede_transform``
builds the ``writeback.edit_file`` transform that marks one belief superseded;
it changes nothing when the belief already says so (idempotent) and checks
that the new text parses to exactly the old data with those fields set.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..writeback import EditError
from . import dates
from .jsontext import (
    JsonPath,
    JsonProblem,
    JsonText,
    Member,
    format_path,
    loads_strict,
    scanstring,
)

_WHITESPACE = " \t\r\n"


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def set_members(text: str, path: JsonPath, values: Mapping[str, Any]) -> str:
    """``text`` with the object at ``path`` given ``values``; every other byte kept.

    Raises:
        EditError: there is no object at ``path``.
    """
    located = JsonText(text)
    found = located.member(path)
    if found is None or text[found.value_start] != "{":
        raise EditError(f"no JSON object at {format_path(path)}")
    members = located.members(path) or {}
    edits: list[tuple[int, int, str]] = []
    missing = {k: v for k, v in values.items() if k not in members}
    for key, value in values.items():
        if key in members:
            member = members[key]
            edits.append((member.value_start, member.value_end, _dump(value)))
    if missing:
        edits.append(_insertion(text, found.value_start, list(members.values()), missing))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _insertion(
    text: str, start: int, members: list[Member], values: Mapping[str, Any]
) -> tuple[int, int, str]:
    """Where and what to insert so new members look like the existing ones."""
    if not members:  # "{ }": its inner whitespace becomes the members
        close = text.index("}", start)
        return start + 1, close, ", ".join(f"{_dump(k)}: {_dump(v)}" for k, v in values.items())
    last = max(members, key=lambda m: m.key_start)
    gap_start = last.key_start
    while gap_start > 0 and text[gap_start - 1] in _WHITESPACE:
        gap_start -= 1
    gap = text[gap_start : last.key_start]  # before each member: newline + indent, or " "
    key_end = scanstring(text, last.key_start + 1)[1]
    colon = text[key_end : last.value_start]  # ": " or ":" as the file writes it
    if len(members) == 1 and "\n" not in gap:  # {"a": 1}: no separator to copy yet
        gap = " " if colon.endswith(" ") else ""
    added = "".join(f",{gap}{_dump(k)}{colon}{_dump(v)}" for k, v in values.items())
    return last.value_end, last.value_end, added


def belief_index(data: Any, belief_id: str) -> int:
    """Position of ``belief_id`` in ``data["beliefs"]`` (the first, as the verifier uses)."""
    beliefs = data.get("beliefs") if isinstance(data, dict) else None
    for index, item in enumerate(beliefs if isinstance(beliefs, list) else ()):
        if isinstance(item, dict) and item.get("belief_id") == belief_id:
            return index
    raise EditError(f"belief {belief_id!r} is no longer in the sidecar")


def _same(key: str, old: Any, new: Any) -> bool:
    if key.endswith("_at") and isinstance(old, str) and dates.is_iso(old):
        return bool(dates.normalize(old) == new)
    return bool(old == new)


def supersede_transform(belief_id: str, values: Mapping[str, Any]) -> Callable[[str], str]:
    """A transform setting ``values`` (superseded_at, superseded_by_belief_id, …) on a belief.

    It refuses (``EditError``) a belief already superseded by another one, and
    leaves the text alone when the belief already carries ``values``.
    """

    def transform(text: str) -> str:
        try:
            data = loads_strict(text)
        except JsonProblem as exc:
            raise EditError(f"the sidecar is not valid JSON ({exc.message})") from None
        index = belief_index(data, belief_id)
        belief = data["beliefs"][index]
        successor = belief.get("superseded_by_belief_id")
        wanted = values.get("superseded_by_belief_id")
        if successor not in (None, wanted):
            raise EditError(f"{belief_id} is already superseded by {successor}; edit the "
                            "sidecar by hand to change that")
        changes = {k: v for k, v in values.items() if not _same(k, belief.get(k), v)}
        if not changes:
            return text
        new_text = set_members(text, ("beliefs", index), changes)
        expected = json.loads(text)
        expected["beliefs"][index].update(changes)
        if json.loads(new_text) != expected:  # a bug here must never reach the file
            raise EditError("internal error: the edit would change more than the belief")
        return new_text

    return transform

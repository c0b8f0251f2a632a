"""Strict JSON for sidecars: parsing that refuses what JSON should not contain, and locating.

Python's ``json`` accepts ``NaN``/``Infinity``, keeps the last of two duplicate
keys silently and recurses in C until ``RecursionError`` on deep nesting.  A
sidecar is data people edit by hand, so each of those is an error here, with a
line and column.  ``JsonText`` maps a JSON path (``$.beliefs[3].asserted_at``)
back to its place in the file, lazily and once per container, so diagnostics
can point at the line of a belief or field without a second, position-tracking
parser on the fast path.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Deeper nesting is refused before parsing (a sidecar needs 3 levels).
MAX_DEPTH = 200
#: Longer integer literals are refused (Python would refuse past 4300 digits, unlocated).
MAX_INT_DIGITS = 300

JsonPath = Sequence["str | int"]

_WS = re.compile(r"[ \t\n\r]*")
#: ``scanstring(text, end)`` decodes the string whose opening quote is at ``end - 1``.
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def _skip(text: str, at: int) -> int:
    """Offset of the first non-whitespace character at or after ``at``."""
    found = _WS.match(text, at)
    return found.end() if found else at
_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_SCALAR = re.compile(
    r"""-?Infinity|NaN|true|false|null
      | -?(?:0|[1-9]\d*)(?P<frac>\.\d+)?(?P<exp>[eE][-+]?\d+)?""",
    re.VERBOSE,
)
_PLAIN_KEY = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")


class JsonProblem(Exception):
    """Text that is not acceptable JSON; ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int, path: JsonPath = ()) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.path = tuple(path)


class _Rejected(ValueError):
    """Raised by the decoder hooks; the slow walker then finds where."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Rejected("duplicate key")
    return result


def _constant(name: str) -> float:
    raise _Rejected(name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Rejected(text)
    return value


def _int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS:
        raise _Rejected(text)
    return int(text)


_STRICT = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float, parse_int=_int
)
_LENIENT = json.JSONDecoder()


def format_path(path: JsonPath) -> str:
    """``("beliefs", 3, "asserted_at")`` -> ``$.beliefs[3].asserted_at``."""
    parts = ["$"]
    for step in path:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif _PLAIN_KEY.match(step):
            parts.append(f".{step}")
        else:
            parts.append(f"[{json.dumps(step, ensure_ascii=False)}]")
    return "".join(parts)


def decode_utf8(data: bytes) -> str:
    """The text of a JSON file (UTF-8, optional BOM); ``JsonProblem`` at the first bad byte."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = body[: exc.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise JsonProblem(
            f"invalid UTF-8 (byte 0x{body[exc.start]:02x}); save the file as UTF-8", line, column
        ) from None


@dataclass(frozen=True, slots=True)
class Member:
    """Where one member of an object (or item of an array) is written."""

    key_start: int  # offset of the key's quote (of the value, for array items)
    value_start: int
    value_end: int


class JsonText:
    """Decoded JSON text with offset -> (line, column) and path -> span lookups."""

    #: ``frozen.CACHES``: where the lines start and each container's members, found
    #: when first asked for: functions of ``text``
    __caches__ = ("_newlines", "_members")

    def __init__(self, text: str) -> None:
        self.text = text
        self._newlines: list[int] | None = None
        self._members: dict[int, dict[str | int, Member]] = {}

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_left(self._newlines, offset)
        start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def member(self, path: JsonPath) -> Member | None:
        """Where the value at ``path`` is written, or None if it is not there."""
        start = _skip(self.text, 0)
        found = Member(start, start, len(self.text))
        for step in path:
            members = self._members_at(found.value_start)
            if members is None or step not in members:
                return None
            found = members[step]
        return found

    def members(self, path: JsonPath) -> dict[str | int, Member] | None:
        """The members of the container at ``path`` (keys, or indexes of an array)."""
        found = self.member(path)
        return None if found is None else self._members_at(found.value_start)

    def locate(self, path: JsonPath) -> tuple[int, int]:
        """(line, column) of ``path``'s key, or of its deepest prefix that exists."""
        for cut in range(len(path), -1, -1):
            found = self.member(path[:cut])
            if found is not None:
                return self.position(found.key_start)
        return 1, 1

    def _members_at(self, start: int) -> dict[str | int, Member] | None:
        if start in self._members:
            return self._members[start]
        opener = self.text[start : start + 1]
        if opener not in ("{", "["):
            return None
        members = _scan_members(self.text, start)
        self._members[start] = members
        return members


def _scan_members(text: str, start: int) -> dict[str | int, Member]:
    """Members of the (valid) container at ``start``; first occurrence of a key wins."""
    members: dict[str | int, Member] = {}
    is_object = text[start] == "{"
    closer = "}" if is_object else "]"
    i = _skip(text, start + 1)
    index = 0
    while i < len(text) and text[i] != closer:
        key_start = i
        key: str | int = index
        if is_object:
            key, i = scanstring(text, i + 1)
            i = _skip(text, i) + 1  # the colon
            i = _skip(text, i)
        _value, end = _LENIENT.raw_decode(text, i)
        members.setdefault(key, Member(key_start, i, end))
        index += 1
        i = _skip(text, end)
        if text[i : i + 1] == ",":
            i = _skip(text, i + 1)
    return members


def loads_strict(text: str) -> Any:
    """Parse ``text``; refuse NaN/Infinity, duplicate keys, huge numbers and deep nesting.

    Raises:
        JsonProblem: with the line and column of the first problem.
    """
    positions = JsonText(text)
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _check_depth(text, positions)
    try:
        return _STRICT.decode(text)
    except json.JSONDecodeError as exc:
        raise JsonProblem(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (_Rejected, ValueError):
        message, offset, path = _find_rejection(text)
        raise JsonProblem(message, *positions.position(offset), path) from None


def _check_depth(text: str, positions: JsonText) -> None:
    depth = 0
    for match in _BRACKETS.finditer(text):
        char = match.group(0)
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line, column = positions.position(match.start())
                raise JsonProblem(f"JSON nested deeper than {MAX_DEPTH} levels", line, column)
        elif char in "]}":
            depth -= 1


def _find_rejection(text: str) -> tuple[str, int, tuple[str | int, ...]]:
    """Walk the (syntactically valid) text to the first value a decoder hook refused."""
    found: list[tuple[str, int, tuple[str | int, ...]]] = []

    def value(i: int, path: tuple[str | int, ...]) -> int:
        i = _skip(text, i)
        char = text[i]
        if char == '"':
            return int(scanstring(text, i + 1)[1])
        if char in "{[":
            return container(i, path)
        match = _SCALAR.match(text, i)
        assert match is not None  # the text parsed leniently, so a scalar is here
        token = match.group(0)
        if token.lstrip("-") in ("NaN", "Infinity"):
            found.append((f"{token} is not valid JSON; write a number or null", i, path))
        elif (match.group("frac") or match.group("exp")) and not math.isfinite(float(token)):
            found.append((f"number {token[:20]} is too large", i, path))
        elif not match.group("frac") and not match.group("exp") and len(token) > MAX_INT_DIGITS:
            found.append((f"integer with {len(token)} digits is too long", i, path))
        return match.end()

    def container(i: int, path: tuple[str | int, ...]) -> int:
        is_object = text[i] == "{"
        closer = "}" if is_object else "]"
        seen: set[str | int] = set()
        i = _skip(text, i + 1)
        index = 0
        while text[i] != closer and not found:
            step: str | int = index
            if is_object:
                key_at = i
                step, i = scanstring(text, i + 1)
                if step in seen:
                    found.append((f"duplicate key {json.dumps(step)}", key_at, path))
                    return i
                seen.add(step)
                i = _skip(text, _skip(text, i) + 1)
            i = _skip(text, value(i, (*path, step)))
            if text[i] == ",":
                i = _skip(text, i + 1)
            index += 1
        return i + 1

    value(0, ())  # the strict decoder got past the syntax, so the walk cannot fail on it
    return found[0] if found else ("invalid JSON", 0, ())

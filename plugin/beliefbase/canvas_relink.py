"""``beliefbase sync`` fixes a canvas's links to renamed notes (SPEC §10).

A ``.canvas`` file (JSON Canvas, ``codecs/canvas.py``) refers to notes in two
ways: a file node's ``"file"`` (the note's path in the vault, Obsidian's form)
and the links written in a text node's ``"text"`` (Markdown).  The link record
(``builder/link_record.py``) knows what each meant before a rename, as for a
note; a file node gets the note's new path, a text node's link the form
``relink`` gives a note's link (its shortest unambiguous target).

Only the characters of each changed JSON string that change are rewritten, in
place: key order, whitespace, indentation, unknown keys and the escapes of the
rest of the string stay as written, and the new characters are escaped as JSON
needs (``\\u`` escapes when the file holds only ASCII).  The result is parsed
again and must equal the old data with just those values changed, or nothing
is written (``EditError``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .builder import link_record
from .builder.documents import Document
from .builder.link_record import LinkRecord
from .codecs.canvas import text_node_links
from .compile.compiled import Compiled
from .ids import SrcPath
from .relink import Fix, Unfixable, fix_for, link_edits
from .writeback import EditError

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def stale_targets(compiled: Compiled, doc: Document, rec: LinkRecord) -> dict[str, Document]:
    """The link record's written targets of the canvas ``doc`` (``w:…``/``m:…`` keys)
    that no longer mean the note they meant, and that note."""
    out: dict[str, Document] = {}
    for key, (path, stale) in rec.links.get(doc.path, {}).items():
        target = compiled.documents.get(SrcPath(path)) if stale else None
        if target is not None:
            out[key] = target
    return out


@dataclass(slots=True)
class CanvasRelink:
    """The ``str -> str`` transform ``writeback.edit_file`` applies to one canvas;
    after a call, ``fixed`` counts the links it rewrote and ``unfixable`` lists those
    it could not (each at its node's line in the file)."""

    compiled: Compiled
    doc: Document
    meant: Mapping[str, Document]
    fixed: int = 0
    unfixable: list[Unfixable] = field(default_factory=list)

    def __call__(self, text: str) -> str:
        self.fixed, self.unfixable = 0, []
        if not self.meant:
            return text
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise EditError("the canvas is not valid JSON; fix it first") from exc
        edits: list[tuple[int, int, str]] = []
        nodes = data.get("nodes") if isinstance(data, dict) else None
        for index, strings in _node_strings(text):
            node = nodes[index] if isinstance(nodes, list) and index < len(nodes) else None
            if not isinstance(node, dict):
                continue
            kind = strings.get("type")
            if kind is not None and kind[2] == "file" and "file" in strings:
                edits += self._file_node(text, node, strings["file"])
            elif kind is not None and kind[2] == "text" and "text" in strings:
                edits += self._text_node(text, node, strings["text"])
        if not edits:
            return text
        edits.sort()
        new = text
        for start, end, replacement in reversed(edits):
            new = new[:start] + replacement + new[end:]
        if json.loads(new) != data:  # ``data`` holds the intended values by now
            raise EditError("the edit would change more than intended; edit this canvas "
                            "by hand")
        return new

    def _file_node(self, text: str, node: dict[str, Any], value: _String
                   ) -> list[tuple[int, int, str]]:
        start, end, written = value
        target = self.meant.get(link_record.link_key("embed", written) or "")
        if target is None or target.path == written:
            return []
        node["file"] = str(target.path)
        self.fixed += 1
        return [_replace_in_literal(text, start, end, 0, len(written), str(target.path))]

    def _text_node(self, text: str, node: dict[str, Any], value: _String
                   ) -> list[tuple[int, int, str]]:
        start, end, written = value
        fixes: list[Fix] = []
        line = text.count("\n", 0, start) + 1
        display = self.compiled.options.display(self.doc.path)
        for link in text_node_links(self.doc.path, written, display):
            key = link_record.link_key(link.form, link.target)
            target = self.meant.get(key) if key is not None else None
            if target is None:
                continue
            found = fix_for(self.compiled, self.doc, link, target)
            if isinstance(found, Unfixable):
                self.unfixable.append(Unfixable(found.link._replace(line=line, column=1),
                                                found.target, found.why))
            else:
                fixes.append(found)
        if not fixes:
            return []
        spans = link_edits(written, fixes)
        decoded = written
        for at, stop, replacement in reversed(spans):
            decoded = decoded[:at] + replacement + decoded[stop:]
        node["text"] = decoded
        self.fixed += len(fixes)
        offsets = _offsets(text, start, end)
        ascii_only = text.isascii()
        return [(offsets[at], offsets[stop], _escape(replacement, ascii_only))
                for at, stop, replacement in spans]


#: a JSON string value: the offsets of its literal (quotes included), its value
_String = tuple[int, int, str]


def _node_strings(text: str) -> Iterator[tuple[int, dict[str, _String]]]:
    """Per node of the top-level ``"nodes"`` list (the last such key, as ``json``
    reads it): its index and its string values of ``type``, ``file`` and ``text``
    (the last of each key), where they are written."""
    nodes_at: int | None = None
    for key, at in _members(text, _skip_space(text, 0)):
        if key == "nodes":
            nodes_at = at
    if nodes_at is None or not text.startswith("[", nodes_at):
        return
    for index, item_at in enumerate(_items(text, nodes_at)):
        if not text.startswith("{", item_at):
            continue
        strings: dict[str, _String] = {}
        for key, at in _members(text, item_at):
            if key in ("type", "file", "text") and text.startswith('"', at):
                value, end = _DECODER.raw_decode(text, at)
                strings[key] = (at, end, value)
            elif key in strings:
                del strings[key]  # a later value that is no string wins
        yield index, strings


def _members(text: str, at: int) -> Iterator[tuple[str, int]]:
    """The keys of the JSON object at ``at`` and where each value starts."""
    if not text.startswith("{", at):
        return
    at = _skip_space(text, at + 1)
    if text.startswith("}", at):
        return
    while True:
        key, at = _DECODER.raw_decode(text, at)
        at = _skip_space(text, _skip_space(text, at) + 1)  # past the ":"
        yield key, at
        at = _skip_space(text, _value_end(text, at))
        if not text.startswith(",", at):
            return
        at = _skip_space(text, at + 1)


def _items(text: str, at: int) -> Iterator[int]:
    """Where each item of the JSON array at ``at`` starts."""
    at = _skip_space(text, at + 1)
    if text.startswith("]", at):
        return
    while True:
        yield at
        at = _skip_space(text, _value_end(text, at))
        if not text.startswith(",", at):
            return
        at = _skip_space(text, at + 1)


def _value_end(text: str, at: int) -> int:
    return int(_DECODER.raw_decode(text, at)[1])


def _skip_space(text: str, at: int) -> int:
    m = _SPACE.match(text, at)
    return m.end() if m else at


def _offsets(text: str, start: int, end: int) -> list[int]:
    """For the JSON string literal ``text[start:end]``: the offset in ``text`` where
    each character of its value is written, and its closing quote's."""
    out: list[int] = []
    at = start + 1
    last = end - 1
    while at < last:
        out.append(at)
        if text[at] != "\\":
            at += 1
        elif text[at + 1] != "u":
            at += 2
        else:
            unit = int(text[at + 2:at + 6], 16)
            at += 6
            if 0xD800 <= unit < 0xDC00 and text.startswith("\\u", at) and (
                    0xDC00 <= int(text[at + 2:at + 6], 16) < 0xE000):
                at += 6  # a surrogate pair is one character
    out.append(last)
    return out


def _replace_in_literal(text: str, start: int, end: int, at: int, stop: int,
                        new: str) -> tuple[int, int, str]:
    """The edit writing ``new`` over characters ``at`` to ``stop`` of the value of
    the JSON string literal ``text[start:end]``."""
    offsets = _offsets(text, start, end)
    return offsets[at], offsets[stop], _escape(new, text.isascii())


def _escape(value: str, ascii_only: bool) -> str:
    """``value`` as it is written inside a JSON string."""
    return json.dumps(value, ensure_ascii=ascii_only)[1:-1]

"""``beliefbase sync``: write identities and source hashes into notes (SPEC §4, §5.6, §10).

Two surgical frontmatter edits, each a pure ``str -> str`` transform that
``writeback.edit_file`` applies atomically (BOM, line endings and every byte
outside the edit kept; refused if the file changed meanwhile):

* ``add_bid``: a note without ``bid`` gets the BID the compiler already gave
  it (its provisional BID), so ids, brefs and ``[[bid:…]]`` links stay the
  same after the sync;
* ``record_source_refs``: ``source_refs`` is rewritten as ``{path, sha256}``
  entries with the current hashes.

Both are idempotent, and each result is parsed again and compared with what
was intended before anything is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from .codecs import frontmatter as fm
from .writeback import EditError, newline_of

_OPEN = re.compile(r"\A(---|\+\+\+)[ \t]*(\r?\n)")


def add_bid(text: str, bid: str) -> str:
    """``text`` with ``bid`` set in its frontmatter (unchanged if it has one)."""
    nl = newline_of(text)
    front = fm.split(text)
    if front.error is not None:
        raise EditError("the frontmatter does not parse; fix it first")
    if front.format is None:
        return f"---{nl}bid: {bid}{nl}---{nl}" + text
    if "bid" in front.data:
        return text
    opening = _OPEN.match(text)
    assert opening is not None
    line = f'bid = "{bid}"' if front.format in ("toml", "toml-dashes") else f"bid: {bid}"
    new = text[: opening.end()] + line + nl + text[opening.end():]
    _expect(new, {**front.data, "bid": bid})
    return new


def record_source_refs(text: str, hashes: Mapping[str, str | None]) -> str:
    """``source_refs`` rewritten as ``{path, sha256}`` entries with current hashes."""
    front = fm.split(text)
    if front.error is not None:
        raise EditError("the frontmatter does not parse; fix it first")
    refs = front.data.get("source_refs")
    if not refs:
        return text
    entries = [_path_of(e) for e in (refs if isinstance(refs, list) else [refs])]
    wanted = [{"path": p, "sha256": hashes.get(p)} for p in entries if p]
    wanted = [w if w["sha256"] else {"path": w["path"]} for w in wanted]
    if refs == wanted:
        return text
    nl = newline_of(text)
    opening = _OPEN.match(text)
    assert opening is not None
    start, end = _key_block(text, opening.end(), front.block_end, "source_refs",
                            toml=front.format in ("toml", "toml-dashes"))
    block = (_toml_refs(wanted) if front.format in ("toml", "toml-dashes")
             else _yaml_refs(wanted, nl))
    new = text[:start] + block + nl + text[end:]
    _expect(new, {**front.data, "source_refs": wanted})
    return new


def _path_of(entry: Any) -> str:
    if isinstance(entry, str):
        return entry.strip()
    if isinstance(entry, dict) and entry.get("path"):
        return str(entry["path"]).strip()
    return ""


def _yaml_refs(wanted: list[dict[str, Any]], nl: str) -> str:
    lines = ["source_refs:"]
    for entry in wanted:
        lines.append(f"  - path: {json.dumps(entry['path'])}")
        if entry.get("sha256"):
            lines.append(f"    sha256: {entry['sha256']}")
    return nl.join(lines)


def _toml_refs(wanted: list[dict[str, Any]]) -> str:
    items = []
    for entry in wanted:
        fields = [f"path = {json.dumps(entry['path'])}"]
        if entry.get("sha256"):
            fields.append(f'sha256 = "{entry["sha256"]}"')
        items.append("{ " + ", ".join(fields) + " }")
    return "source_refs = [" + ", ".join(items) + "]"


def _key_block(text: str, start: int, end: int, key: str, toml: bool) -> tuple[int, int]:
    """Offsets of ``key``'s whole entry (its line, continuation lines, final newline)."""
    pattern = re.compile(rf"^[\"']?{re.escape(key)}[\"']?[ \t]*[:=]", re.MULTILINE)
    m = pattern.search(text, start, end)
    if m is None:
        raise EditError(f"cannot find {key} at the top level of the frontmatter")
    lines = _lines_from(text, m.start(), end)
    first = next(lines)
    pos = m.start() + len(first)
    depth = first.count("[") - first.count("]")
    for line in lines:
        if line.rstrip() in ("---", "...", "+++"):
            break  # the closing fence
        if toml and depth <= 0:
            break
        if not toml and line.strip() and not line[0].isspace() and not line.startswith("- "):
            break  # the next top-level key
        depth += line.count("[") - line.count("]")
        pos += len(line)
    return m.start(), pos


def _lines_from(text: str, start: int, end: int) -> Iterator[str]:
    pos = start
    while pos < end:
        nxt = text.find("\n", pos)
        stop = len(text) if nxt < 0 else nxt + 1
        yield text[pos:stop]
        pos = stop


def _expect(new: str, data: dict[str, Any]) -> None:
    """The edited text must parse to exactly ``data`` (nothing else changed)."""
    front = fm.split(new)
    if front.error is not None or fm.jsonable(front.data) != fm.jsonable(data):
        raise EditError("the edit would change more than intended; edit this file by hand")

"""The JSON Canvas codec: an Obsidian ``*.canvas`` file (JSON Canvas 1.0) read.

``read_canvas`` checks the file against the spec (jsoncanvas.org/spec/1.0) and
returns a frozen ``Canvas`` with every node and edge it could use, and a
``bad-canvas`` problem (line, column, message) for everything it left out; the
site draws the board from it (``site/canvas.py``).  ``parse_canvas`` makes the
same ``ParsedDoc`` a note's parse makes: the links of the canvas are its file
nodes (``embeds``) and the links written in its text nodes (parsed as the
Markdown they are), so the graph, the backlinks and the link checks know them.

The file is untrusted: every value is type-checked, coordinates and sizes are
bounded, and nothing in it is ever HTML (the site escapes every string).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from .. import diagnostics as diag
from ..ids import SrcPath
from . import frontmatter as fm
from .markdown import _scan, decode, digest
from .model import LinkRef, ParsedDoc

NODE_TYPES = ("text", "file", "link", "group")
SIDES = ("top", "right", "bottom", "left")
ENDS = ("none", "arrow")
#: The largest coordinate and size a node may have (Obsidian's boards stay far
#: below); a larger one is a broken file, and would make the page a huge image.
MAX_COORD = 1_000_000
MAX_SIZE = 100_000
MAX_ITEMS = 10_000  # nodes, and edges, read at most
_COLOR = re.compile(r"^(?:[1-6]|#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})$")


@dataclass(frozen=True, slots=True)
class CanvasNode:
    """One node: ``kind`` is text, file, link or group; the rest as the spec names it."""

    id: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    line: int
    color: str | None = None  # "1".."6" or "#rrggbb"
    text: str = ""  # text nodes: Markdown
    file: str = ""  # file nodes: path in the vault
    subpath: str = ""  # file nodes: "#Heading" or "#^block"
    url: str = ""  # link nodes
    label: str = ""  # groups


@dataclass(frozen=True, slots=True)
class CanvasEdge:
    id: str
    from_node: str
    to_node: str
    line: int
    from_side: str | None = None
    to_side: str | None = None
    from_end: str = "none"
    to_end: str = "arrow"
    color: str | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class Canvas:
    nodes: tuple[CanvasNode, ...] = ()
    edges: tuple[CanvasEdge, ...] = ()
    #: the file could not be read as a canvas at all (not JSON, not an object)
    error: str | None = None


Problem = tuple[int, int, str]  # line, column, message


def read_canvas(text: str) -> tuple[Canvas, list[Problem]]:
    """The canvas in ``text`` and what is wrong with it."""
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        message = f"not valid JSON: {exc.msg}"
        return Canvas(error=message), [(exc.lineno, exc.colno, message)]
    except RecursionError:
        return Canvas(error="JSON nested too deeply"), [(1, 1, "JSON nested too deeply")]
    if not isinstance(data, dict):
        message = "a canvas is a JSON object with \"nodes\" and \"edges\""
        return Canvas(error=message), [(1, 1, message)]
    problems: list[Problem] = []
    lines = _Lines(text)
    nodes = _nodes(data.get("nodes", []), lines, problems)
    ids = {n.id for n in nodes}
    edges = _edges(data.get("edges", []), ids, lines, problems)
    return Canvas(tuple(nodes), tuple(edges)), problems


def parse_canvas(path: SrcPath, data: bytes, display: str) -> ParsedDoc:
    """A canvas file as a document: its links, and a ``bad-canvas`` per problem."""
    text, utf8 = decode(data)
    found: list[diag.Diagnostic] = []
    if not utf8:
        found.append(diag.make("bad-encoding", display, 1, 1,
                               "the file is not valid UTF-8 (re-save it as UTF-8)"))
    canvas, problems = read_canvas(text)
    for line, column, message in problems:
        found.append(diag.make("bad-canvas", display, line, column, message))
    return ParsedDoc(
        path=path,
        kind="canvas",
        digest=digest(data),
        links=tuple(canvas_links(path, canvas, display)),
        line_count=text.count("\n") + 1,
        diagnostics=tuple(found),
    )


def canvas_links(path: SrcPath, canvas: Canvas, display: str) -> list[LinkRef]:
    """File nodes as embeds, then the links of text nodes, each at its node's line."""
    links: list[LinkRef] = []
    for node in canvas.nodes:
        if node.kind == "file" and node.file:
            links.append(LinkRef("embed", node.file, node.subpath.lstrip("#"), None,
                                 node.line, 1, "embeds"))
        elif node.kind == "text" and "[" in node.text:
            links += [link._replace(line=node.line, column=1)
                      for link in text_node_links(path, node.text, display)]
    return links


def text_node_links(path: SrcPath, text: str, display: str) -> tuple[LinkRef, ...]:
    """The links written in a text node's Markdown, at their line and column in it."""
    return _scan(path, "", text, 1, fm.split(""), [], display).links


# -- checking ------------------------------------------------------------------------


class _Lines:
    """The line of each node's and edge's ``"id"`` in the file (for diagnostics), all
    found in one pass (a board of thousands of nodes is read in linear time)."""

    _ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")')

    def __init__(self, text: str) -> None:
        self._lines: dict[str, list[int]] = {}
        line, at = 1, 0
        for m in self._ID.finditer(text):
            line += text.count("\n", at, m.start())
            at = m.start()
            try:
                key = json.loads(m.group(1))
            except ValueError:
                continue
            self._lines.setdefault(key, []).append(line)
        for found in self._lines.values():
            found.reverse()  # popped from the end: first written, first taken

    def of(self, key: Any) -> int:
        found = self._lines.get(key) if isinstance(key, str) else None
        return found.pop() if found else 1


def _nodes(raw: Any, lines: _Lines, problems: list[Problem]) -> list[CanvasNode]:
    if not isinstance(raw, list):
        problems.append((1, 1, "\"nodes\" is not a list; the canvas shows no nodes"))
        return []
    if len(raw) > MAX_ITEMS:
        problems.append((1, 1, f"{len(raw)} nodes: only the first {MAX_ITEMS} are shown"))
    out: list[CanvasNode] = []
    seen: set[str] = set()
    for item in raw[:MAX_ITEMS]:
        line = lines.of(item.get("id") if isinstance(item, dict) else None)
        node, why = _node(item, line)
        if node is not None and node.id in seen:
            why = f"a second node with id {node.id!r}"
            node = None
        if node is None:
            problems.append((line, 1, f"node left out: {why}"))
            continue
        if why:
            problems.append((line, 1, why))
        seen.add(node.id)
        out.append(node)
    return out


def _node(item: Any, line: int) -> tuple[CanvasNode | None, str]:
    """A node, or None and why not; with a node, a note about what was ignored."""
    if not isinstance(item, dict):
        return None, "not a JSON object"
    node_id, kind = item.get("id"), item.get("type")
    if not isinstance(node_id, str) or not node_id:
        return None, "no \"id\" string"
    if kind not in NODE_TYPES:
        return None, f"\"type\" is {_show(kind)}, not one of {', '.join(NODE_TYPES)}"
    box: list[float] = []
    for key, limit, low in (("x", MAX_COORD, -MAX_COORD), ("y", MAX_COORD, -MAX_COORD),
                            ("width", MAX_SIZE, 1), ("height", MAX_SIZE, 1)):
        value: Any = item.get(key)
        if not _number(value) or not low <= value <= limit:
            return None, f"\"{key}\" is {_show(value)}, not a number from {low} to {limit}"
        box.append(float(value))
    color, note = _color(item.get("color"))
    fields = {k: item.get(k) for k in ("text", "file", "subpath", "url", "label")}
    for key, value in fields.items():
        if value is not None and not isinstance(value, str):
            return None, f"\"{key}\" is {_show(value)}, not a string"
    strings: dict[str, str] = {k: v or "" for k, v in fields.items()}
    if kind == "file" and not strings["file"]:
        return None, "a file node without \"file\""
    if kind == "link" and not re.match(r"^https?://", strings["url"], re.IGNORECASE):
        note = note or "only http(s) URLs are links"
    note = f"node {node_id!r}: {note}" if note else ""
    return CanvasNode(node_id, kind, box[0], box[1], box[2], box[3], line, color,
                      strings["text"], strings["file"], strings["subpath"], strings["url"],
                      strings["label"]), note


def _edges(raw: Any, ids: set[str], lines: _Lines, problems: list[Problem]
           ) -> list[CanvasEdge]:
    if not isinstance(raw, list):
        problems.append((1, 1, "\"edges\" is not a list; the canvas shows no edges"))
        return []
    out: list[CanvasEdge] = []
    for item in raw[:MAX_ITEMS]:
        line = lines.of(item.get("id") if isinstance(item, dict) else None)
        edge, why = _edge(item, ids, line)
        if edge is None:
            problems.append((line, 1, f"edge left out: {why}"))
            continue
        if why:
            problems.append((line, 1, why))
        out.append(edge)
    return out


def _edge(item: Any, ids: set[str], line: int) -> tuple[CanvasEdge | None, str]:
    if not isinstance(item, dict):
        return None, "not a JSON object"
    edge_id = item.get("id")
    if not isinstance(edge_id, str) or not edge_id:
        return None, "no \"id\" string"
    ends = []
    for key in ("fromNode", "toNode"):
        value = item.get(key)
        if not isinstance(value, str) or value not in ids:
            return None, f"\"{key}\" is {_show(value)}, not the id of a node"
        ends.append(value)
    notes = []
    sides: list[str | None] = []
    for key in ("fromSide", "toSide"):
        value = item.get(key)
        if value is not None and value not in SIDES:
            notes.append(f"\"{key}\" {_show(value)} ignored")
            value = None
        sides.append(value)
    arrows = []
    for key, default in (("fromEnd", "none"), ("toEnd", "arrow")):
        value = item.get(key, default)
        if value not in ENDS:
            notes.append(f"\"{key}\" {_show(value)} ignored")
            value = default
        arrows.append(value)
    color, note = _color(item.get("color"))
    label = item.get("label")
    if label is not None and not isinstance(label, str):
        notes.append(f"\"label\" {_show(label)} is not a string")
        label = None
    why = "; ".join(n for n in (*notes, note) if n)
    return CanvasEdge(edge_id, ends[0], ends[1], line, sides[0], sides[1], arrows[0],
                      arrows[1], color, label or ""), (f"edge {edge_id!r}: {why}" if why else "")


def _color(value: Any) -> tuple[str | None, str]:
    if value is None:
        return None, ""
    if isinstance(value, str) and _COLOR.match(value):
        if len(value) == 4:  # #abc -> #aabbcc
            value = "#" + "".join(c * 2 for c in value[1:])
        return value.lower(), ""
    return None, f"color {_show(value)} ignored: a preset \"1\" to \"6\" or a hex #rrggbb"


def _number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)[:40] if value is not None else "missing"
    return text

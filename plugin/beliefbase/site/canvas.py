"""A JSON Canvas board drawn as a page, and as an embed (``![[Board.canvas]]``).

The board is absolutely positioned HTML boxes over one SVG layer of edges, laid
out here from the canvas's coordinates (``codecs/canvas.py`` reads and checks
the file) and drawn by ``theme/canvas.html``; ``theme/assets/canvas.js`` pans and
zooms it (no library).  A text node is rendered by the page's own Markdown (wikilinks,
math, callouts), a file node as the embed of that note, section, block or image
(``PageRenderer.embed_html``: the same budget and cycle checks as ``![[...]]``; a
whole note with its Properties block, when the site and the note show it), a
link node as a link card, a group as a labelled frame.

Everything is rendered in a frame of the canvas's own document, nested, so every
href is a final URL relative to the page the board ends up in.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markdown.serializers import to_html_string
from markupsafe import Markup

from ..builder.documents import Document
from ..builder.resolve import ResolvedLink
from ..codecs.canvas import Canvas, CanvasEdge, CanvasNode, read_canvas
from ..codecs.grammar import FENCE_RUN
from ..codecs.mask import code_only_regions
from ..codecs.math import find_math

if TYPE_CHECKING:
    from .render import PageRenderer

PAD = 60  # px of board around the outermost nodes
ARROW = 13  # arrowhead length, px

#: a note's Properties block on the page at a URL, as the note's own page shows it
#: ("" when the note turns it off): ``PropertiesBlock.embedded_block``; None when
#: the site shows no Properties block (the plugin option ``properties: false``)
PropertiesOf = Callable[[Document, str], str] | None


@dataclass(frozen=True, slots=True)
class _Box:
    left: float
    top: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        return self.left + self.width / 2, self.top + self.height / 2


def canvas_page_html(renderer: PageRenderer, doc: Document, page_url: str,
                     properties: PropertiesOf) -> str:
    """The board of the canvas ``doc`` for its own page at ``page_url``."""
    renderer.begin_page(doc, page_url)
    try:
        return _board(renderer, doc, page_url, chain=((doc.path, 0),), embedded=False,
                      properties=properties)
    finally:
        renderer.end_page()


def canvas_embed_html(renderer: PageRenderer, resolution: ResolvedLink, doc: Document,
                      properties: PropertiesOf) -> str:
    """``![[Board.canvas]]`` in the current frame: the board, smaller, with a link."""
    frame = renderer.frame
    assert frame is not None
    chain = (*frame.chain, (frame.doc.path, resolution.link.line))
    if any(path == doc.path for path, _line in chain[:-1]) or frame.doc.path == doc.path or (
            len(chain) > renderer.compiled.options.embed_depth):
        return str(to_html_string(renderer.link_element(resolution)))
    return _board(renderer, doc, frame.host_url, chain=chain, embedded=True,
                  properties=properties)


def _board(renderer: PageRenderer, doc: Document, host_url: str,
           chain: tuple[tuple[Any, int], ...], embedded: bool,
           properties: PropertiesOf) -> str:
    from .render import Frame

    canvas, problems = read_canvas(renderer.read_text(doc.path))
    href = renderer.href(doc.path, None, final=True) if embedded else ""
    if canvas.error is not None or not canvas.nodes:
        return renderer.templates.render(
            "canvas.html", title=doc.title, href=href, embedded=embedded,
            error=canvas.error, empty=not canvas.nodes, problems=len(problems),
            width=0, height=0, nodes=[], edges=[], groups=[])
    boxes, width, height = _layout(canvas)
    files = {(r.link.line, r.link.target, r.link.fragment): r
             for r in renderer.compiled.links.get(doc.path, ()) if r.link.form == "embed"}
    renderer.frames.append(Frame(doc, host_url, chain, None))
    try:
        nodes = [_node(renderer, files, n, boxes[n.id], properties) for n in canvas.nodes]
    finally:
        renderer.frames.pop()
    return renderer.templates.render(
        "canvas.html", title=doc.title, href=href, embedded=embedded, error=None,
        empty=False, problems=len(problems), width=round(width), height=round(height),
        groups=[n for n in nodes if n["kind"] == "group"],
        nodes=[n for n in nodes if n["kind"] != "group"],
        edges=[_edge(e, boxes) for e in canvas.edges])


def _layout(canvas: Canvas) -> tuple[dict[str, _Box], float, float]:
    """Each node's box on the board (its top left at PAD, PAD), the board's size."""
    left = min(n.x for n in canvas.nodes)
    top = min(n.y for n in canvas.nodes)
    boxes = {n.id: _Box(n.x - left + PAD, n.y - top + PAD, n.width, n.height)
             for n in canvas.nodes}
    width = max(b.left + b.width for b in boxes.values()) + PAD
    height = max(b.top + b.height for b in boxes.values()) + PAD
    return boxes, width, height


#: a board's compiled file-node links by (line, file, subpath without "#")
_Files = dict[tuple[int, str, str], ResolvedLink]


def _node(renderer: PageRenderer, files: _Files, node: CanvasNode, box: _Box,
          properties: PropertiesOf) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "id": node.id, "kind": node.kind, "left": round(box.left), "top": round(box.top),
        "width": round(box.width), "height": round(box.height),
        "preset": node.color if node.color and not node.color.startswith("#") else None,
        "hex": node.color if node.color and node.color.startswith("#") else None,
        "label": node.label, "content": None, "url": None, "file": None,
    }
    if node.kind == "text":
        depth = len(renderer.frame.chain) if renderer.frame else 1
        shown["content"] = Markup(renderer.render_markdown(without_html(node.text), depth))
    elif node.kind == "file":
        shown["file"] = posixpath.basename(node.file) + node.subpath
        shown["content"] = Markup(_file_content(renderer, files, node, properties))
    elif node.kind == "link":
        if node.url.lower().startswith(("http://", "https://")):
            shown["url"] = node.url
        shown["label"] = node.url
    return shown


def _file_content(renderer: PageRenderer, files: _Files, node: CanvasNode,
                  properties: PropertiesOf) -> str:
    """The embed of a file node's target, as ``![[file#subpath]]`` would show it; a
    whole note, as Obsidian's canvas shows it, with its Properties block first (when
    the site and the note show one)."""
    fragment = node.subpath.lstrip("#")
    resolution = files.get((node.line, node.file, fragment))
    if resolution is None:  # not compiled at this line: resolved as the compile would
        resolution = renderer.lookup("embed", node.file, fragment, None)
    block = ""
    target = renderer.compiled.documents.get(resolution.target) if (
        resolution.status == "ok" and resolution.target and not resolution.is_asset) else None
    if properties is not None and target is not None and target.kind == "markdown" and (
            not resolution.anchor):
        frame = renderer.frame
        block = properties(target, frame.host_url if frame else "")
    out = renderer.embed_html(resolution, properties=block)
    return out if isinstance(out, str) else str(to_html_string(out))


#: ``<`` opening an HTML tag, comment or declaration (not an autolink ``<https://…>``)
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])(?!(?:https?|mailto):)", re.IGNORECASE)


def without_html(text: str) -> str:
    """A text node's Markdown with its raw HTML shown as text: a board is drawn inside
    our page, and a ``<script>`` or a stray ``</div>`` in a node must not act there.
    Code and math are left as written (``&lt;`` would show there literally)."""
    if "<" not in text:
        return text
    keep = [(start, end) for start, end in code_only_regions(text)
            if _closed(text[start:end])]
    if "$" in text:
        keep = sorted(keep + [(f.start, f.end) for f in find_math(text, keep)])
    if "[[" in text:  # a wikilink's text is shown as text (AtomicString) already
        keep = sorted(keep + [m.span() for m in _WIKILINK.finditer(text)])
    out: list[str] = []
    at = 0
    for start, end in keep:
        if start < at:
            continue
        out.append(_TAG_START.sub("&lt;", text[at:start]))
        out.append(text[start:end])
        at = end
    out.append(_TAG_START.sub("&lt;", text[at:]))
    return "".join(out)


_WIKILINK = re.compile(r"!?\[\[[^\[\]\n]*\]\]")
_FENCE = re.compile(r"[ \t]{0,3}(" + FENCE_RUN + ")")


def _closed(region: str) -> bool:
    """Whether the Markdown renders ``region`` (a code span, a fence, an indented
    block or an HTML comment) as code or a comment: a fence or a comment that
    never closes is text to Python-Markdown (and an open comment would hide the
    rest of our page), so whatever HTML is in it must be escaped."""
    if region.startswith("<!--"):
        return region.endswith("-->")
    opening = _FENCE.match(region)
    if opening is None:
        return True
    last = region.rstrip("\n").rpartition("\n")[2].strip()
    fence = opening.group(1)
    return "\n" in region.rstrip("\n") and last.startswith(fence[0] * len(fence)) and (
        not last.strip(fence[0]))


# -- edges ---------------------------------------------------------------------------

_NORMAL = {"top": (0.0, -1.0), "bottom": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


def _edge(edge: CanvasEdge, boxes: dict[str, _Box]) -> dict[str, Any]:
    """An edge's SVG path (a cubic curve leaving each side along its normal), its
    arrowheads and the place of its label."""
    a, b = boxes[edge.from_node], boxes[edge.to_node]
    side_a = edge.from_side or _facing(a, b)
    side_b = edge.to_side or _facing(b, a)
    p0, p3 = _anchor(a, side_a), _anchor(b, side_b)
    reach = min(max(math.dist(p0, p3) * 0.4, 40.0), 300.0)
    n0, n3 = _NORMAL[side_a], _NORMAL[side_b]
    # the curve ends where an arrowhead starts, so the head's tip is on the box
    end0 = _shift(p0, n0, ARROW) if edge.from_end == "arrow" else p0
    end3 = _shift(p3, n3, ARROW) if edge.to_end == "arrow" else p3
    c1, c2 = _shift(p0, n0, reach), _shift(p3, n3, reach)
    mid = tuple(0.125 * s + 0.375 * t + 0.375 * u + 0.125 * v
                for s, t, u, v in zip(p0, c1, c2, p3, strict=True))
    heads = []
    if edge.from_end == "arrow":
        heads.append(_head(p0, n0))
    if edge.to_end == "arrow":
        heads.append(_head(p3, n3))
    return {
        "id": edge.id,
        "d": f"M{_pt(end0)} C{_pt(c1)} {_pt(c2)} {_pt(end3)}",
        "heads": heads, "label": edge.label, "label_x": round(mid[0]),
        "label_y": round(mid[1]),
        "preset": edge.color if edge.color and not edge.color.startswith("#") else None,
        "hex": edge.color if edge.color and edge.color.startswith("#") else None,
    }


def _facing(box: _Box, other: _Box) -> str:
    """The side of ``box`` that faces ``other`` (an edge that names no side)."""
    (x0, y0), (x1, y1) = box.center, other.center
    dx, dy = x1 - x0, y1 - y0
    if abs(dx) * box.height >= abs(dy) * box.width:
        return "right" if dx >= 0 else "left"
    return "bottom" if dy >= 0 else "top"


def _anchor(box: _Box, side: str) -> tuple[float, float]:
    cx, cy = box.center
    return {"top": (cx, box.top), "bottom": (cx, box.top + box.height),
            "left": (box.left, cy), "right": (box.left + box.width, cy)}[side]


def _shift(p: tuple[float, float], n: tuple[float, float], by: float) -> tuple[float, float]:
    return p[0] + n[0] * by, p[1] + n[1] * by


def _head(tip: tuple[float, float], n: tuple[float, float]) -> str:
    """An arrowhead's polygon points: its tip on the box, pointing into it (-n)."""
    base = _shift(tip, n, ARROW)
    half = ARROW * 0.5
    left = (base[0] - n[1] * half, base[1] + n[0] * half)
    right = (base[0] + n[1] * half, base[1] - n[0] * half)
    return " ".join(_pt(p) for p in (tip, left, right))


def _pt(p: tuple[float, float]) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"

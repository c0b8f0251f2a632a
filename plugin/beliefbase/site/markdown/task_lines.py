"""A dashboard's task lines as their note's page renders them (issue 27): each line
through the pages' own Markdown, in a frame of its note nested in the page being
rendered.  Apart from ``site/dashboards.py`` so a build without a base or a
Dataview query never imports the engines."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from markupsafe import Markup

from ...builder.documents import Document
from ...builder.embeds import Chain
from ...ids import SrcPath
from ..canvas import without_html
from ..render import Frame, PageRenderer

# A paragraph, and nothing else: what one line of inline Markdown renders as.
_ONE_PARAGRAPH = re.compile(r"\A\s*<p>(?P<inner>.*)</p>\s*\Z", re.DOTALL)
# Each paragraph of lines converted at once.
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
# Put before a line that would otherwise start a block (a heading, a quote, a list
# item, a rule): WORD JOINER, invisible, taken off the result again.
_INLINE_ONLY = "\u2060"


#: ``Dashboards.render_lines``: (a note's path, its (file line, text) pairs) -> each
#: text's HTML, None where it has none
LineRenderer = Callable[[SrcPath, Sequence[tuple[int, str]]], list[Markup | None]]


def line_renderer(renderer: PageRenderer) -> LineRenderer:
    """``Dashboards.render_lines`` for the pages ``renderer`` renders: each ``text``,
    found at its file line of the note at ``path``, through the pages' own Markdown
    (its links, embeds, tags, math, inline fields and their CSS classes) in a frame
    of that note nested in the page (so links resolve as the note wrote them, with
    the titles of today's targets, and their hrefs lead there from the page); its
    inline HTML only, never a block; raw HTML shown as text (as a canvas's text: the
    line is drawn inside another page).  None: no page is being rendered, or no
    such note.

    A note's lines are converted at once, a paragraph each (a conversion costs
    about as much as a line's HTML: a roll-up of thousands of tasks took seconds
    line by line); when that gives anything but one paragraph per line (a line
    that starts a block: ``# x``, a fence, a definition), line by line."""
    starts: dict[SrcPath, list[int]] = {}  # each note's line starts, read once

    def one(doc: Document, host: Frame, chain: Chain, line: int, text: str) -> Markup | None:
        if doc.path not in starts:
            note = renderer.read_text(doc.path)
            starts[doc.path] = [0, *(m.end() for m in re.finditer("\n", note))]
        offset = _line_offset(renderer.read_text(doc.path), starts[doc.path], line, text)
        text = without_html(text)
        for lead in ("", _INLINE_ONLY):
            html = convert(doc, host, chain, lead + text,
                           None if offset is None else offset - len(lead))
            m = _ONE_PARAGRAPH.match(html)
            if m is not None and "<p>" not in m["inner"]:
                return Markup(m["inner"].removeprefix(lead).strip())  # noqa: S704 - rendered
        return None

    def convert(doc: Document, host: Frame, chain: Chain, source: str,
                offset: int | None) -> str:
        renderer.frames.append(Frame(doc, host.host_url, chain, offset))
        try:
            return renderer.render_markdown(source, len(chain))
        finally:
            renderer.frames.pop()

    def render(path: SrcPath, lines: Sequence[tuple[int, str]]) -> list[Markup | None]:
        host = renderer.frame
        doc = renderer.compiled.documents.get(path)
        if host is None or doc is None:
            return [None] * len(lines)
        chain = (*host.chain, (host.doc.path, 0))
        wanted = [(line, text) for line, text in lines if text.strip()]
        if len(wanted) > 1:
            html = convert(doc, host, chain,
                           "\n\n".join(without_html(text) for _, text in wanted), None)
            found = _PARAGRAPH.findall(html)
            if len(found) == len(wanted) and not _PARAGRAPH.sub("", html).strip():
                shown = {key: Markup(inner.strip())  # noqa: S704 - rendered
                         for key, inner in zip(wanted, found, strict=True)}
                return [shown.get(pair) for pair in lines]
        return [one(doc, host, chain, line, text) if text.strip() else None
                for line, text in lines]

    return render


def _line_offset(note: str, starts: list[int], line: int, text: str) -> int | None:
    """Where ``text`` (the end of file line ``line``) starts in ``note``; ``starts``:
    where each of its lines starts."""
    if not 0 < line <= len(starts):
        return None
    end = starts[line] - 1 if line < len(starts) else len(note)
    written = note[starts[line - 1]:end].rstrip()
    if not written.endswith(text):
        return None
    return starts[line - 1] + len(written) - len(text)

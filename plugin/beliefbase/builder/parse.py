"""The parse stage: every source through its codec, in several processes when many.

The compiler (``compile/compiler.py``) calls ``parse_many`` with the sources the
parse cache does not know.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..codecs.base import parse_base_file
from ..codecs.canvas import parse_canvas
from ..codecs.markdown import parse_markdown_text
from ..codecs.model import ParsedDoc
from ..codecs.toml_node import parse_toml
from ..ids import SrcPath
from .parallel import map_if_it_pays
from .texts import DecodedTexts


def parse_source(path: SrcPath, kind: str, data: bytes, display: str
                 ) -> tuple[ParsedDoc, str | None]:
    """Run the codec for one source file; a note's text as it decoded it too."""
    if kind == "markdown":
        return parse_markdown_text(path, data, display)
    if kind == "canvas":  # a JSON Canvas board (codecs/canvas.py)
        return parse_canvas(path, data, display), None
    if kind == "base":  # an Obsidian base (codecs/base.py; evaluated by the site)
        return parse_base_file(path, data, display), None
    return parse_toml(path, data, display, "network" if kind == "network" else "toml"), None


_Job = tuple[SrcPath, str, bytes, str]


def _parse_job(job: _Job, keep_text: bool) -> tuple[ParsedDoc, str | None]:
    """``parse_source``, with the note's text only if the build keeps texts: the
    page, its embeds, the entities and the panels then read the note from it, not
    from disk again (a worker sends it back with its parse)."""
    doc, text = parse_source(*job)
    return doc, text if keep_text else None


#: Below this many files to parse, other processes cost more than they save.
POOL_THRESHOLD = 300


def parse_many(jobs: Sequence[_Job], workers: int = 0, texts: DecodedTexts | None = None
               ) -> list[ParsedDoc]:
    """Parse ``jobs`` in order; in several processes when there are enough of them.

    ``workers``: 0 = one per CPU (at most 4), 1 = in this process.  The output
    is the same either way: parsing is a pure function of the bytes.  ``texts``:
    where the notes' decoded texts go, if the compile keeps them.
    """
    parse = functools.partial(_parse_job, keep_text=texts is not None and texts.keeping)
    parsed = map_if_it_pays(parse, jobs, POOL_THRESHOLD, workers)
    if parsed is None:
        parsed = [parse(job) for job in jobs]
    for doc, text in parsed:
        if text is not None and texts is not None:
            texts.keep(doc.path, doc.digest, text)
    return [doc for doc, _text in parsed]

"""The parse stage: every source through its codec, in several processes when many.

The compiler (``compile/compiler.py``) calls ``parse_many`` with the sources the
parse cache does not know.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..codecs.markdown import DECODED, parse_markdown
from ..codecs.model import ParsedDoc
from ..codecs.toml_node import parse_toml
from ..ids import SrcPath
from .parallel import map_if_it_pays


def parse_source(path: SrcPath, kind: str, data: bytes, display: str) -> ParsedDoc:
    """Run the codec for one source file."""
    if kind == "markdown":
        return parse_markdown(path, data, display)
    return parse_toml(path, data, display, "network" if kind == "network" else "toml")


_Job = tuple[SrcPath, str, bytes, str]


def _parse_job(job: _Job) -> ParsedDoc:
    return parse_source(*job)


def _parse_job_with_text(job: _Job) -> tuple[ParsedDoc, str | None]:
    """``_parse_job`` in a worker, with the note's text as it decoded it (if a build keeps
    texts: ``DECODED`` is open), for the build to keep: the page, its embeds, the
    entities and the panels then read the note from it, not from disk again."""
    doc = parse_source(*job)
    return doc, DECODED.take(doc.path, doc.digest)


#: Below this many files to parse, other processes cost more than they save.
POOL_THRESHOLD = 300


def parse_many(jobs: Sequence[_Job], workers: int = 0) -> list[ParsedDoc]:
    """Parse ``jobs`` in order; in several processes when there are enough of them.

    ``workers``: 0 = one per CPU (at most 4), 1 = in this process.  The output
    is the same either way: parsing is a pure function of the bytes.
    """
    parsed = map_if_it_pays(_parse_job_with_text, jobs, POOL_THRESHOLD, workers)
    if parsed is None:
        return [_parse_job(job) for job in jobs]
    for doc, text in parsed:
        if text is not None:  # (a worker's DECODED is its own: the text comes back here)
            DECODED.keep(doc.path, doc.digest, text)
    return [doc for doc, _text in parsed]

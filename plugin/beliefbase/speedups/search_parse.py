"""Material's parse of pages for its search index: the search offload's worker.

``search_offload.py`` starts a fresh interpreter that runs this file by its path,
not as ``beliefbase.speedups.search_parse``: importing the package would import
every speed-up and what they import (53 of our modules, 0.05 s of the worker's
start at every build) for a loop that needs only ``pickle`` and Material's
``Parser``.  So nothing here imports beliefbase.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any

#: (tag, attributes, depth, id, title parts, text parts) of one kept section
Section = tuple[str, dict[str, Any], int, Any, list[str], list[str]]


def parse_pages(pages: list[str]) -> list[list[Section]]:
    """Material's parse of each page, as plain tuples (cheap to send)."""
    return [[(s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text)
             for s in _parse(html) if not s.is_excluded()] for html in pages]


def _parse(html: str) -> list[Any]:
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(html)
    parser.close()
    return list(parser.data)


def serve() -> None:
    """The worker: (key, pages) batches in on stdin, (key, sections) out, until the end.

    Answers go through a buffered writer of its own: with ``PYTHONUNBUFFERED`` set
    (common in containers) ``sys.stdout.buffer`` is the raw file, whose ``write``
    may write part of an answer when a signal interrupts it (a stop and continue,
    a profiler attaching) and ``pickle.dump`` drops the rest; the build read a
    garbled stream.  A buffered writer writes what is left."""
    source = sys.stdin.buffer
    sink = open(sys.stdout.fileno(), "wb", closefd=False)  # noqa: SIM115 - for the worker's life
    while True:
        try:
            key, pages = pickle.load(source)  # noqa: S301 - from the process that started us
        except EOFError:
            return
        pickle.dump((key, parse_pages(pages)), sink, pickle.HIGHEST_PROTOCOL)
        sink.flush()

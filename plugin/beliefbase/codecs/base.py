"""The Obsidian Bases file codec: a ``*.base`` file (YAML) as a document.

A base is a page of its own (``X.base/``), found by ``[[X.base]]`` and embedded
by ``![[X.base]]``.  This codec only makes its ``ParsedDoc``: the YAML is read,
checked and evaluated by the ``bases`` engine when the site renders it
(``site/dashboards.py``), which reports ``base-error`` at file:line; a base has no
links of its own (its results link, not the file).
"""

from __future__ import annotations

from .. import diagnostics as diag
from ..ids import SrcPath
from .markdown import decode, digest
from .model import ParsedDoc


def parse_base_file(path: SrcPath, data: bytes, display: str) -> ParsedDoc:
    """A ``.base`` file as a document of kind ``base`` (no links, no frontmatter)."""
    text, utf8 = decode(data)
    found: list[diag.Diagnostic] = []
    if not utf8:
        found.append(diag.make("bad-encoding", display, 1, 1,
                               "the file is not valid UTF-8 (re-save it as UTF-8)"))
    return ParsedDoc(path=path, kind="base", digest=digest(data),
                     line_count=text.count("\n") + 1, diagnostics=tuple(found))

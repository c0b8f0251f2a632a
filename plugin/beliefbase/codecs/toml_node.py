"""TOML codecs: standalone ``*.toml`` node files and ``BeliefNetwork.toml``.

A node file is a note without prose: its table holds the same fields as
frontmatter (``title``, ``schema``, relations written as wikilinks, ...).
A network file declares a sub-knowledge-base: ``id``, ``title``, ``bid``.
"""

from __future__ import annotations

import tomllib
from typing import Any

from .. import diagnostics as diag
from ..ids import SrcPath
from . import frontmatter as fm
from .markdown import decode, digest, meta_links
from .model import DocKind, ParsedDoc


def parse_toml(path: SrcPath, data: bytes, display: str, kind: DocKind = "toml") -> ParsedDoc:
    """Parse a node file or a BeliefNetwork.toml; bad TOML is a diagnostic."""
    text, utf8 = decode(data)
    found: list[diag.Diagnostic] = []
    if not utf8:
        found.append(diag.make("bad-encoding", display, 1, 1,
                               "the file is not valid UTF-8 (re-save it as UTF-8)"))
    table: dict[str, Any] = {}
    bad = False
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        err = fm.toml_error(exc, first_line=1)
        bad = True
        found.append(diag.make(
            "bad-frontmatter", display, err.line, err.column,
            f"{err.message}; the node keeps only its file name until this is fixed",
        ))
    except RecursionError:
        bad = True
        found.append(diag.make("bad-frontmatter", display, 1, 1, "TOML nested too deeply"))
    lines = fm.key_lines(text, first_line=1) if table else {}
    return ParsedDoc(
        path=path,
        kind=kind,
        digest=digest(data),
        meta=table,
        frontmatter_format="toml",
        links=tuple(meta_links(table, lines)),
        meta_lines=lines,
        bad_frontmatter=bad,
        line_count=text.count("\n") + 1,
        diagnostics=tuple(found),
    )

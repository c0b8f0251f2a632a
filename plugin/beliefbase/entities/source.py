"""The entity index of a compile, made once per ``Compiled`` (until the compile
carries ``compiled.entities``: then this is where the compiler calls it).

The graph, the overlay and the entity pages all ask ``compile_entities(compiled)``
and get the same index.  Each note's manual mentions are kept by path and
content digest between compiles (``mkdocs serve``), so a rebuild reads again
only the notes that changed.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from .. import diagnostics as diag
from ..codecs.markdown import DECODED, note_text
from ..ids import SrcPath, url_for_src
from .index import EntityIndex, _Note, build_index, note_of

if TYPE_CHECKING:
    from ..builder import Compiled

_last: tuple[weakref.ref[Compiled], EntityIndex, list[diag.Diagnostic]] | None = None
_notes: dict[SrcPath, tuple[str, _Note]] = {}  # path -> (digest, its parse)


def compile_entities(compiled: Compiled) -> tuple[EntityIndex, list[diag.Diagnostic]]:
    """The ``EntityIndex`` of ``compiled`` and its diagnostics (cached per compile)."""
    global _last
    if _last is not None and _last[0]() is compiled:
        return _last[1], _last[2]
    docs_dir = Path(compiled.options.docs_dir)
    notes: list[_Note] = []
    seen: dict[SrcPath, tuple[str, _Note]] = {}
    for path, doc in compiled.documents.items():
        if not doc.published or doc.kind != "markdown":
            continue
        digest = doc.parsed.digest
        kept = _notes.get(path)
        if kept is None or kept[0] != digest:
            text = DECODED.peek(path, digest)  # as the parse decoded it
            if text is None:
                try:
                    text, _ok = note_text((docs_dir / path).read_bytes())
                except OSError:
                    continue
            kept = (digest, note_of(path, text[doc.parsed.body_offset:], doc.parsed.body_line))
        seen[path] = kept
        notes.append(kept[1])
    _notes.clear()
    _notes.update(seen)
    index, found = build_index(notes, compiled.options.display, auto=compiled.options.auto_entities)
    _last = (weakref.ref(compiled), index, found)
    return index, found


def entity_src(root: str, slug: str) -> SrcPath:
    """The source path of an entity's generated page (``entities/smaug.md``)."""
    return SrcPath(f"{root.strip('/')}/{slug}.md" if root.strip("/") else f"{slug}.md")


def index_src(root: str) -> SrcPath:
    return entity_src(root, "index")


def entity_url(compiled: Compiled, slug: str) -> str:
    """The site-relative URL of an entity's page."""
    options = compiled.options
    return url_for_src(entity_src(options.entities_page, slug), options.use_directory_urls)

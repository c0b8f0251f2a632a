"""The entity stage of the compile: ``EntityStage.run(documents, texts, options)``
makes the project's ``EntityIndex`` (``compiled.entities``) and its diagnostics.

The graph, the overlay and the entity pages all read ``compiled.entities``.
The ``Compiler`` keeps one ``EntityStage``: each note's parse for entities is
kept by path and content digest between compiles (``mkdocs serve``), so a
rebuild reads again only the notes that changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .. import diagnostics as diag
from ..codecs.markdown import note_text
from ..ids import SrcPath, url_for_src
from .index import EntityIndex, _Note, build_index, note_of

if TYPE_CHECKING:
    from ..builder import CompileOptions
    from ..builder.documents import Document
    from ..builder.texts import DecodedTexts

class EntityStage:
    """Makes each compile's ``EntityIndex``; kept by the ``Compiler`` across compiles."""

    def __init__(self) -> None:
        self._notes: dict[SrcPath, tuple[str, _Note]] = {}  # path -> (digest, its parse)

    def run(self, documents: Mapping[SrcPath, Document], texts: DecodedTexts,
            options: CompileOptions) -> tuple[EntityIndex, list[diag.Diagnostic]]:
        """The ``EntityIndex`` of the published notes of ``documents`` (``texts``: as
        the parse decoded them), and its diagnostics."""
        index, found, self._notes = _index(documents, texts, options, self._notes)
        return index, found

    def release_bodies(self) -> None:
        """A one-off build (no compile follows): forget every note kept for the next
        compile (the index keeps the bodies of notes with mentions only).  A later
        compile reads the notes again."""
        self._notes = {}


def _index(documents: Mapping[SrcPath, Document], texts: DecodedTexts,
           options: CompileOptions, known: dict[SrcPath, tuple[str, _Note]]
           ) -> tuple[EntityIndex, list[diag.Diagnostic], dict[SrcPath, tuple[str, _Note]]]:
    docs_dir = Path(options.docs_dir)
    notes: list[_Note] = []
    seen: dict[SrcPath, tuple[str, _Note]] = {}
    for path, doc in documents.items():
        if not doc.published or doc.kind != "markdown":
            continue
        digest = doc.parsed.digest
        kept = known.get(path)
        if kept is None or kept[0] != digest:
            text = texts.peek(path, digest)  # as the parse decoded it
            if text is None:
                try:
                    text, _ok = note_text((docs_dir / path).read_bytes())
                except OSError:
                    continue
            kept = (digest, note_of(path, text[doc.parsed.body_offset:], doc.parsed.body_line))
        seen[path] = kept
        notes.append(kept[1])
    index, found = build_index(notes, options.display, auto=options.auto_entities)
    return index, found, seen


def entity_src(root: str, slug: str) -> SrcPath:
    """The source path of an entity's generated page (``entities/smaug.md``)."""
    return SrcPath(f"{root.strip('/')}/{slug}.md" if root.strip("/") else f"{slug}.md")


def index_src(root: str) -> SrcPath:
    return entity_src(root, "index")


def entity_url(options: CompileOptions, slug: str) -> str:
    """The site-relative URL of an entity's page."""
    return url_for_src(entity_src(options.entities_page, slug), options.use_directory_urls)

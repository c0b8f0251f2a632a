"""The compile's belief stage: every sidecar verified against the compiled pages.

Part of the one compile (``Compiler.compile``), so ``beliefbase check`` and the
build report the same ``belief-*`` diagnostics.  The SQLite index
(``cache_dir/beliefs.sqlite``) is an output and stays with the site and the
belief commands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from datetime import date

from ..beliefs.facts import PageFacts, page_candidates
from ..beliefs.model import BeliefSet
from ..beliefs.verify import verify_project
from ..builder import CompileOptions, SourceFile
from ..builder.documents import Document
from ..ids import SrcPath


def page_facts(documents: Mapping[SrcPath, Document], display: Callable[[str], str]
               ) -> dict[str, PageFacts]:
    """What the belief verifier needs to know about each page of a compile."""
    facts: dict[str, PageFacts] = {}
    for doc in documents.values():
        parsed = doc.parsed
        facts[doc.path] = PageFacts(
            path=doc.path,
            display=display(doc.path),
            url=doc.url,
            network=doc.network.id,
            published=doc.published,
            anchors=frozenset(s.anchor for s in doc.sections),
            footnote_refs=tuple((f.id, f.line, f.column) for f in parsed.footnote_refs),
            footnote_defs=tuple((f.id, f.line, f.column) for f in parsed.footnote_defs),
        )
    return facts


def verify_beliefs(sidecars: Sequence[SourceFile], documents: Mapping[SrcPath, Document],
                   options: CompileOptions, today: date) -> BeliefSet:
    """Every sidecar checked against the pages of ``documents`` and raw_dir."""
    opts = options
    raw_dir = opts.raw_dir or opts.project_dir / "raw"
    paths = [s.abs_path for s in sidecars]
    # only a sidecar asks about pages (gathering them is felt in a large vault's rebuild)
    pages = page_facts(documents, opts.display) if paths else {}
    return verify_project(paths, pages, opts.docs_dir, raw_dir, opts.project_dir, today)


def draft_sidecars(sidecars: Sequence[SourceFile], drafts: Set[SrcPath],
                   display: Callable[[str], str]) -> set[str]:
    """Display paths of the sidecars of draft pages (their diagnostics are not public)."""
    return {display(s.path) for s in sidecars
            if any(SrcPath(p) in drafts for p in page_candidates(s.path))}

"""Pages the plugin makes (tags, folders, entities, recent notes, beliefs, the graph...).

Each is a ``GeneratedPage``: a MkDocs ``File`` whose Markdown is in memory and
whose HTML the plugin adds at ``on_page_content``.  MkDocs takes such a file
for modified in every ``--dirty`` build, since it has no source file to compare
with its output; under ``mkdocs serve --dirty`` that re-rendered every tag and
folder page after every save (95 of the 118 pages a body edit wrote at 1,000
notes).  A ``GeneratedPage`` marked ``unchanged`` (``Invalidation.keep_unchanged``:
what it shows is what the last build showed) is skipped like a note whose
source is older than its page, and rendered again once its output is gone.
"""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, InclusionLevel


class GeneratedPage(File):
    """A page the plugin makes; rendered again in a ``--dirty`` build unless
    ``unchanged`` and its output is still there."""

    unchanged = False

    def is_modified(self) -> bool:
        if self.unchanged and os.path.isfile(self.abs_dest_path):
            return False
        return super().is_modified()


def generated_page(config: MkDocsConfig, src: str, markdown: str = "",
                   inclusion: InclusionLevel = InclusionLevel.UNDEFINED) -> GeneratedPage:
    """The generated page ``src`` with its (fixed) ``markdown``."""
    page = GeneratedPage.generated(config, src, content=markdown, inclusion=inclusion)
    assert isinstance(page, GeneratedPage)
    return page

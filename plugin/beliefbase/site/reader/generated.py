"""Pages the build adds to MkDocs' files (tags, entities, folders, recent notes).

Each is an empty Markdown page whose HTML comes from a template, added only where
no page of the site already has its source path or URL: that page is kept and
links go to it.  A ``--dirty`` rebuild removes the output of generated pages
that are gone, by ``dest_uris``.
"""

from __future__ import annotations

from collections.abc import Iterable

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel

from ...ids import SrcPath, dest_for_src
from ..generated_page import generated_page


class GeneratedPages:
    """Adds generated pages to one build's ``files``, never over a page of the site."""

    def __init__(self, files: Files, config: MkDocsConfig) -> None:
        self.files = files
        self.config = config
        self.taken = {f.url for f in files}  # the site's own pages, before ours

    def add(self, src: str, listed: bool = False) -> tuple[File, bool]:
        """The page ``src`` (in the navigation when ``listed``) and whether it was
        added: not where a page of the site has that source path or URL."""
        file = generated_page(self.config, src, inclusion=InclusionLevel.INCLUDED if listed
                              else InclusionLevel.NOT_IN_NAV)
        if self.files.get_file_from_path(src) is not None or file.url in self.taken:
            return file, False
        self.files.append(file)
        return file, True


def dest_uris(srcs: Iterable[str], use_directory_urls: bool) -> set[str]:
    """The output paths of the generated pages ``srcs``."""
    return {dest_for_src(SrcPath(src), use_directory_urls) for src in srcs}

"""``ids``: the URL and output path of a page, as MkDocs' own ``File`` computes them."""

from __future__ import annotations

import pytest
from beliefbase.ids import SrcPath, dest_for_src, url_for_src
from mkdocs.structure.files import File

SOURCES = ["index.md", "README.md", "a.md", "notes/b.md", "notes/index.md", "notes/README.md",
           "deep/er/c d.md", "naïve 100%.md", "x/y.markdown.md"]
# MkDocs makes only ``index`` and ``README`` (as spelt) a folder's index page: a link to
# ``notes/readme.md`` must point where MkDocs writes it (``notes/readme/``).
OTHER_CASE = ["notes/readme.md", "x/Index.md", "README.md", "a/index.md", "Readme.md"]


@pytest.mark.parametrize("use_directory_urls", [True, False])
@pytest.mark.parametrize("src", SOURCES + OTHER_CASE)
def test_url_and_output_path_are_mkdocs_own(src: str, use_directory_urls: bool) -> None:
    mkdocs = File(src, "/docs", "/site", use_directory_urls)
    assert dest_for_src(SrcPath(src), use_directory_urls) == mkdocs.dest_uri
    assert url_for_src(SrcPath(src), use_directory_urls) == mkdocs.url

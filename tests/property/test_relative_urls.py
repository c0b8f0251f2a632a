"""Property: our fast relative paths and URLs are exactly the standard library's and MkDocs'."""

from __future__ import annotations

import posixpath

from beliefbase.site.render import relative_path
from beliefbase.speedups import nav_memo
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.utils import normalize_url

PATH_PARTS = st.sampled_from(["a", "b", "x.html", "index.html", "c d", ".", "..", ".h", "",
                              "é", "q?x", "#f", "h:", "\\", "a.b"])
PATHS = st.lists(PATH_PARTS, max_size=5).map("/".join) | st.sampled_from(["", "/", "//h/x"])


class _Page:
    def __init__(self, url: str) -> None:
        self.url = url


@given(page_url=PATHS, path=PATHS)
def test_fast_relative_urls_are_mkdocs_urls(page_url: str, path: str) -> None:
    url = nav_memo.PageLinks(page_url).relative(path)
    if url is not None:
        assert url == normalize_url(path, page=_Page(page_url))  # type: ignore[arg-type]


SEGMENTS = st.sampled_from(["a", "b", "c.md", ".", "..", "", "x y", "é"])
DOC_PATHS = st.lists(SEGMENTS, max_size=4).map("/".join)


@given(target=DOC_PATHS, folder=DOC_PATHS)
def test_relative_path_is_posix_relpath(target: str, folder: str) -> None:
    if target:
        assert relative_path(target, folder) == posixpath.relpath(target, folder or ".")

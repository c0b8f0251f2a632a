"""``speedups.link_memo``: MkDocs converts each link of a page once; the site and the
log are those of a build without it (a broken link is reported at each occurrence)."""

from __future__ import annotations

import shutil
from typing import Any

from beliefbase.speedups import link_memo
from mkdocs.structure import pages

from tests.conftest import differing


def test_the_same_site_and_the_same_warnings(project: Any, tmp_path: Any) -> None:
    project.write("index.md", "# Home\n\n" + "See [[Alpha]] and [a](alpha.md#part) #t.\n\n" * 50
                  + "[gone](missing.md) and [gone again](missing.md)\n\n[[Alpha#Nowhere]]\n",
                  dedent=False)
    project.write("alpha.md", "# Alpha\n\n## Part\n\nBack to [[Home]].\n", dedent=False)
    results = []
    for on in (True, False):
        result = project.build(plugins=["search", {"beliefbase": {"speedups": on}}])
        assert result.error is None
        results.append(result)
        if on:
            shutil.copytree(result.site, tmp_path / "on")
    assert not differing(tmp_path / "on", results[1].site)
    warned = [[line for line in r.all_lines if "'missing.md'" in line] for r in results]
    assert len(warned[0]) == len(warned[1]) == 2


def test_installed_once_and_put_back() -> None:
    mkdocs_own = pages._RelativePathTreeprocessor.path_to_url
    link_memo.install()
    link_memo.install()
    try:
        assert pages._RelativePathTreeprocessor.path_to_url is not mkdocs_own
    finally:
        link_memo.uninstall()
    assert pages._RelativePathTreeprocessor.path_to_url is mkdocs_own

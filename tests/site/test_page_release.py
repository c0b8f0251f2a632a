"""Pages' Markdown and HTML released once used: the same site, byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from beliefbase import plugin as plugin_module
from beliefbase.site import build as build_module

from tests.conftest import differing

# Titles from frontmatter, from the first H1, from the file name (no H1 at all),
# a home page, an embed of another page and links both ways: every page's title
# shows in every other page's navigation (Material's default navigation).
PAGES = {
    "index.md": "Home text with [[alpha]] and ![[beta#Part]].\n",
    "alpha.md": "---\ntitle: Alpha From Meta\n---\nAlpha links [[beta]].\n",
    "beta.md": "# Beta From H1\n\n## Part\n\nBeta part links [[no-h1-here]].\n",
    "no-h1-here.md": "Just text, no heading, links [[alpha]].\n",
    "sub/deeper.md": "## Only an h2\n\nText.\n",
}


@pytest.mark.parametrize("plugins", [["search", "beliefbase"],
                                     ["search", {"beliefbase": {"explorer": True}}]],
                         ids=["material-nav", "explorer"])
def test_released_pages_render_the_same_site(project: Any, tmp_path: Path, plugins: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for path, text in PAGES.items():
        project.write(path, text, dedent=False)
    sites = []
    for release in (True, False):
        monkeypatch.setattr(build_module, "pages_read_once",
                            lambda plugins, release=release: release)
        result = project.build(plugins=plugins)
        assert result.error is None
        copy = tmp_path / f"site-{release}"
        shutil.copytree(result.site, copy)
        sites.append(copy)
    assert differing(*sites) == []
    page = (sites[0] / "no-h1-here/index.html").read_text(encoding="utf-8")
    assert "<title>no-h1-here - " in page  # the title MkDocs gives it, not None
    if plugins[1] == "beliefbase":  # Material's navigation: every title in every page
        nav = page[page.index('class="md-nav md-nav--primary"'):]
        assert "Beta From H1" in nav and "Alpha From Meta" in nav and "deeper" in nav


def test_only_known_plugins_let_pages_go() -> None:
    from material.plugins.search.plugin import SearchPlugin

    ours = plugin_module.BeliefbasePlugin()
    assert build_module.pages_read_once({"search": SearchPlugin(), "bb": ours})

    class Other:  # a plugin that might read page.content in on_post_build
        pass

    assert not build_module.pages_read_once({"bb": ours, "other": Other()})

"""Issue 21: breadcrumbs on nested notes, folder pages, the default light/dark palette."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from beliefbase.project import load_config

from tests.conftest import differing

EXPLORER = ["search", {"beliefbase": {"explorer": True}}]
EVIL = "<img src=x onerror=alert(1)>"


def vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nWelcome.\n")
    project.write("rootnote.md", "# Root note\n\nAt the root.\n")
    project.write("projects/alpha.md", "---\ntitle: Alpha\n---\nAlpha is first. Then more.\n")
    project.write("projects/beta.md", "# Beta\n\nBeta text, e.g. this one. Second.\n")
    project.write("projects/secret.md", "---\ndraft: true\ntitle: Secret plan\n---\nHidden.\n")
    project.write("projects/sub/deep.md", "# Deep\n\nDeep down.\n")
    project.write("area/index.md", "# The Area\n\nThe area's own text.\n")
    project.write("area/gamma.md", "# Gamma\n\nGamma lives here.\n")


def crumbs(html: str) -> list[tuple[str, str | None]]:
    """(label, href or None) of each breadcrumb of a page."""
    row = re.findall(r'<nav class="bb-crumbs".*?</nav>', html, re.S)
    assert len(row) == 1, "one breadcrumb row"
    return [(label, href or None) for href, label in
            re.findall(r'<li>(?:<a href="([^"]*)">|<span[^>]*>)(.*?)</(?:a|span)></li>', row[0])]


def test_breadcrumbs_on_nested_notes(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build()
    assert result.error is None
    article = result.article("projects/sub/deep/")
    assert crumbs(article) == [("Home", "../../../"), ("projects", "../../../projects/"),
                               ("sub", "../../../projects/sub/"), ("Deep", None)]
    assert article.index("bb-crumbs") < article.index("<h1")  # above the title
    # a note without a heading gets its title under the row (not the theme's, above it)
    beta = result.article("projects/alpha/")
    assert beta.index("bb-crumbs") < beta.index('<h1 class="bb-title">Alpha</h1>')
    assert beta.count("<h1") == 1
    # a folder note stands for its folder: its own title last
    assert crumbs(result.article("area/")) == [("Home", "../"), ("The Area", None)]
    assert crumbs(result.article("area/gamma/"))[1] == ("The Area", "../../area/")
    for url in ("", "rootnote/"):  # no row at the root
        assert "bb-crumbs" not in result.article(url)


def test_breadcrumbs_with_the_explorer_are_in_the_content(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(plugins=EXPLORER)
    assert result.error is None
    page = result.page("projects/sub/deep/")
    assert "bb-explorer__crumbs" not in page  # no second row hidden in the sidebar
    assert [c[0] for c in crumbs(result.article("projects/sub/deep/"))] == [
        "Home", "projects", "sub", "Deep"]


def test_breadcrumbs_without_directory_urls(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(use_directory_urls=False)
    assert result.error is None
    article = result.article("projects/sub/deep.html")
    assert crumbs(article) == [("Home", "../../index.html"),
                               ("projects", "../../projects/index.html"),
                               ("sub", "../../projects/sub/index.html"), ("Deep", None)]
    assert (result.site / "projects/sub/index.html").exists()


def test_folder_pages(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build()
    assert result.error is None
    page = result.article("projects/")
    assert "<h1>projects</h1>" in page
    entries = re.findall(r'<li class="bb-folder__entry[^"]*"><a href="([^"]*)">(.*?)</a>', page)
    assert entries == [("../projects/sub/", "sub/"), ("../projects/alpha/", "Alpha"),
                       ("../projects/beta/", "Beta")]  # folders first, then by title
    assert '<p class="bb-folder__description">Alpha is first.</p>' in page
    assert '<p class="bb-folder__description">Beta text, e.g. this one.</p>' in page
    assert "Secret" not in page and "secret" not in page  # drafts nowhere
    assert crumbs(page) == [("Home", "../"), ("projects", None)]
    nested = result.article("projects/sub/")
    assert crumbs(nested)[-2:] == [("projects", "../../projects/"), ("sub", None)]
    assert "Deep down." in nested
    # a folder note keeps its text and gets the listing under it
    area = result.article("area/")
    assert area.index("The area's own text.") < area.index('class="bb-folder"')
    assert 'href="../area/gamma/">Gamma</a>' in area
    # not in the site search, not in Material's navigation
    search = (result.site / "search/search_index.json").read_text()
    assert '"location":"projects/"' not in search.replace(" ", "")
    assert 'href="projects/"' not in result.page("")
    # neither the breadcrumbs nor a folder note's listing are searched as its text
    entries = {e["location"]: e["text"] for e in json.loads(search)["docs"]}
    assert entries["projects/sub/deep/"] == "" and "Home" not in str(entries)
    assert "Gamma lives here" not in entries["area/#the-area"]
    assert "own text" in entries["area/#the-area"]


def test_folder_pages_off(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(plugins=["search", {"beliefbase": {"folder_pages": False}}])
    assert result.error is None
    assert not (result.site / "projects/index.html").exists()
    assert crumbs(result.article("projects/alpha/"))[1] == ("projects", None)  # no link
    assert "bb-folder" not in result.article("area/")


def test_hostile_names_are_escaped(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    project.write("x<b>/evil.md", f"---\ntitle: '{EVIL}'\n---\nIf 1 < 2 & 3 > 0 then. More.\n")
    result = project.build()
    assert result.error is None
    # the note's body is its author's HTML; its title and folder are text everywhere
    assert "<img src=x" not in result.page("x<b>/")
    row = re.findall(r'<nav class="bb-crumbs".*?</nav>', result.page("x<b>/evil/"), re.S)[0]
    assert "<img" not in row and "<b>" not in row and "x&lt;b&gt;" in row
    folder = result.article("x<b>/")
    assert "If 1 &lt; 2 &amp; 3 &gt; 0 then.</p>" in folder  # the first sentence
    assert "&lt;img src=x onerror=alert(1)&gt;</a>" in folder
    assert "<h1>x&lt;b&gt;</h1>" in folder


@pytest.mark.parametrize("plugins", [["search", "beliefbase"], EXPLORER])
def test_dirty_rebuild_updates_folder_pages(project, plugins) -> None:  # type: ignore[no-untyped-def]
    # with the explorer no page carries the whole navigation: only the listing says
    # which pages must be rendered again
    vault(project)
    assert project.build(dirty=True, plugins=plugins).error is None
    project.write("projects/zeta.md", "# Zeta\n\nZeta is new.\n")
    project.write("area/delta.md", "# Delta\n\nDelta too.\n")
    project.write("area/index.md", "# The Big Area\n\nThe area's own text.\n")  # crumbs
    dirty = project.build(dirty=True, plugins=plugins)
    assert dirty.error is None
    assert "Zeta is new." in dirty.article("projects/")
    assert "Delta too." in dirty.article("area/")  # the folder note re-rendered
    assert crumbs(dirty.article("area/gamma/"))[1][0] == "The Big Area"
    dirty_site = dirty.site.rename(project.root / "site-dirty")
    clean = project.build(plugins=plugins)
    assert clean.error is None
    assert [f for f in differing(dirty_site, clean.site) if f.endswith(".html")] == []


def test_palette_when_unset(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    project.write_config()
    config = load_config(project.root / "mkdocs.yml")
    config.plugins.on_config(config)
    palette = config.theme["palette"]
    assert [p["scheme"] for p in palette] == ["default", "slate"]
    assert palette[1]["media"] == "(prefers-color-scheme: dark)"
    page = project.build().page("")
    assert "Switch to dark mode" in page and 'data-md-color-media="(prefers-color-scheme: dark)"' in page
    assert re.search(r'assets/stylesheets/palette\.[0-9a-f]+\.min\.css', page)


def test_palette_of_the_site_wins_and_option_off(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    own = project.build(theme={"name": "material", "font": False,
                               "palette": {"scheme": "slate", "primary": "teal"}}).page("")
    assert 'data-md-color-primary="teal"' in own and "Switch to" not in own
    off = project.build(plugins=["search", {"beliefbase": {"palette_toggle": False}}]).page("")
    assert "Switch to" not in off and "data-md-color-media=\"" not in off
    assert yaml.safe_load((project.root / "mkdocs.yml").read_text())["theme"].get("palette") is None


def test_dirty_rebuild_removes_the_page_of_an_emptied_folder(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    first = project.build(dirty=True)
    assert (first.site / "projects/sub/index.html").exists()
    (project.docs / "projects/sub/deep.md").unlink()
    dirty = project.build(dirty=True)
    assert dirty.error is None
    assert not (dirty.site / "projects/sub/index.html").exists()
    assert "sub/" not in dirty.article("projects/")


def test_folder_listing_shows_each_notes_date(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    project.write("log/first.md", "---\ndate: 2024-05-01\nmodified: 2024-05-01\n---\n# First\n")
    project.write("log/second.md", "---\ncreated: 2024-01-02\nupdated: 2024-06-30\n---\n# Second\n")
    result = project.build()
    assert result.error is None
    page = result.article("log/")
    assert '<time class="bb-folder__meta" datetime="2024-05-01">1 May 2024</time>' in page
    assert 'datetime="2024-06-30">30 June 2024</time>' in page  # the last update
    off = project.build(plugins=["search", {"beliefbase": {"dates": False}}])
    assert "bb-folder__meta\" datetime" not in off.article("log/")


def test_breadcrumbs_off(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(plugins=["search", {"beliefbase": {"breadcrumbs": False}}])
    assert result.error is None
    assert "bb-crumbs" not in result.article("projects/alpha/")
    assert (result.site / "projects/index.html").exists()  # the folder pages stay

"""Issue 21 in headless Chromium, on a real ``mkdocs build`` with the minimal config:
breadcrumbs a reader sees on a nested note (desktop and phone), the folder page,
and the light/dark palette (first paint from the system setting, the toggle).

``BB_SCREENSHOTS=<folder>`` also saves the docs' screenshots there
(``breadcrumbs-*.png``, ``folder-page-*.png``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.conftest import Project  # noqa: E402

pytestmark = pytest.mark.browser

MINIMAL = {"site_name": "Garden", "theme": {"name": "material", "font": False},
           "plugins": ["search", "beliefbase"]}
NOTE = "projects/research/reading-list/"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("nav") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(MINIMAL))
    project.write("index.md", "# Garden\n\nStart with [[Reading list]].\n")
    project.write("projects/index.md", "# Projects\n\nWhat I am working on.\n")
    project.write("projects/research/reading-list.md",
                  "# Reading list\n\nPapers to read this month. Sorted by topic.\n\n"
                  "- [[Graph theory]]\n- [[Bayes <basics>]]\n")
    project.write("projects/research/graph theory.md",
                  "# Graph theory\n\nNodes, edges and the paths between them. Notes.\n")
    project.write("projects/research/Bayes <basics>.md",
                  "---\ntitle: Bayes <basics>\n---\nBelief as a probability, updated by evidence. More.\n")
    project.write("projects/research/old/2019 notes.md", "# 2019 notes\n\nOld notes.\n")
    project.write("projects/research/wip.md", "---\ndraft: true\n---\n# WIP\n\nSecret.\n")
    project.write("projects/garden.md", "# Garden plan\n\nTomatoes and beans. Later.\n")
    result = project.build()
    assert result.error is None, result.error
    with serve(result.site) as url:
        yield url


def _page(browser: Any, size: str, color_scheme: str = "light") -> tuple[Any, list[str]]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme=color_scheme)
    page = context.new_page()
    bad: list[str] = []
    page.on("console", lambda m: bad.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: bad.append(f"uncaught: {e}"))
    page.on("request", lambda r: bad.append(r.url)
            if urlsplit(r.url).hostname not in ("127.0.0.1", None) else None)
    return page, bad


def _shoot(page: Any, name: str) -> None:
    folder = os.environ.get("BB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_breadcrumbs_are_seen(browser: Any, site_url: str, size: str) -> None:
    for scheme in ("light", "dark"):
        page, bad = _page(browser, size, scheme)
        page.goto(site_url + NOTE)
        crumbs = page.locator("nav.bb-crumbs")
        crumbs.wait_for(state="visible")
        assert crumbs.inner_text().split() == ["Home", "Projects", "research", "Reading",
                                               "list"]
        separator = page.evaluate("""() => getComputedStyle(
            document.querySelector('nav.bb-crumbs li + li'), '::before').content""")
        assert separator == '"›"'

        box = crumbs.bounding_box()
        title = page.locator("article h1").first.bounding_box()
        assert box is not None and title is not None
        assert box["height"] > 8 and box["y"] + box["height"] <= title["y"] + 1  # above it
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size][0]  # on screen
        # the folder crumb's text is readable: not the page's background colour
        colors = page.evaluate("""() => {
            const a = document.querySelector('nav.bb-crumbs a[href$="research/"]');
            const bg = getComputedStyle(document.body).backgroundColor;
            return [getComputedStyle(a).color, bg];
        }""")
        assert colors[0] != colors[1]
        _shoot(page, f"breadcrumbs-{size}-{scheme}.png")
        page.locator("nav.bb-crumbs a", has_text="research").click()
        page.wait_for_url("**/projects/research/")
        listing = page.locator("section.bb-folder")
        listing.wait_for(state="visible")
        text = listing.inner_text()
        assert "old/" in text and "Bayes <basics>" in text and "Graph theory" in text
        assert "Papers to read this month." in text and "Sorted by topic" not in text
        assert "WIP" not in text
        _shoot(page, f"folder-page-{size}-{scheme}.png")
        assert bad == [], bad
        page.context.close()


def test_first_paint_follows_the_system_and_the_toggle_switches(browser: Any,
                                                                 site_url: str) -> None:
    page, bad = _page(browser, "desktop", "dark")
    page.goto(site_url + NOTE)
    assert page.evaluate("document.body.dataset.mdColorScheme") == "slate"
    dark_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    toggle = page.locator('label[title="Switch to light mode"]')
    toggle.click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'default'")
    light_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light_bg != dark_bg
    assert bad == [], bad
    page.context.close()
    page, bad = _page(browser, "desktop", "light")
    page.goto(site_url + NOTE)
    assert page.evaluate("document.body.dataset.mdColorScheme") == "default"
    page.context.close()

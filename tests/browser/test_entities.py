"""Entity highlights and pages in headless Chromium, on a real ``mkdocs build``
(issue 19): manual and auto highlights in both palettes, desktop and phone, the
site-wide toggle (persisted), and an entity page.

``BB_SCREENSHOTS=some/folder pytest tests/browser/test_entities.py`` keeps the
screenshots (else they go into the test's tmp folder).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import BOTH_PALETTES, SIZES, open_watched  # noqa: E402
from tests.conftest import BASE_CONFIG, Project  # noqa: E402

pytestmark = pytest.mark.browser

VARIANTS = [(size, scheme) for size in SIZES for scheme in ("light", "dark")]


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("entities") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    project.write("index.md", "# The Hobbit\n\nThe dragon #Smaug:CREATURE sleeps under "
                  "#[Lonely Mountain]:PLACE; Bilbo:ALIAS_OF_BILBO_BAGGINS:PERSON comes "
                  "with *Thorin*. Read [[Journey]].\n")
    project.write("Journey.md", "# Journey\n\nBilbo Baggins leaves home. Weeks later the "
                  "company sees the Lonely Mountain, where Smaug has slept for years; "
                  "**Bilbo** goes in alone. `Smaug` in code is not highlighted.\n\n"
                  "#Thorin:PERSON leads them.\n")
    result = project.build(site_name="Hobbit notes",
                           theme={"name": "material", "font": False, "palette": BOTH_PALETTES})
    assert result.error is None, result.error
    with serve(result.site) as url:
        yield url


@pytest.mark.parametrize(("size", "scheme"), VARIANTS)
def test_highlights_and_toggle(browser: Any, site_url: str, shots: Path, size: str,
                               scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    page.goto(f"{site_url}Journey/")
    article = page.locator("article")
    text = article.inner_text()
    assert "Bilbo Baggins leaves home." in text and "#Thorin" not in text
    assert ":PERSON" not in text and "Thorin leads them." in text
    auto = page.locator("a.bb-entity--auto").all_inner_texts()
    assert auto == ["Bilbo Baggins", "Lonely Mountain", "Smaug", "Bilbo"]
    assert page.locator("a.bb-entity--manual").all_inner_texts() == ["Thorin"]
    mark = page.locator("a.bb-entity--manual").first
    background = mark.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")
    colour = mark.evaluate("e => getComputedStyle(e).color")
    body = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert colour != body
    page.screenshot(path=str(shots / f"entities-note-{size}-{scheme}.png"))
    paragraphs = page.locator("article > p").all_inner_texts()
    toggle = page.locator(".bb-entity-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert mark.evaluate("e => getComputedStyle(e).backgroundColor") in (
        "rgba(0, 0, 0, 0)", "transparent")
    assert mark.evaluate("e => getComputedStyle(e).borderBottomWidth") == "0px"
    # the toggle changes styles only, never the text
    assert page.locator("article > p").all_inner_texts() == paragraphs
    page.goto(site_url)  # persisted: still off on the next page
    assert page.evaluate("document.documentElement.classList.contains('bb-entities-off')")
    page.locator(".bb-entity-toggle").click()
    assert not page.evaluate(
        "document.documentElement.classList.contains('bb-entities-off')")
    context.close()
    assert problems == []


@pytest.mark.parametrize(("size", "scheme"), VARIANTS)
def test_entity_page(browser: Any, site_url: str, shots: Path, size: str, scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    page.goto(f"{site_url}Journey/")
    page.locator("a.bb-entity", has_text="Smaug").first.click()
    page.wait_for_url("**/entities/smaug/")
    text = page.locator("article").inner_text()
    assert "Smaug" in text and "CREATURE" in text
    assert "manual" in text and "auto" in text and "The Hobbit" in text
    page.screenshot(path=str(shots / f"entities-page-{size}-{scheme}.png"), full_page=True)
    page.goto(f"{site_url}entities/")
    assert page.locator("article h2").all_inner_texts() == ["CREATURE", "PERSON", "PLACE"]
    context.close()
    assert problems == []


def test_graph_viewer_lists_entities(browser: Any, site_url: str, shots: Path) -> None:
    context, page, problems = open_watched(browser, "desktop")
    page.goto(f"{site_url}graph/")
    kinds = page.locator("[data-bb-role=filter-kinds] input")
    kinds.first.wait_for(state="attached")
    values = [kinds.nth(k).get_attribute("value") for k in range(kinds.count())]
    assert "Entity" in values
    box = page.locator("[data-bb-role=filter-kinds] input[value=Entity]")
    if not box.is_checked():
        page.locator("[data-bb-role=filters-toggle]").click()
        box.check()
    page.locator("[data-bb-role=search]").fill("Smaug")
    result = page.locator(".bb-graph__result", has_text="Smaug").first
    result.wait_for()
    assert "Entity" in result.inner_text()
    page.screenshot(path=str(shots / "entities-graph-desktop-light.png"))
    context.close()
    assert problems == []

"""A canvas page and a properties-only note in headless Chromium (issue 28, items 5
and 6): what a reader sees, pan and zoom, both palettes, desktop and phone.

``BB_SCREENSHOTS=docs/assets/screenshots pytest tests/browser/test_canvas_properties.py``
writes ``canvas-*.png`` and ``properties-*.png`` there (else into the test's tmp folder).
"""

from __future__ import annotations

import json
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

BOARD = {
    "nodes": [
        {"id": "g", "type": "group", "x": -40, "y": -70, "width": 760, "height": 400,
         "label": "Plot", "color": "5"},
        {"id": "idea", "type": "text", "x": 0, "y": 0, "width": 300, "height": 170,
         "text": "## Dream layers\n\nEach level slows time: see [[Inception]].\n\n"
                 "$t_{n+1} = 20\\,t_n$", "color": "2"},
        {"id": "film", "type": "file", "x": 400, "y": 0, "width": 280, "height": 300,
         "file": "Inception.md"},
        {"id": "kick", "type": "text", "x": 0, "y": 440, "width": 300, "height": 110,
         "text": "**The kick** wakes the dreamer <script>alert(1)</script>", "color": "#d946ef"},
        {"id": "web", "type": "link", "x": 400, "y": 440, "width": 280, "height": 80,
         "url": "https://jsoncanvas.org/"},
    ],
    "edges": [
        {"id": "e1", "fromNode": "idea", "fromSide": "right", "toNode": "film",
         "toSide": "left", "label": "happens in"},
        {"id": "e2", "fromNode": "idea", "fromSide": "bottom", "toNode": "kick",
         "toSide": "top", "label": "ended by", "color": "1"},
        {"id": "e3", "fromNode": "kick", "toNode": "web", "fromEnd": "arrow", "toEnd": "arrow"},
    ],
}

FILM = """\
---
director: "[[Christopher Nolan]]"
cast: ["[[Leonardo DiCaprio]]", Elliot Page, Tom Hardy]
rating: 8.8
released: 2010-07-16
runtime: 148
watched: true
rewatch: false
website: https://www.inceptionmovie.com
tags: [film, scifi]
---
"""


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("canvas") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    project.write("index.md", "# Films\n\n- [[Inception]]\n- [[Plot.canvas]]\n")
    project.write("Inception.md", FILM)
    project.write("Christopher Nolan.md", "# Christopher Nolan\n\nDirector.\n")
    project.write("Leonardo DiCaprio.md", "# Leonardo DiCaprio\n\nActor.\n")
    project.write("Plot.canvas", json.dumps(BOARD, indent=2))
    result = project.build(site_name="Films",
                           theme={"name": "material", "font": False, "palette": BOTH_PALETTES})
    assert result.error is None, result.error
    with serve(result.site) as url:
        yield url


VARIANTS = [(size, scheme) for size in SIZES for scheme in ("light", "dark")]


def _state(page: Any) -> tuple[float, float, float]:
    vp = page.locator("[data-bb-canvas]")
    return (float(vp.get_attribute("data-bb-canvas-scale")),
            float(vp.get_attribute("data-bb-canvas-x")),
            float(vp.get_attribute("data-bb-canvas-y")))


@pytest.mark.parametrize(("size", "scheme"), VARIANTS)
def test_canvas_page_shows_the_board(browser: Any, site_url: str, shots: Path, size: str,
                                     scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    page.on("dialog", lambda d: problems.append(f"dialog: {d.message}"))
    page.goto(f"{site_url}Plot.canvas/")
    board = page.locator("[data-bb-canvas]")
    board.wait_for()
    assert board.get_attribute("data-bb-canvas-ready") is not None
    text = board.inner_text()
    for words in ("Dream layers", "Each level slows time", "The kick", "happens in",
                  "ended by", "Plot", "Inception", "Elliot Page"):
        assert words in text, words
    assert "<script>" in text  # shown as text, never run
    assert page.locator(".bb-canvas__node math").count() == 1
    # the board fits the screen: nothing wider than the window
    width = SIZES[size][0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = board.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    page.screenshot(path=str(shots / f"canvas-{size}-{scheme}.png"))
    context.close()
    assert problems == []


def test_canvas_zooms_and_pans(browser: Any, site_url: str) -> None:
    context, page, problems = open_watched(browser, "desktop")
    page.goto(f"{site_url}Plot.canvas/")
    board = page.locator("[data-bb-canvas]")
    board.wait_for()
    scale, x, y = _state(page)
    page.locator("[data-bb-canvas-zoom=in]").click()
    bigger = _state(page)[0]
    assert bigger == pytest.approx(min(scale * 1.25, 4), rel=1e-3)
    page.locator("[data-bb-canvas-zoom=out]").click()
    assert _state(page)[0] == pytest.approx(scale, rel=1e-3)
    # Ctrl + wheel zooms at the pointer
    box = board.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    page.wait_for_timeout(50)
    assert _state(page)[0] > scale
    # a drag pans by what the pointer moved
    before = _state(page)
    start = (box["x"] + 40, box["y"] + box["height"] - 40)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 60, start[1] - 30, steps=5)
    page.mouse.up()
    after = _state(page)
    assert after[1] - before[1] == pytest.approx(60, abs=1)
    assert after[2] - before[2] == pytest.approx(-30, abs=1)
    # the fit button shows the whole board again
    page.locator("[data-bb-canvas-zoom=fit]").click()
    assert _state(page) == pytest.approx((scale, x, y), abs=0.01)
    # keys, when the board has the focus
    board.focus()
    page.keyboard.press("+")
    assert _state(page)[0] > scale
    # a click (no drag) on a link in a node follows it
    page.locator("[data-bb-canvas-zoom=fit]").click()
    page.locator(".bb-canvas__node--text a.bb-link", has_text="Inception").click()
    page.wait_for_url("**/Inception/")
    context.close()
    assert problems == []


@pytest.mark.parametrize(("size", "scheme"), VARIANTS)
def test_properties_only_note(browser: Any, site_url: str, shots: Path, size: str,
                              scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    page.goto(f"{site_url}Inception/")
    block = page.locator(".bb-properties")
    assert block.is_visible()
    keys = page.locator(".bb-properties__key").all_inner_texts()
    assert keys == ["director", "cast", "rating", "released", "runtime", "watched",
                    "rewatch", "website"]
    assert page.locator(".bb-properties__pill").count() == 3
    width = SIZES[size][0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(shots / f"properties-{size}-{scheme}.png"))
    # the heading folds the block
    page.locator(".bb-properties__heading").click()
    assert not page.locator(".bb-properties__row").first.is_visible()
    assert page.locator(".bb-properties a", has_text="Christopher Nolan").count() == 1
    context.close()
    assert problems == []

"""The fidelity vault's boards (``tests/fidelity/vault``: ``Projects/Planning.canvas``,
``Reading map.canvas`` and the note embedding it) in headless Chromium, desktop and
phone, light and dark: what the golden HTML cannot show.

``BB_SCREENSHOTS=DIR pytest tests/browser/test_canvas_fidelity.py`` writes
``fidelity-canvas-*.png`` there (else into the test's tmp folder).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import SIZES, open_watched  # noqa: E402
from tests.conftest import build_copy  # noqa: E402

pytestmark = pytest.mark.browser

PAGES = {"planning": "Projects/Planning.canvas/", "map": "Reading%20map.canvas/",
         "note": "Canvas%20in%20a%20note/"}


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    built = build_copy(REPO / "tests" / "fidelity" / "vault", tmp_path_factory.mktemp("fid"))
    assert built.error is None, built.error
    with serve(built.site) as url:
        yield url


def _open(browser: Any, size: str, scheme: str, url: str) -> tuple[Any, Any, list[str]]:
    context, page, problems = open_watched(browser, size, scheme)
    page.goto(url)
    if scheme == "dark":  # the vault's minimal mkdocs.yml has one palette: Material's dark
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.locator("[data-bb-canvas-ready]").first.wait_for()
    return context, page, problems


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_boards_fit_and_keep_their_title(browser: Any, site_url: str, shots: Path,
                                             name: str, size: str, scheme: str) -> None:
    context, page, problems = _open(browser, size, scheme, site_url + PAGES[name])
    width = SIZES[size][0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # the page's title, although a node of the board holds an <h1>
    title = page.locator("article h1:not(.bb-canvas h1)").first.inner_text()
    assert title == {"planning": "Planning", "map": "Reading map",
                     "note": "Canvas in a note"}[name]
    page.screenshot(path=str(shots / f"fidelity-canvas-{name}-{size}-{scheme}.png"),
                    full_page=True)
    context.close()
    assert problems == []


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_board_in_a_file_node_is_shown_whole_and_still(browser: Any, site_url: str,
                                                          size: str) -> None:
    context, page, problems = _open(browser, size, "light", site_url + PAGES["map"])
    inner = page.locator(".bb-canvas__node [data-bb-canvas]")
    assert inner.count() == 1
    fits = page.evaluate("""() => {
      const vp = document.querySelector('.bb-canvas__node [data-bb-canvas]');
      const s = Number(vp.getAttribute('data-bb-canvas-scale'));
      return [s * Number(vp.dataset.width) <= vp.clientWidth + 1,
              s * Number(vp.dataset.height) <= vp.clientHeight + 1,
              vp.clientHeight > 40,
              vp.querySelector('.bb-canvas__controls').offsetParent === null,
              vp.hasAttribute('tabindex')];
    }""")
    assert fits == [True, True, True, True, False]
    # the outer board's own buttons show and zoom it (the script took the nested
    # board's, first in the page, and left the outer board's hidden)
    outer = page.locator("[data-bb-canvas]").first
    zoom_in = outer.locator(":scope > .bb-canvas__controls [data-bb-canvas-zoom=in]")
    assert zoom_in.is_visible()
    scales = (outer.get_attribute("data-bb-canvas-scale"),
              inner.get_attribute("data-bb-canvas-scale"))
    zoom_in.click()
    assert float(outer.get_attribute("data-bb-canvas-scale") or 0) > float(scales[0] or 0)
    assert inner.get_attribute("data-bb-canvas-scale") == scales[1]
    outer.locator(":scope > .bb-canvas__controls [data-bb-canvas-zoom=fit]").click()
    if size == "desktop":  # fitted whole, and no node under the buttons
        assert page.evaluate("""() => {
          const vp = document.querySelector('[data-bb-canvas]');
          const b = vp.querySelector(':scope > .bb-canvas__controls').getBoundingClientRect();
          const nodes = vp.querySelectorAll(':scope > .bb-canvas__world > .bb-canvas__node');
          return nodes.length > 2 && Array.from(nodes).every(n => {
            const r = n.getBoundingClientRect();
            return r.right <= b.left || r.left >= b.right || r.bottom <= b.top
              || r.top >= b.bottom; });
        }""")
    # a drag on it moves the outer board, not the inner one
    before = (outer.get_attribute("data-bb-canvas-x"), inner.get_attribute("data-bb-canvas-x"))
    box = inner.bounding_box()
    x = min(box["x"] + box["width"] / 2, SIZES[size][0] - 30)  # on the screen
    y = box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 50, y, steps=5)
    page.mouse.up()
    after = (outer.get_attribute("data-bb-canvas-x"), inner.get_attribute("data-bb-canvas-x"))
    assert after[0] != before[0] and after[1] == before[1]
    context.close()
    assert problems == []


def test_a_file_node_has_the_background_of_a_text_node(browser: Any, site_url: str) -> None:
    context, page, problems = _open(browser, "desktop", "light", site_url + PAGES["planning"])
    colours = page.evaluate("""() => {
      const bg = el => getComputedStyle(el).backgroundColor;
      const text = document.querySelector('.bb-canvas__node--text:not([data-color])');
      const file = document.querySelector('.bb-canvas__node--file:not([data-color]) .bb-embed');
      return [bg(text), bg(file)];
    }""")
    assert colours[1] in ("rgba(0, 0, 0, 0)", "transparent"), colours
    context.close()
    assert problems == []

"""The full graph page of a real build of a generated 1,000-note vault, in pixels.

Graphs of 300 notes or more take another road than the small fixtures of
test_graph_viewer.py: the scene worker lays them out and rasterises the edges
and nodes into bitmaps that the page lays over each other. A fault on that road
once left real vaults with a black canvas and no edges, in both palettes.

The vault comes from the benchmark's generator (``beliefbase.bench.vault``) and
is built by ``mkdocs build`` with the plugin and a light/dark palette chosen by
``prefers-color-scheme``, so the page opens in the palette under test. Each test
screenshots the canvas once the layout has settled and the final picture is
drawn, and checks the screenshot's pixels: mostly the page's background colour,
node colours, and edge-coloured pixels spread over the graph.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTES = 1000
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
# Material picks the scheme from the reader's system preference (the browser
# context's colour scheme in these tests); the toggles make it load both palettes.
PALETTE = """\
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle:
        icon: material/brightness-7
        name: Switch to dark mode
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle:
        icon: material/brightness-4
        name: Switch to light mode
"""
DRAWN = "window.__bbGraph && window.__bbGraph.ready() && window.__bbGraph.isDrawn()"
# Colour distance (largest channel difference) within which a pixel counts as a colour.
SAME = 6
GRID = 8


@pytest.fixture(scope="module")
def vault_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from beliefbase.bench.vault import generate_vault

    vault: Path = generate_vault(tmp_path_factory.mktemp("graph-vault") / "vault", NOTES)
    config = vault / "mkdocs.palette.yml"
    text = (vault / "mkdocs.yml").read_text(encoding="utf-8")
    config.write_text(text.replace("  font: false\n", "  font: false\n" + PALETTE, 1),
                      encoding="utf-8")
    site = vault / "site"
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config),
                    "-d", str(site)], check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return site


@pytest.fixture(scope="module")
def vault_url(vault_site: Path) -> Iterator[str]:
    from graph_site import serve

    with serve(vault_site) as url:
        yield url


@dataclass
class Shot:
    """A screenshot's pixels: RGBA, row by row."""

    width: int
    height: int
    rgba: bytes

    def share(self, test: Any) -> float:
        hits = sum(1 for i in range(0, len(self.rgba), 4) if test(self.rgba[i:i + 3]))
        return hits / (self.width * self.height)

    def cells(self, test: Any, min_share: float) -> int:
        """How many cells of a GRID x GRID split hold at least `min_share` of such pixels."""
        counts = [0] * (GRID * GRID)
        for y in range(self.height):
            row = (y * GRID // self.height) * GRID
            for x in range(self.width):
                i = 4 * (y * self.width + x)
                if test(self.rgba[i:i + 3]):
                    counts[row + x * GRID // self.width] += 1
        per_cell = self.width * self.height / (GRID * GRID)
        return sum(1 for c in counts if c >= min_share * per_cell)


def _rgb(css: str) -> tuple[int, int, int]:
    """'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 1)' -> (1, 2, 3)."""
    parts = css[css.index("(") + 1: css.index(")")].replace("/", ",").split(",")
    r, g, b = (round(float(p)) for p in parts[:3])
    return r, g, b


def _near(colour: tuple[int, int, int]) -> Any:
    return lambda px: max(abs(px[0] - colour[0]), abs(px[1] - colour[1]),
                          abs(px[2] - colour[2])) <= SAME


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def _screenshot(page: Any) -> Shot:
    """The canvas as the reader sees it (with the controls over it), decoded by the browser."""
    png = page.locator("[data-bb-role=canvas]").screenshot()
    decoded = page.evaluate("""async (b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const image = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
        const canvas = new OffscreenCanvas(image.width, image.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(image, 0, 0);
        const data = ctx.getImageData(0, 0, image.width, image.height).data;
        let text = '';
        for (let i = 0; i < data.length; i += 32768) {
            text += String.fromCharCode(...data.subarray(i, i + 32768));
        }
        return {width: image.width, height: image.height, rgba: btoa(text)};
    }""", base64.b64encode(png).decode("ascii"))
    return Shot(decoded["width"], decoded["height"], base64.b64decode(decoded["rgba"]))


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_full_graph_shows_nodes_and_edges_on_the_page_background(
    browser: Any, vault_url: str, scheme: str, size: str, tmp_path: Path
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(f"{vault_url}graph/")
        page.wait_for_function(DRAWN, timeout=60_000)
        # The frame that was accepted is painted on the next animation frame.
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.evaluate("window.__bbGraph.visibleNodeCount()") == NOTES
        body = _rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        edge = _rgb(page.evaluate("window.__bbGraph.view.renderer.baseStyle.edge"))
        shot = _screenshot(page)
        page.screenshot(path=str(tmp_path / f"graph-{scheme}-{size}.png"))
    finally:
        context.close()

    # The page really is in the palette under test.
    assert (sum(body) > 600) == (scheme == "light"), body
    # Edges are drawn in a colour that stands out from the background (not at 0 alpha).
    assert _distance(edge, body) >= 20, (edge, body)

    background = shot.share(_near(body))
    black = shot.share(lambda px: max(px) <= 12)
    assert background >= 0.5, (
        f"only {background:.0%} of the canvas is the page background {body} "
        f"({black:.0%} black): see {tmp_path}"
    )
    nodes = shot.share(lambda px: max(px) - min(px) >= 50)
    assert nodes >= 0.003, f"node colours cover {nodes:.2%} of the canvas: see {tmp_path}"
    is_edge = _near(edge)
    edges = shot.share(is_edge)
    assert edges >= 0.01, f"edge colour {edge} covers {edges:.2%} of the canvas: see {tmp_path}"
    # Spread over the graph, between the nodes, not a stray patch.
    spread = shot.cells(is_edge, 0.01)
    assert spread >= 8, f"edges show in {spread} of {GRID * GRID} cells: see {tmp_path}"

    foreign = [u for u in requests if not u.startswith(("data:", "blob:"))
               and urlsplit(u).hostname not in LOCAL_HOSTS]
    assert foreign == [], "a request left the site"
    assert errors == [], "console errors"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_canvas_shows_the_page_background_while_the_graph_loads(
    browser: Any, vault_url: str, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    held: list[Any] = []
    # Hold the graph file back: the viewer shows its loading message on an empty canvas.
    page.route("**/_beliefbase/graph-view.json", lambda route: held.append(route))
    try:
        page.goto(f"{vault_url}graph/")
        page.wait_for_selector("[data-bb-role=message]:not([hidden])")
        assert held, "the viewer asks for graph-view.json"
        body = _rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        shot = _screenshot(page)
        for route in held:
            route.continue_()
        page.wait_for_function(DRAWN, timeout=60_000)
    finally:
        context.close()
    background = shot.share(_near(body))
    assert background >= 0.9, f"{background:.0%} of the empty canvas is the page background"


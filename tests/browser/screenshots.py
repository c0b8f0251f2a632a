"""Take the documentation's screenshots (docs/assets/screenshots/) in headless Chromium.

Not a test. Builds nothing: point it at a built site of the repo's own docs::

    mkdocs build -d /tmp/docsite
    python tests/browser/screenshots.py /tmp/docsite [--out docs/assets/screenshots]

For each size (desktop 1280x800, phone 390x844) it saves the graph page, a
note with its hover preview open above the backlinks and local graph, and the
site search with results; the phone shots use the dark palette, so both
palettes are shown.  PNGs are reduced to a 256-colour palette when Pillow is
installed (they stay sharp: the pages are flat colours and text).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from graph_site import CHROMIUM_ARGS, serve  # noqa: E402

READY = "window.__bbGraph && window.__bbGraph.ready() && window.__bbGraph.isIdle()"
NOTE = "guide/link-resolution/"
SEARCH = "how links resolve"  # an alias of the note "Link resolution"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _scheme(page: Any, dark: bool) -> None:
    if dark:
        page.evaluate("""() => {
            document.body.setAttribute('data-md-color-scheme', 'slate');
            document.body.setAttribute('data-md-color-primary', 'indigo');
            document.body.setAttribute('data-md-color-accent', 'indigo');
        }""")
        page.wait_for_timeout(200)


def _shrink(path: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                              dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def shoot(url: str, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        for name, (width, height) in SIZES.items():
            dark = name == "phone"
            context = browser.new_context(viewport={"width": width, "height": height},
                                          color_scheme="dark" if dark else "light")
            page = context.new_page()

            page.goto(f"{url}graph/")
            _scheme(page, dark)
            page.wait_for_function(READY, timeout=30_000)
            page.wait_for_timeout(300)
            written.append(out / f"graph-{name}.png")
            page.screenshot(path=str(written[-1]))

            page.goto(f"{url}{NOTE}")
            _scheme(page, dark)
            # From the top straight down to the backlinks (scrolling up would bring
            # Material's "back to top" button), the local graph below them in view.
            page.evaluate("""() => {
                const panel = document.querySelector('.bb-backlinks');
                window.scrollTo(0, panel.getBoundingClientRect().top + window.scrollY - 70);
            }""")
            page.wait_for_function(READY, timeout=30_000)
            page.locator(".bb-backlinks a[data-bb-target]").first.hover()
            page.wait_for_selector(".bb-preview[data-shown]")
            page.wait_for_timeout(250)
            written.append(out / f"note-{name}.png")
            page.screenshot(path=str(written[-1]))

            page.goto(f"{url}{NOTE}")
            _scheme(page, dark)
            wide = width >= 1220  # Material shows the search box in the header
            page.click(".md-search__input" if wide else "label.md-header__button[for=__search]")
            page.locator(".md-search__input").press_sequentially(SEARCH, delay=20)
            page.wait_for_selector(".md-search-result__item")
            page.wait_for_timeout(300)
            written.append(out / f"search-{name}.png")
            page.screenshot(path=str(written[-1]))
            context.close()
        browser.close()
    for path in written:
        _shrink(path)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site of the repo's docs")
    parser.add_argument("--out", type=Path, default=Path("docs/assets/screenshots"))
    args = parser.parse_args()
    with serve(args.site) as url:
        for path in shoot(url, args.out):
            print(f"{path} {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

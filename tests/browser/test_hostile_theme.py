"""Nothing the theme prints is live markup (issue 32), in headless Chromium: a vault with
markup and attribute payloads in a status, folder names, aliases and tags
(``tests/hostile/round3.py``) is built with Material, and its pages, navigation
and search results hold no injected element or attribute and open no dialog."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.conftest import BASE_CONFIG, Project  # noqa: E402
from tests.hostile.round3 import FOLDER, INJECTED, write_vault  # noqa: E402

pytestmark = pytest.mark.browser

#: elements and attributes none of the payloads may become
_INJECTED_JS = f"""() => {{
  const found = [];
  for (const el of document.querySelectorAll('*')) {{
    for (const attr of el.getAttributeNames()) {{
      if (attr === '{INJECTED}' || attr.startsWith('on')) found.push(el.tagName + ' ' + attr);
    }}
  }}
  for (const el of document.querySelectorAll('img[src="x"], b[onmouseover]'))
    found.push('element ' + el.outerHTML);
  return found;
}}"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile-theme") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    write_vault(project)
    result = project.build()
    assert result.error is None, result.error
    return result.site


@pytest.fixture(scope="module")
def site_url(built: Path) -> Iterator[str]:
    from graph_site import serve

    with serve(built) as url:
        yield url


@pytest.mark.parametrize("path", ["", "marked/", "status-markup/", quote(FOLDER) + "/inner/"])
def test_no_payload_is_an_element_attribute_or_dialog(browser: Any, site_url: str,
                                                      path: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        response = page.goto(site_url + path)
        assert response is not None and response.ok, path
        page.wait_for_load_state("load")
        assert page.evaluate(_INJECTED_JS) == []
        nav = page.locator(".md-nav").first.inner_text()
        assert "<svg onload=alert(1)> x" in nav  # the folder's name, shown as text
        # Material's search renders titles and tags as HTML: search a payload's words
        page.click("label.md-search__icon, .md-search__input", timeout=5_000)
        page.locator(".md-search__input").press_sequentially("hostile", delay=10)
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
        assert page.evaluate(_INJECTED_JS) == []
        assert dialogs == []
    finally:
        context.close()

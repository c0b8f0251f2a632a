"""Fixtures for the graph viewer's browser tests: a built fixture site served
on 127.0.0.1, Debian's chromium driven by Playwright, and a guard that records
console errors, page errors, dialogs and every request a page makes."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
#: The window sizes the page tests look at.
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: Material's two palettes, chosen by the browser's colour scheme (as this repo's
#: docs do): a theme with ``"palette": BOTH_PALETTES`` opens in the one under test
BOTH_PALETTES = [{"media": f"(prefers-color-scheme: {media})", "scheme": scheme,
                  "primary": "indigo", "accent": "indigo",
                  "toggle": {"icon": "material/brightness-7", "name": "Switch palette"}}
                 for media, scheme in (("light", "default"), ("dark", "slate"))]
# graph_site.py sits beside this file; the suite runs with --import-mode=importlib,
# which does not put test folders on sys.path.
sys.path.insert(0, str(Path(__file__).parent))
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


def _skip_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright for Python is not installed (pip install -e '.[test]')"
    if not shutil.which("chromium"):
        return "Debian chromium is not installed (apt-get install chromium)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _skip_reason()
    if reason is None:
        return
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def fixture_graph() -> dict[str, Any]:
    graph: dict[str, Any] = json.loads((FIXTURES / "graph.json").read_text(encoding="utf-8"))
    return graph


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, fixture_graph: dict[str, Any]) -> Path:
    from graph_site import build_site

    site_dir: Path = build_site(tmp_path_factory.mktemp("graph-site"), fixture_graph)
    return site_dir


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    from graph_site import serve

    with serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from graph_site import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Guard:
    """What a page did that a test must check: errors, dialogs, requests."""

    base_url: str
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("request", lambda r: self.requests.append(r.url))

        def on_dialog(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)

    def foreign_requests(self) -> list[str]:
        """Requests to any host but this machine (data: URLs are not requests)."""
        return [
            url
            for url in self.requests
            if not url.startswith(("data:", "blob:")) and urlsplit(url).hostname not in LOCAL_HOSTS
        ]

    def assert_clean(self) -> None:
        assert self.foreign_requests() == [], "the viewer must not leave the site"
        assert self.errors == [], "console errors"
        assert self.dialogs == [], "a string from graph.json was executed"


@pytest.fixture
def guard(base_url: str) -> Guard:
    return Guard(base_url)


@pytest.fixture
def page(browser: Any, guard: Guard) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    guard.attach(page)
    yield page
    context.close()
    guard.assert_clean()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a module's screenshots go: ``BB_SCREENSHOTS`` if set, else a temp folder."""
    out = os.environ.get("BB_SCREENSHOTS")
    return Path(out) if out else tmp_path_factory.mktemp("shots")


def open_watched(browser: Any, size: str, scheme: str = "light") -> tuple[Any, Any, list[str]]:
    """A new context and page at ``SIZES[size]`` in the ``scheme`` palette, and the
    list its problems go to: console errors, uncaught exceptions, requests that
    leave the site."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if scheme == "dark" else "light")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("request", lambda r: problems.append(f"left the site: {r.url}")
            if urlsplit(r.url).hostname not in ("127.0.0.1", None) else None)
    return context, page, problems

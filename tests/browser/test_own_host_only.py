"""No page of any fixture site asks any host but its own (issue 29).

Each fixture vault is built with a ``site_url`` on another host (as a published
site has), served on 127.0.0.1 and every page opened until the network is idle:
a network request anywhere else fails the test (``chrome:`` and
``chrome-extension:``, the browser's own PDF viewer for an embedded PDF, are not).
This repository's ``docs/`` is built too, and 40 of its pages opened (all of
them take two minutes).  This caught the Atom feed's head link:
absolute to ``site_url``, Material's script fetched ``sitemap.xml`` from that
host on every page load (it reads every ``link[rel=alternate]`` as a language)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from ..conftest import Project

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

#: name -> (the vault's folder, the mkdocs.yml in it)
VAULTS = {"golden": ROOT / "tests" / "golden" / "vault",
          "fidelity": ROOT / "tests" / "fidelity" / "vault"}
ELSEWHERE = "https://example.org/kb/"


def _build(name: str, into: Path) -> Path:
    root = into / name
    if name == "docs":
        shutil.copytree(ROOT / "docs", root / "docs")
        shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    else:
        shutil.copytree(VAULTS[name], root, ignore=shutil.ignore_patterns(".beliefbase", "site"))
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    config["site_url"] = ELSEWHERE
    result = Project(root, config).build()
    assert result.error is None, result.error
    return result.site


def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


@pytest.mark.parametrize("name", ["golden", "fidelity", "docs"])
def test_every_page_asks_its_own_host_only(name: str, tmp_path: Path, browser: Any) -> None:
    from graph_site import serve

    site = _build(name, tmp_path)
    pages = _pages(site)
    assert len(pages) > 5
    if len(pages) > 40:  # 40, evenly spread
        pages = pages[::-(-len(pages) // 40)]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    foreign: list[str] = []
    page.on("request", lambda r: foreign.append(f"{r.url} (from {page.url})")
            if urlsplit(r.url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(r.url).hostname != "127.0.0.1" else None)
    try:
        with serve(site) as base:
            for path in pages:
                page.goto(base + path, wait_until="networkidle")
    finally:
        context.close()
    assert foreign == [], "a page asked another host"

"""A dashboard of query views in headless Chromium, in both palettes (issue 18).

``BB_SCREENSHOTS=some/folder pytest tests/browser/test_query_dashboard.py`` keeps
the screenshots (``dashboard-light.png``, ``dashboard-dark.png``, ``dashboard-phone-*.png``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import BOTH_PALETTES, open_watched  # noqa: E402
from tests.conftest import BASE_CONFIG, Project  # noqa: E402

pytestmark = pytest.mark.browser

PROJECTS = {
    "Apollo": ("active", 8, "2026-06-30", "[[Ada]]"),
    "Borealis": ("active", 5, "2026-04-15", "[[Grace]]"),
    "Cassini": ("paused", 3, "2026-09-01", "[[Ada]]"),
    "Dawn": ("done", 2, "2025-12-20", "[[Grace]]"),
}
DASHBOARD = """\
# Project dashboard

Every number and list below is a query over the notes, run at build time.

```query view=count
MATCH (p:Project) RETURN count(*)
```

## Active, by priority

```query view=cards
MATCH (p:Project {stage: 'active'}) RETURN p ORDER BY p.priority DESC
```

## All projects

```query view=table
MATCH (p:Project) OPTIONAL MATCH (p)-[:lead]->(who)
RETURN p AS project, p.stage AS stage, p.priority AS priority, who AS lead
ORDER BY priority DESC
```

> [!note] Paused
> ```query view=list
> MATCH (p:Project {stage: 'paused'}) RETURN p
> ```

## Nothing yet

```query view=cards
MATCH (p:Project {stage: 'cancelled'}) RETURN p
```

## Deadlines

```query view=timeline
MATCH (p:Project) RETURN p
```

## A broken one

```query
MATCH (p:Projekt) RETURN p
```
"""


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("dashboard") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    project.write("index.md", "# Projects\n\nSee the [[Dashboard]].\n")
    project.write("Dashboard.md", DASHBOARD)
    for person in ("Ada", "Grace"):
        project.write(f"{person}.md", f"---\nschema: Person\n---\n# {person}\n")
    for name, (stage, priority, due, lead) in PROJECTS.items():
        project.write(f"{name}.md", f"---\nschema: Project\nstage: {stage}\n"
                      f"priority: {priority}\ndue: {due}\nlead: \"{lead}\"\n---\n# {name}\n")
    result = project.build(site_name="Projects",
                           theme={"name": "material", "font": False, "palette": BOTH_PALETTES})
    assert result.error is None, result.error
    with serve(result.site) as url:
        yield url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dashboard(browser: Any, site_url: str, shots: Path, scheme: str) -> None:
    context, page, problems = open_watched(browser, "desktop", scheme)
    try:
        page.goto(f"{site_url}/Dashboard/")
        dark = page.evaluate("document.body.getAttribute('data-md-color-scheme') === 'slate'")
        assert dark == (scheme == "dark")
        assert page.locator(".bb-query-number").inner_text() == "4"
        assert page.locator(".bb-query-card").count() == 2
        assert page.locator(".bb-query-table tbody tr").count() == 4
        assert page.locator(".bb-query-timeline li").count() == 4
        assert page.locator(".bb-query-error").count() == 1
        page.locator(".bb-query-card a", has_text="Apollo").click()
        page.wait_for_url("**/Apollo/")
        page.go_back()
        page.screenshot(path=str(shots / f"dashboard-{scheme}.png"), full_page=True)
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dashboard_on_a_phone(browser: Any, site_url: str, shots: Path, scheme: str) -> None:
    """Nothing widens the page: a wide table scrolls in its own box, cards stack."""
    context, page, problems = open_watched(browser, "phone", scheme)
    try:
        page.goto(f"{site_url}/Dashboard/")
        width = page.evaluate("window.innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        wrap = page.locator(".bb-query-table .md-typeset__scrollwrap")
        assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")  # it scrolls, not the page
        for card in page.locator(".bb-query-card").all():
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        # a query in a callout, a [[wikilink]] field as a link, an empty result
        callout = page.locator(".admonition.note")
        assert callout.locator(".bb-query-list li").all_inner_texts() == ["Cassini"]
        lead = page.locator(".bb-query-card", has_text="Apollo").locator("a.bb-link")
        assert lead.inner_text() == "Ada"
        assert page.locator(".bb-query-cards .bb-query-empty").inner_text() == "No results."
        page.screenshot(path=str(shots / f"dashboard-phone-{scheme}.png"), full_page=True)
        assert problems == []
    finally:
        context.close()

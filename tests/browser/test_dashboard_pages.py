"""Bases and Dataview pages as a reader sees them, in headless Chromium (issue 27):
a ``.base`` page's views as tabs, a note with a Dataview table, a TASK roll-up, a
base in a callout and an error box; at desktop and phone width, in both palettes.

``BB_SCREENSHOTS=some/folder pytest tests/browser/test_dashboard_pages.py`` keeps
the screenshots (``dashboard-pages-*.png``).
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

BOOKS = {  # name: (rating, author, status)
    "Dune": (5, "Herbert", "read"),
    "Emma": (3, "Austen", "read"),
    "Ulysses": (4, "Joyce", "reading"),
}
BLURB = "a long sentence about the book that needs a wide column to be read at all"
LIBRARY = """\
filters: file.hasTag("book")
views:
  - type: table
    name: All books
    order: [file.name, rating, author]
    sort:
      - property: rating
        direction: DESC
  - type: table
    name: Reading now
    order: [file.name, status]
    filters: status == "reading"
"""
DASHBOARD = """\
# Dashboard

```dataview
TABLE rating AS "Rating", author AS "Author", status AS "Status", blurb AS "Blurb",
  pages AS "Pages"
FROM #book
SORT rating DESC
```

## Open tasks

```dataview
TASK FROM "tasks" WHERE !completed
```

> [!note] Still reading
> ```base
> filters: status == "reading"
> views:
>   - type: list
>     order: [file.name]
> ```

```dataview
TABLE FROM WHERE
```
"""
CHORES = """\
# Chores

- [ ] ask **[[Dune]]** about `sand` #home
- [x] dishes
"""


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("dashboard-pages") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    project.write("index.md", "# Home\n\nSee the [[Dashboard]] and [[Library.base]], or "
                              "[[Library.base#Reading now|what I read now]].\n")
    project.write("Dashboard.md", DASHBOARD, dedent=False)
    project.write("Library.base", LIBRARY, dedent=False)
    project.write("tasks/chores.md", CHORES, dedent=False)
    for name, (rating, author, status) in BOOKS.items():
        project.write(f"{name}.md", f"---\ntags: [book]\nrating: {rating}\nauthor: {author}\n"
                      f"status: {status}\nblurb: {BLURB}\npages: {rating * 100}\n---\n"
                      f"# {name}\n", dedent=False)
    result = project.build(site_name="Dashboards",
                           theme={"name": "material", "font": False, "palette": BOTH_PALETTES})
    assert result.error is None, result.error
    with serve(result.site) as url:
        yield url.rstrip("/")


def _readable(page: Any, selector: str) -> None:
    """The element's text colour is not its page's background colour."""
    colours = page.locator(selector).first.evaluate("""e => {
        let bg = 'rgba(0, 0, 0, 0)';
        for (let n = e; n && bg === 'rgba(0, 0, 0, 0)'; n = n.parentElement) {
            bg = getComputedStyle(n).backgroundColor;
        }
        return [getComputedStyle(e).color, bg];
    }""")
    assert colours[0] != colours[1], (selector, colours)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_base_page_switches_views_by_tab(browser: Any, site_url: str, shots: Path,
                                           size: str, scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    try:
        page.goto(f"{site_url}/Library.base/")
        dark = page.evaluate("document.body.getAttribute('data-md-color-scheme') === 'slate'")
        assert dark == (scheme == "dark")
        labels = page.locator(".tabbed-set .tabbed-labels label")
        assert labels.all_inner_texts() == ["All books", "Reading now"]
        blocks = page.locator(".tabbed-set .tabbed-block")
        first, second = blocks.nth(0).locator("table"), blocks.nth(1).locator("table")
        assert first.is_visible() and not second.is_visible()
        assert first.locator("tbody tr td:first-child").all_inner_texts() == [
            "Dune", "Ulysses", "Emma"]
        _readable(page, ".tabbed-set .tabbed-block td")
        labels.nth(1).click()
        assert second.is_visible() and not first.is_visible()
        assert second.locator("tbody td").all_inner_texts() == ["Ulysses", "reading"]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(shots / f"dashboard-pages-base-{size}-{scheme}.png"),
                        full_page=True)
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_dashboard_note_reads_and_links(browser: Any, site_url: str, shots: Path,
                                          scheme: str) -> None:
    context, page, problems = open_watched(browser, "desktop", scheme)
    try:
        page.goto(f"{site_url}/Dashboard/")
        table = page.locator(".bb-dashboard .bb-query-table").first
        rows = table.locator("tbody tr")
        assert rows.count() == 3
        assert rows.nth(0).locator("td").all_inner_texts()[:4] == [
            "Dune", "5", "Herbert", "read"]
        _readable(page, ".bb-dashboard .bb-query-table td")
        # the TASK roll-up: the open task only, its Markdown rendered, its link live
        tasks = page.locator(".bb-query-tasks .bb-task-text")
        assert tasks.all_inner_texts() == ["ask Dune about sand #home"]
        assert tasks.locator("strong a.bb-link").inner_text() == "Dune"
        assert tasks.locator("code").inner_text() == "sand"
        # the theme draws the box (as on the note's page), not a bare checkbox
        drawn = page.locator(".bb-query-tasks .task-list-indicator").first.evaluate(
            "e => parseFloat(getComputedStyle(e, '::before').height)")
        assert drawn > 0
        _readable(page, ".bb-query-tasks .bb-task-text")
        # a base in a callout
        callout = page.locator(".admonition.note")
        assert callout.locator(".bb-dashboard li").all_inner_texts() == ["Ulysses"]
        # the error box: visible, with its message
        error = page.locator(".bb-dashboard-error")
        assert error.is_visible()
        assert "Dataview query failed" in error.inner_text()
        assert error.locator("p").nth(1).inner_text().strip() != ""
        _readable(page, ".bb-dashboard-error p")
        page.screenshot(path=str(shots / f"dashboard-pages-note-{scheme}.png"), full_page=True)
        # a link in a cell leads to the note
        assert rows.locator("td:first-child").all_inner_texts() == ["Dune", "Ulysses", "Emma"]
        rows.nth(2).locator("td a").first.click()
        page.wait_for_url("**/Emma/")
        assert page.locator("h1").first.inner_text().startswith("Emma")
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_dashboard_note_on_a_phone(browser: Any, site_url: str, shots: Path,
                                     scheme: str) -> None:
    """A wide table scrolls inside its box; the page never scrolls sideways."""
    context, page, problems = open_watched(browser, "phone", scheme)
    try:
        page.goto(f"{site_url}/Dashboard/")
        width = page.evaluate("window.innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        wrap = page.locator(".bb-dashboard .bb-query-table .md-typeset__scrollwrap").first
        assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")
        box = wrap.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        for selector in (".bb-query-tasks", ".admonition.note", ".bb-dashboard-error"):
            found = page.locator(selector).first.bounding_box()
            assert found is not None and found["x"] + found["width"] <= width, selector
        assert page.locator(".bb-dashboard-error").is_visible()
        page.screenshot(path=str(shots / f"dashboard-pages-phone-{scheme}.png"),
                        full_page=True)
        assert problems == []
    finally:
        context.close()


def test_base_tabs_switch_without_javascript_and_by_link(browser: Any, site_url: str) -> None:
    """The tabs are radio buttons and CSS: they switch with scripts off; with
    Material's script a link to a view's id opens that view, and so does a note's
    ``[[Library.base#Reading now]]``."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280,
                                                                      "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{site_url}/Library.base/")
        blocks = page.locator(".tabbed-set .tabbed-block table")
        assert blocks.nth(0).is_visible() and not blocks.nth(1).is_visible()
        page.locator(".tabbed-labels label", has_text="Reading now").click()
        assert blocks.nth(1).is_visible() and not blocks.nth(0).is_visible()
    finally:
        context.close()
    context, page, problems = open_watched(browser, "desktop")
    try:
        page.goto(f"{site_url}/Library.base/#bb-view-reading-now")
        second = page.locator(".tabbed-set .tabbed-block").nth(1).locator("table")
        second.wait_for(state="visible")
        assert not page.locator(".tabbed-set .tabbed-block").nth(0).locator(
            "table").is_visible()
        page.goto(f"{site_url}/")
        page.get_by_role("link", name="what I read now").click()
        second = page.locator(".tabbed-set .tabbed-block").nth(1).locator("table")
        second.wait_for(state="visible")
        assert page.url.endswith("/Library.base/#bb-view-reading-now")
        assert problems == []
    finally:
        context.close()

"""Dates, reading time and the recent notes page in headless Chromium, on a real
``mkdocs build`` (issue 21): what a reader sees, in both palettes, desktop and phone.

The screenshots of docs/guide/reading.md come from here:
``BB_SCREENSHOTS=docs/assets/screenshots pytest tests/browser/test_recent_dates.py``
writes ``recent-*.png`` and ``note-dates-*.png`` there (else into the test's tmp folder).
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

NOTES = {
    "Reading list.md": ("2026-01-12", "2026-05-05",
                        "Books and papers to read next, with a line on why each matters. "
                        "Start with [[Spaced repetition]], then [[Zettelkasten]]."),
    "Spaced repetition.md": ("2025-11-03", "2026-04-21",
                             "Reviewing a card just before it is forgotten makes it stick "
                             "longer each time. See [[Zettelkasten]] for where cards come from."),
    "Zettelkasten.md": ("2025-09-14", "2026-03-03",
                        "A note per idea, each linked to the ideas it grew from. "
                        "The links, not the folders, are the structure."),
    "Weekly review.md": ("2026-02-02", "2026-02-27",
                         "Every Friday: empty the inbox, look at the calendar, pick three "
                         "things for next week. It takes half an hour."),
    "Draft idea.md": None,
}


def _write(project: Project) -> None:
    project.write("index.md", "# My notes\n\nA small vault: start with [[Reading list]].\n")
    for name, dates in NOTES.items():
        if dates is None:
            project.write(name, "---\ndraft: true\nmodified: 2027-01-01\n---\nNot yet.\n")
            continue
        created, modified, text = dates
        body = " ".join([text] * 12)  # a few minutes of reading
        project.write(name, f"---\ncreated: {created}\nmodified: {modified}\n---\n"
                      f"# {name[:-3]}\n\n{text}\n\n## More\n\n{body}\n")


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("recent") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    _write(project)
    result = project.build(site_name="My notes",
                           theme={"name": "material", "font": False, "palette": BOTH_PALETTES})
    assert result.error is None, result.error
    with serve(result.site) as url:
        yield url


#: every size in both palettes (the screenshots in docs/ are these)
VARIANTS = [(size, scheme) for size in SIZES for scheme in ("light", "dark")]


def _is_dark(page: Any) -> bool:
    return bool(page.evaluate("document.body.getAttribute('data-md-color-scheme') === 'slate'"))


@pytest.mark.parametrize(("size", "scheme"), VARIANTS)
def test_note_shows_dates_and_reading_time(browser: Any, site_url: str, shots: Path,
                                           size: str, scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    page.goto(f"{site_url}Reading%20list/")
    assert _is_dark(page) == (scheme == "dark")
    line = page.locator(".bb-note-meta")
    assert line.is_visible()
    assert line.inner_text() == "Created 12 January 2026 · Updated 5 May 2026 · 2 min read"
    # right under the title
    title_box = page.locator("article h1").bounding_box()
    line_box = line.bounding_box()
    assert 0 <= line_box["y"] - (title_box["y"] + title_box["height"]) < 60
    colour = page.evaluate(
        "getComputedStyle(document.querySelector('.bb-note-meta')).color")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert colour != background
    page.screenshot(path=str(shots / f"note-dates-{size}-{scheme}.png"))
    context.close()
    assert problems == []


@pytest.mark.parametrize(("size", "scheme"), VARIANTS)
def test_recent_page_lists_notes(browser: Any, site_url: str, shots: Path, size: str,
                                 scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    page.goto(f"{site_url}recent/")
    assert _is_dark(page) == (scheme == "dark")
    titles = page.locator(".bb-recent__title").all_inner_texts()
    assert titles[1:] == ["Reading list", "Spaced repetition", "Zettelkasten", "Weekly review"]
    assert "Draft idea" not in page.locator("article").inner_text()
    first = page.locator(".bb-recent__item").nth(1).inner_text()
    assert "5 May 2026" in first and "Books and papers to read next" in first
    page.locator(".bb-recent__title", has_text="Zettelkasten").click()
    page.wait_for_url("**/Zettelkasten/")
    assert page.locator("article h1").inner_text().startswith("Zettelkasten")
    page.goto(f"{site_url}recent/")
    assert _is_dark(page) == (scheme == "dark")
    page.screenshot(path=str(shots / f"recent-{size}-{scheme}.png"))
    context.close()
    assert problems == []


def test_home_lists_recent_notes(browser: Any, site_url: str) -> None:
    context, page, problems = open_watched(browser, "desktop")
    page.goto(site_url)
    home = page.locator(".bb-recent--home")
    assert home.locator("h2").inner_text() == "Recent notes"
    assert home.locator(".bb-recent__title").all_inner_texts() == [
        "Reading list", "Spaced repetition", "Zettelkasten", "Weekly review"]
    context.close()
    assert problems == []

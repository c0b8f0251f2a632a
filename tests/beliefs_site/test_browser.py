"""The belief pages in a real browser: the as-of control and the belief search.

The fixture knowledge base is built once with the plugin, served on 127.0.0.1
and opened in Debian's chromium through Playwright.  Every request a page
makes is recorded; any request that leaves this machine fails the test, as
does a console error or a dialog (a hostile statement that ran).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from belief_kb import BUILD_DATE, belief_kb

from tests.browser.graph_site import CHROMIUM_ARGS, serve
from tests.conftest import BASE_CONFIG, Project

pytestmark = pytest.mark.browser

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _skip_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright for Python is not installed (pip install -e '.[test]')"
    if not shutil.which("chromium"):
        return "Debian chromium is not installed (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if reason := _skip_reason():
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("belief-site") / "kb"
    (root / "docs").mkdir(parents=True)
    project = belief_kb(Project(root, dict(BASE_CONFIG)))
    moment = datetime(BUILD_DATE.year, BUILD_DATE.month, BUILD_DATE.day, 12, tzinfo=UTC)
    epoch = str(int(moment.timestamp()))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", epoch)
        result = project.build()
    assert result.error is None, result.lines
    return result.site


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    seen: dict[str, list[str]] = {"requests": [], "errors": [], "dialogs": []}
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["errors"].append(f"uncaught: {e}"))

    def on_dialog(dialog: Any) -> None:
        seen["dialogs"].append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    yield page
    context.close()
    foreign = [u for u in seen["requests"]
               if not u.startswith(("data:", "blob:")) and urlsplit(u).hostname not in LOCAL_HOSTS]
    assert foreign == [], "the belief pages must not leave the site"
    assert seen["errors"] == [], "console errors"
    assert seen["dialogs"] == [], "a hostile string was executed"
    assert any(u.endswith("/_beliefbase/beliefs.js") for u in seen["requests"])


def _shown(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "[data-bb-belief]", "els => els.filter(e => !e.hidden).map(e => e.dataset.bbBelief)")


def _as_of(page: Any, day: str) -> list[str]:
    page.fill("#bb-asof-date", day)
    page.dispatch_event("#bb-asof-date", "change")
    return _shown(page)


def test_as_of_control_shows_what_was_believed(page: Any, base_url: str) -> None:
    page.goto(base_url + "beliefs/topic/auth/")
    assert page.is_visible("form[data-bb-asof]")
    assert _shown(page) == ["b-auth-new", "b-auth-old"]  # the full history, newest first
    assert _as_of(page, "2026-03-01") == ["b-auth-old"]
    assert _as_of(page, "2026-05-19") == ["b-auth-old"]
    assert _as_of(page, "2026-05-20") == ["b-auth-new"]  # superseded on D: not current on D
    assert "On 2026-05-20 we believed 1 of these 2 statements." in page.inner_text(
        "[data-bb-role=status]")
    assert _as_of(page, "2025-12-31") == []
    assert page.is_visible("[data-bb-role=empty]")
    assert "as_of=2025-12-31" in page.url
    page.click("[data-bb-role=all]")
    page.wait_for_function("document.querySelectorAll('[data-bb-belief]:not([hidden])')"
                           ".length === 2")
    assert page.input_value("#bb-asof-date") == ""
    page.click("[data-bb-date='2026-01-10']")
    assert _shown(page) == ["b-auth-old"]
    page.click("[data-bb-role=today]")
    assert page.input_value("#bb-asof-date") == "2026-06-01"
    assert _shown(page) == ["b-auth-new"]


def test_as_of_from_the_url_and_date_times(page: Any, base_url: str) -> None:
    page.goto(base_url + "beliefs/topic/sessions/?as_of=2026-02-01")
    # b-session-30 was asserted at 2026-02-01T09:30:00Z: held at the end of that day.
    assert _shown(page) == ["b-session-30"]
    assert page.input_value("#bb-asof-date") == "2026-02-01"
    assert _as_of(page, "2026-01-31") == []
    assert _as_of(page, "2026-03-01") == ["b-session-15", "b-session-30"]


def test_as_of_semantics_in_the_module(page: Any, base_url: str) -> None:
    page.goto(base_url + "beliefs/topic/auth/")
    results = page.evaluate("""async () => {
        const m = await import('../../../_beliefbase/beliefs.js');
        return [
          m.heldOn('2026-05-20', null, '2026-05-20'),
          m.heldOn('2026-01-10', '2026-05-20', '2026-05-20'),
          m.heldOn('2026-01-10', '2026-05-20', '2026-05-19'),
          m.heldOn('2026-05-20T23:59:59Z', null, '2026-05-20'),
          m.heldOn('2026-05-21', null, '2026-05-20'),
          m.heldOn('2026-01-10', '2026-05-20T08:00:00Z', '2026-05-20'),
        ];
    }""")
    assert results == [True, False, True, True, False, False]


def _search(page: Any, text: str) -> list[str]:
    page.fill("#bb-belief-search-input", text)
    page.wait_for_function("document.querySelector('[data-bb-role=status]').textContent"
                           " && !document.querySelector('[data-bb-role=status]').textContent"
                           ".startsWith('Loading')")
    return page.eval_on_selector_all(".bb-belief-search__result a", "els => els.map(e => "
                                     "e.textContent)")


def test_belief_search_finds_statements_subjects_and_topics(page: Any, base_url: str) -> None:
    page.goto(base_url + "beliefs/")
    assert page.is_visible("[data-bb-belief-search]")
    assert sorted(_search(page, "refresh")) == ["The refresh endpoint is /auth/v2/refresh.",
                                                "The refresh endpoint is /oauth/refresh."]
    assert _search(page, "fifteen") == ["Sessions last fifteen minutes."]
    assert sorted(_search(page, "sessi")) == ["Sessions last fifteen minutes.",  # a prefix
                                              "Sessions last thirty minutes."]
    assert _search(page, "Acme refresh endpoint /auth/v2") == [  # words of the subject
        "The refresh endpoint is /auth/v2/refresh."]
    assert _search(page, "billing") == ["Prices are in EUR."]  # the topic
    assert _search(page, "zzzqqq") == []
    assert page.inner_text("[data-bb-role=status]") == "No belief matches."
    for text in ("title:x ^2 ~1 * -", "\"unclosed", "<img src=x onerror=alert(1)>"):
        _search(page, text)  # query syntax and markup are text: no error, no dialog
    hits = _search(page, "script")
    assert hits and hits[0].startswith("<script>alert('bb')</script>")  # shown as text
    page.fill("#bb-belief-search-input", "fifteen")
    page.wait_for_selector(".bb-belief-search__result a")
    page.click(".bb-belief-search__result a")
    page.wait_for_url("**/beliefs/b-session-15/")
    assert "Sessions last fifteen minutes." in page.inner_text("h1")


def test_index_loads_lunr_only_when_searching(page: Any, base_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(base_url + "beliefs/")
    page.wait_for_load_state("networkidle")
    assert not any(u.endswith(("lunr.js", "beliefs-search.json")) for u in requested)
    page.focus("#bb-belief-search-input")
    page.wait_for_function("window.lunr !== undefined")
    assert any(u.endswith("/_beliefbase/lunr.js") for u in requested)
    assert any(u.endswith("/_beliefbase/beliefs-search.json") for u in requested)

"""The reader's features in headless Chromium, on a REAL ``mkdocs build`` of the
small knowledge base in tests/reader/kb.py (the plugin, Material, search):
graph page, local graph, hover previews, Material's site search.

Every page is watched: console errors, dialogs (a hostile title that ran) and
every request (none may leave 127.0.0.1) fail the test.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.conftest import BASE_CONFIG, Project  # noqa: E402
from tests.reader.kb import HOSTILE, write_kb  # noqa: E402

pytestmark = pytest.mark.browser

READY = "window.__bbGraph && window.__bbGraph.ready()"
SETTLED = f"{READY} && window.__bbGraph.isIdle()"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reader") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    write_kb(project)
    result = project.build()
    assert result.error is None, result.error
    return result.site


@pytest.fixture(scope="module")
def site_url(built: Path) -> Iterator[str]:
    from graph_site import serve

    with serve(built) as url:
        yield url


@pytest.fixture(scope="module")
def ids(built: Path) -> dict[str, str]:
    """Title -> node id, from the build's previews.json."""
    pages = json.loads((built / "_beliefbase" / "previews.json").read_text("utf-8"))["pages"]
    return {p["title"]: bid for bid, p in pages.items()}


class Watch:
    """Console errors, dialogs and requests of one page."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def assert_clean(self) -> None:
        foreign = [u for u in self.requests if not u.startswith(("data:", "blob:"))
                   and urlsplit(u).hostname not in LOCAL_HOSTS]
        assert foreign == [], "a request left the site"
        assert self.errors == [], "console errors"
        assert self.dialogs == [], "a user string was executed"

    def count(self, suffix: str) -> int:
        return sum(urlsplit(u).path.endswith(suffix) for u in self.requests)


def _open(browser: Any, width: int = 1280, height: int = 800) -> tuple[Any, Any, Watch]:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    return context, page, Watch(page)


@pytest.fixture
def tab(browser: Any) -> Iterator[tuple[Any, Watch]]:
    context, page, watch = _open(browser)
    yield page, watch
    context.close()
    watch.assert_clean()


def graph(page: Any, expr: str) -> Any:
    return page.evaluate(f"window.__bbGraph.{expr}")


# -- the graph page -----------------------------------------------------------------------


def test_graph_page_draws_every_published_note(tab: Any, site_url: str, ids: Any) -> None:
    page, watch = tab
    page.goto(f"{site_url}graph/")
    page.wait_for_function(SETTLED, timeout=15_000)
    assert sorted(graph(page, "visibleNodeIds()")) == sorted(ids.values())
    assert graph(page, "visibleNodeCount()") == 5  # the draft is not there
    # Home-Alpha, Home-Beta (a Markdown link), Alpha-Beta, Alpha-Gamma, Alpha-Hostile
    assert graph(page, "visibleEdgeCount()") == 5
    assert page.text_content("[data-bb-role=status]") == "5 notes · 5 links"
    assert watch.count("graph-view.json") == 1
    assert watch.count("/graph.json") == 0, "the viewer reads its own slim file"
    assert watch.count("search-index.json") == 0, "the search index loads lazily"
    assert page.title().startswith("Graph")


def test_graph_search_focuses_a_note_by_alias(tab: Any, site_url: str, ids: Any) -> None:
    page, watch = tab
    page.goto(f"{site_url}graph/")
    page.wait_for_function(SETTLED, timeout=15_000)
    page.fill("[data-bb-role=search]", "third letter")
    page.wait_for_selector("[data-bb-role=results] [data-index]")
    first = page.locator("[data-bb-role=results] .bb-graph__result-title").first.text_content()
    assert first == "Gamma"
    page.keyboard.press("Enter")
    assert graph(page, "focusedNodeId()") == ids["Gamma"]
    assert watch.count("search-index.json") == 1 and watch.count("lunr.js") == 1
    page.fill("[data-bb-role=search]", "method")  # a heading of Alpha
    page.wait_for_function("document.querySelector('[data-bb-role=results] "
                           ".bb-graph__result-title')?.textContent === 'Alpha'")


def test_graph_filter_hides_nodes(tab: Any, site_url: str, ids: Any) -> None:
    page, _ = tab
    page.goto(f"{site_url}graph/")
    page.wait_for_function(SETTLED, timeout=15_000)
    page.click("[data-bb-role=filters-toggle]")
    page.select_option("[data-bb-role=filter-tag]", "greek")
    assert sorted(graph(page, "visibleNodeIds()")) == sorted([ids["Alpha"], ids["Beta"]])
    page.click("[data-bb-role=filters-reset]")
    assert graph(page, "visibleNodeCount()") == 5


def test_graph_click_opens_the_note(tab: Any, site_url: str, ids: Any) -> None:
    page, _ = tab
    page.goto(f"{site_url}graph/")
    page.wait_for_function(SETTLED, timeout=15_000)
    pos = graph(page, f"nodeClientPosition('{ids['Beta']}')")
    page.mouse.click(pos["x"], pos["y"])
    page.wait_for_url(f"{site_url}notes/beta/")


# -- every page: local graph, previews --------------------------------------------------


def test_local_graph_on_a_note(tab: Any, site_url: str, ids: Any) -> None:
    page, watch = tab
    page.goto(f"{site_url}notes/alpha/")
    local = page.locator(".bb-local-graph [data-bb-graph][data-mode=local]")
    assert local.count() == 1
    local.scroll_into_view_if_needed()
    page.wait_for_function(SETTLED, timeout=15_000)
    assert sorted(graph(page, "visibleNodeIds()")) == sorted(
        [ids["Alpha"], ids["Beta"], ids["Gamma"], ids[HOSTILE], ids["Home"]])
    page.click(".bb-local-graph [data-bb-role=depth-toggle]")
    assert page.get_attribute(".bb-local-graph [data-bb-role=depth-toggle]",
                              "aria-pressed") == "true"
    assert watch.count("graph-view.json") == 1


def _preview(page: Any) -> Any:
    page.wait_for_selector(".bb-preview[data-shown]", timeout=5_000)
    return page.locator(".bb-preview")


def test_hover_preview_shows_title_and_first_paragraph(tab: Any, site_url: str) -> None:
    page, watch = tab
    page.goto(f"{site_url}notes/alpha/")
    page.hover("article a.bb-link:text('Beta')")
    box = _preview(page)
    assert box.locator(".bb-preview__title").text_content() == "Beta"
    assert box.locator(".bb-preview__excerpt").text_content().startswith(
        "Beta explains the measurement.")
    page.mouse.move(5, 5)
    page.wait_for_selector(".bb-preview", state="hidden")
    page.hover("article a.bb-link:text('Gamma')")
    assert _preview(page).locator(".bb-preview__title").text_content() == "Gamma"
    assert watch.count("previews.json") == 1, "one request for all previews"


def test_hover_preview_shows_code_ranges_as_code(tab: Any, site_url: str,
                                                built: Path) -> None:
    """``previews.json``'s ``code`` ranges become ``<code>``; ranges out of the text or
    out of order are ignored, and nothing of the excerpt is read as HTML."""
    page, _ = tab
    data = json.loads((built / "_beliefbase" / "previews.json").read_text("utf-8"))
    for entry in data["pages"].values():
        if entry["title"] == "Beta":
            entry["excerpt"] = "Beta <b>uses</b> x.y() here"
            entry["code"] = [[17, 22], [0, 2], [23, 999], "bad"]
    page.route("**/previews.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(data)))
    page.goto(f"{site_url}notes/alpha/")
    page.hover("article a.bb-link:text('Beta')")
    excerpt = _preview(page).locator(".bb-preview__excerpt")
    assert excerpt.text_content() == "Beta <b>uses</b> x.y() here"
    assert excerpt.locator("code").all_text_contents() == ["x.y()"]
    assert excerpt.locator("b").count() == 0


def test_hover_preview_of_a_hostile_title_is_text(tab: Any, site_url: str) -> None:
    page, _ = tab
    page.goto(f"{site_url}notes/alpha/")
    page.hover("article a.bb-link[href$='hostile/']")
    box = _preview(page)
    assert box.locator(".bb-preview__title").text_content() == HOSTILE
    assert box.locator("img, script, b").count() == 0
    assert "Hostile <b>bold</b>" not in box.inner_html()
    page.wait_for_timeout(300)  # an injected onerror would have fired by now


def test_markdown_link_and_keyboard_focus_get_previews(tab: Any, site_url: str) -> None:
    page, _ = tab
    page.goto(site_url)
    page.focus("article a:text('the beta note')")
    assert _preview(page).locator(".bb-preview__title").text_content() == "Beta"
    page.keyboard.press("Escape")
    page.wait_for_selector(".bb-preview", state="hidden")


def test_preview_stays_on_screen_at_phone_width(browser: Any, site_url: str) -> None:
    context, page, watch = _open(browser, 390, 844)
    page.goto(f"{site_url}notes/alpha/")
    for link in page.locator("article a.bb-link").all():
        link.focus()
        box = _preview(page).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
    watch.assert_clean()


# -- Material's search ---------------------------------------------------------------------


def site_search(page: Any, query: str) -> list[str]:
    """Type into Material's search box (it listens to keys); the page titles found."""
    page.click("label.md-search__icon, .md-search__input", timeout=5_000)
    page.locator(".md-search__input").press_sequentially(query, delay=10)
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    titles: list[str] = page.locator(".md-search-result__item h1").all_text_contents()
    return [t.strip() for t in titles]


@pytest.mark.parametrize("query,title", [
    ("Gamma", "Gamma"),  # title
    ("Third Letter", "Gamma"),  # alias ("Also called" line)
    ("measurement", "Beta"),  # text
    ("closes the loop", "Gamma"),  # text around a rewritten wikilink
])
def test_site_search_finds_notes(tab: Any, site_url: str, query: str, title: str) -> None:
    page, _ = tab
    page.goto(f"{site_url}notes/beta/")
    titles = site_search(page, query)
    assert title in titles


def test_site_search_shows_a_hostile_title_as_text(tab: Any, site_url: str) -> None:
    page, _ = tab
    page.goto(f"{site_url}notes/beta/")
    assert HOSTILE in site_search(page, "hostile bold")
    assert page.locator(".md-search-result img, .md-search-result script").count() == 0
    page.wait_for_timeout(300)


def test_model_reads_graph_view_triples_and_survives_bad_ones(tab: Any, site_url: str) -> None:
    """graph-view.json's edges are flat (source, target, type) triples of positions;
    a bad triple is skipped, never a crash."""
    page, _ = tab
    page.goto(f"{site_url}graph/")
    page.wait_for_function(READY)
    result = page.evaluate("""async () => {
        const { GraphModel } = await import('../_beliefbase/graph/model.js');
        const m = new GraphModel({version: 1, types: ['links_to', 'tagged', 7], nodes: [
            {id: 'a', title: 'A', url: 'a/', folder: 'f', tags: ['t']},
            {id: 't', kind: 'Tag', title: '#t'},
            {id: 'b', title: 'B'},
        ], edges: [0, 2, 0,  0, 1, 1,  2, 0, 2,  0, 9, 0,  1.5, 0, 0,  0, 2, 5,  '0', 2, 0,  1]});
        const v = m.computeView(m.defaultFilters());
        return {types: m.types, edges: m.edgeSrc.length, dropped: m.droppedEdges,
                shown: v.src.length, folder: m.nodes[0].folder, kind: m.nodes[2].kind,
                degree: Array.from(m.degree)};
    }""")
    assert result["types"] == ["links_to", "tagged"]  # a non-string type reads as links_to
    assert result["edges"] == 3 and result["dropped"] == 4
    assert result["shown"] == 1  # documents only: a-b (both ways, once)
    assert result["folder"] == "f" and result["kind"] == "Document"
    assert result["degree"] == [2, 1, 1]


def test_previews_and_panels_follow_the_dark_palette(browser: Any, site_url: str) -> None:
    context, page, watch = _open(browser)
    page.goto(f"{site_url}notes/alpha/")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.hover("article a.bb-link:text('Beta')")
    box = _preview(page)
    rgb = box.evaluate("el => getComputedStyle(el).backgroundColor")
    channels = [int(c) for c in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    assert sum(channels) < 200, rgb
    title = box.locator(".bb-preview__title").evaluate("el => getComputedStyle(el).color")
    assert sum(int(c) for c in title[title.index("(") + 1:title.index(")")].split(",")[:3]) > 400
    context.close()
    watch.assert_clean()


CLS = """() => new Promise((resolve) => {
    let sum = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) sum += e.value; })
        .observe({type: 'layout-shift', buffered: true});
    setTimeout(() => resolve(sum), 1000);
})"""


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
@pytest.mark.parametrize("path", ["graph/", "notes/alpha/"])
def test_no_layout_jumps(browser: Any, site_url: str, path: str, width: int,
                         height: int) -> None:
    """Cumulative layout shift while the page, the graph and the panels load."""
    context, page, watch = _open(browser, width, height)
    page.goto(f"{site_url}{path}")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # starts the local graph
    page.wait_for_function(READY, timeout=15_000)
    assert page.evaluate(CLS) < 0.01
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
    watch.assert_clean()

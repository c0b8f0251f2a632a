"""A Dataview result through the site's own ``table`` and ``list`` views."""

from __future__ import annotations

from pathlib import Path

import jinja2
from beliefbase.dataview import Link, run
from beliefbase.dataview.view import view_context

from .vaults import NOW, build_index, page

VIEWS = Path(__file__).parents[2] / "theme" / "views"
INDEX = build_index([
    page("Games/Pong.md", "#games", {"rating": 7, "title": "<script>x()</script>"}),
    page("Games/Tetris.md", "#games", {"rating": 9}),
])


def render(view: str, context: dict[str, object]) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(VIEWS), autoescape=True)
    return env.get_template(f"{view}.html").render(**context)


def href(link: Link) -> str:
    return "/" + link.path.removesuffix(".md").lower() + "/"


def test_table_through_the_table_view() -> None:
    result = run('TABLE rating, title, rating AS "rating" FROM #games SORT rating DESC', INDEX,
                 None, now=NOW)
    context = view_context(result, href)
    assert context["columns"] == ["File", "rating", "title", "rating (2)"]
    html = render("table", context)
    assert '<a class="internal-link" href="/games/tetris/">Tetris</a>' in html
    assert "<script>" not in html and "&lt;script&gt;x()&lt;/script&gt;" in html
    assert html.index("Tetris") < html.index("Pong")
    assert '<span class="dataview-null">-</span>' in html


def test_list_through_the_list_view() -> None:
    context = view_context(run("LIST rating FROM #games", INDEX, None, now=NOW), href)
    assert context["columns"] == ["File", "Value"]
    html = render("list", context)
    assert '<li><a class="internal-link" href="/games/pong/">Pong</a> · 7</li>' in html


def test_without_id_and_empty() -> None:
    context = view_context(run("TABLE WITHOUT ID rating FROM #games", INDEX, None, now=NOW))
    assert context["columns"] == ["rating"] and [r["rating"] for r in context["rows"]] == [7, 9]
    empty = view_context(run("LIST FROM #none", INDEX, None, now=NOW))
    assert "No results." in render("list", empty)

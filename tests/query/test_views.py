"""Views: golden HTML of each built-in, user views with extends, the view chain,
escaping of hostile values, and the sandbox a view renders in."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from beliefbase.query.run import QueryResult
from beliefbase.site.query_views import BUILT_IN, ViewError, Views

GOLDEN = Path(__file__).parent / "golden"
HOSTILE = '<script>alert("x")</script> & <b>bold</b>'


def node(title: str, url: str, **fields: object) -> dict[str, object]:
    return {"label": "Project", "bid": f"bid-{title}", "kind": "Document", "title": title,
            "path": url.rstrip("/") + ".md", "url": url, "tags": ["work"], **fields}


NODES = QueryResult(("p",), (
    (node("Beta", "projects/beta/", due="2026-04-01", status="active", priority=7),),
    (node(HOSTILE, "projects/alpha/", due="2026-03-01", status=HOSTILE),),
    (node("Gamma", "gamma/", status="done"),),
))
ROWS = QueryResult(("title", "priority", "due", "tags"), (
    ("Beta", 7, dt.date(2026, 4, 1), ["work", "urgent"]),
    (HOSTILE, None, "2026-03-01", []),
    ("Gamma", 1.5, None, ["x"]),
))


def views(tmp_path: Path | None = None, mapping: dict[str, str] | None = None) -> Views:
    return Views(tmp_path, mapping or {})


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize(("kind", "result"), [("nodes", NODES), ("rows", ROWS)])
def test_golden_html(name: str, kind: str, result: QueryResult) -> None:
    html = str(views().render(name, result, "dash/"))
    golden = GOLDEN / f"{name}-{kind}.html"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(html, encoding="utf-8")
    assert html == golden.read_text(encoding="utf-8")
    assert "<script>" not in html and "<b>" not in html


@pytest.mark.parametrize("name", BUILT_IN)
def test_empty_result(name: str) -> None:
    html = str(views().render(name, QueryResult(("n",), ()), "dash/"))
    assert ("0" if name == "count" else "No results.") in html


def test_links_are_relative_to_the_page() -> None:
    html = str(views().render("list", NODES, "deep/er/page/"))
    assert '<a href="../../../projects/beta/">Beta</a>' in html
    assert '<a href="../../../gamma/">Gamma</a>' in html
    home = str(views().render("list", NODES, ""))
    assert '<a href="projects/beta/">Beta</a>' in home


def test_user_view_extends_a_built_in(tmp_path: Path) -> None:
    (tmp_path / "project-table.html").write_text(
        '{% extends "table.html" %}\n'
        '{% block header %}<em>{{ column | upper }}</em>{% endblock %}\n'
        '{% block cell %}{% if column == "title" %}<strong>{{ cell(value) }}</strong>'
        '{% else %}{{ super() }}{% endif %}{% endblock %}\n', encoding="utf-8")
    html = str(views(tmp_path).render("project-table", ROWS, "dash/"))
    assert "<th><em>TITLE</em></th>" in html and "<td><strong>Beta</strong></td>" in html
    assert "<td>7</td>" in html  # super(): the built-in cell
    assert "&lt;script&gt;" in html and "<script>" not in html


def test_view_chain(tmp_path: Path) -> None:
    (tmp_path / "project-cards.html").write_text('{% extends "cards.html" %}', encoding="utf-8")
    chosen = views(tmp_path, {"Project": "project-cards"})
    assert chosen.choose("count", NODES) == "count"  # explicit first
    assert chosen.choose(None, NODES) == "project-cards"  # then the views map by schema
    assert views(tmp_path).choose(None, NODES) == "list"  # nodes
    assert chosen.choose(None, ROWS) == "table"  # rows have no schema


def test_unknown_view() -> None:
    with pytest.raises(ViewError, match="no view named 'nope'"):
        views().render("nope", ROWS, "")


def test_broken_user_view(tmp_path: Path) -> None:
    (tmp_path / "bad.html").write_text("{% for x in %}", encoding="utf-8")
    with pytest.raises(ViewError, match="'bad' failed"):
        views(tmp_path).render("bad", ROWS, "")


def test_views_render_in_a_sandbox(tmp_path: Path) -> None:
    (tmp_path / "evil.html").write_text(
        "{{ cell.__globals__ }}{{ ''.__class__.__mro__[1].__subclasses__() }}", encoding="utf-8")
    with pytest.raises(ViewError):
        views(tmp_path).render("evil", ROWS, "")


def test_wikilink_values_through_find() -> None:
    """``find`` resolves a ``"[[x]]"`` value (per note in cards); its text is escaped."""
    from beliefbase.site.query_views import LinkTarget

    asked: list[tuple[str, str | None]] = []

    def find(inner: str, path: str | None) -> LinkTarget:
        asked.append((inner, path))
        if inner == "Ada":
            return LinkTarget("people/ada/#early-life", HOSTILE)
        return LinkTarget(None, inner, f"{inner} (no such note)")

    result = QueryResult(("p",), ((node("Beta", "projects/beta/", owner="[[Ada]]",
                                        team=["[[Ada]]", "[[Nobody|<i>x</i>]]"],
                                        note="[[Ada]] and more"),),))
    html = str(views().render("cards", result, "dash/", find))
    ada = ('<a class="bb-link" href="../people/ada/#early-life">&lt;script&gt;alert(&#34;x&#34;)'
           "&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;</a>")
    assert f"<dt>owner</dt><dd>{ada}</dd>" in html
    assert ('<span class="bb-link bb-unresolved" title="Nobody|&lt;i&gt;x&lt;/i&gt; (no such '
            'note)">Nobody|&lt;i&gt;x&lt;/i&gt;</span>') in html
    assert "<dd>[[Ada]] and more</dd>" in html  # text around a link: not a link value
    assert set(asked) == {("Ada", "projects/beta.md"), ("Nobody|<i>x</i>", "projects/beta.md")}
    plain = str(views().render("cards", result, "dash/"))  # without find: text
    assert "<dd>[[Ada]]</dd>" in plain

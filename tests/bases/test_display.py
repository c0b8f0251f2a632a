"""format_value and render_html: Obsidian's display of values, and no value can
inject markup (hostile properties stay text)."""

from __future__ import annotations

import datetime as dt

from beliefbase.bases import (
    Date,
    Duration,
    ErrorValue,
    Html,
    Icon,
    Image,
    Link,
    evaluate,
    format_value,
    parse_base,
    render_html,
)

from .vault import DUNE, HOSTILE, NOW, RECORDS, ev


def href(link: Link) -> str | None:
    return f"/{link.path.removesuffix('.md')}/" if link.path else None


def test_format_value() -> None:
    assert format_value(None) == ""
    assert format_value(True) == "true"
    assert format_value(3) == "3"
    assert format_value(2.5) == "2.5"
    assert format_value(0.1 + 0.2) == "0.30000000000000004"  # as JavaScript writes it
    assert format_value(1e21) == "1e+21"
    assert format_value(0.00001) == "0.00001"
    assert format_value(float("nan")) == "NaN"
    assert format_value(Date(dt.datetime(2025, 5, 27))) == "2025-05-27"
    assert format_value(Date(dt.datetime(2025, 5, 27, 14, 5), True)) == "2025-05-27 14:05"
    assert format_value(Duration(0, 90_000_000)) == "1 day 1 hour"
    assert format_value(("a", 1, None)) == "a, 1, "
    assert format_value(Link("People/Frank Herbert.md")) == "Frank Herbert"
    assert format_value(Link("x", "Shown")) == "Shown"
    assert format_value(DUNE) == "Dune"
    assert format_value({"a": 1}) == "{a: 1}"
    assert format_value(ErrorValue("boom")) == "Error"


def test_render_links_and_broken_links() -> None:
    base = parse_base("views: [{type: table, order: [author]}]", "A.base")
    rows = evaluate(base, None, RECORDS, now=NOW).rows
    [cell] = next(r for r in rows if r.record is DUNE).cells
    assert render_html(cell, href) == (
        '<a class="bases-link" href="/People/Frank Herbert/">Frank Herbert</a>')
    assert render_html(ev('link("Nowhere")'), href) == (
        '<span class="bases-link bases-link-broken">Nowhere</span>')
    assert render_html(Link("https://example.org/?a=1&b=2")) == (
        '<a class="bases-link" href="https://example.org/?a=1&amp;b=2">'
        'https://example.org/?a=1&amp;b=2</a>')
    assert "href" not in render_html(Link("javascript:alert(1)"))


def test_render_lists_booleans_dates() -> None:
    assert render_html(("a", "<b>")) == (
        '<span class="bases-list">a<span class="bases-sep">, </span>&lt;b&gt;</span>')
    assert render_html(True) == '<input type="checkbox" disabled checked>'
    assert render_html(False) == '<input type="checkbox" disabled>'
    assert render_html(Date(dt.datetime(2025, 1, 2))) == "2025-01-02"
    assert render_html(None) == ""


def test_html_image_icon_are_safe() -> None:
    assert render_html(Html("<script>alert(1)</script>")) == (
        '<span class="bases-html">&lt;script&gt;alert(1)&lt;/script&gt;</span>')
    assert render_html(Image('x" onerror="alert(1)')) == (
        '<img class="bases-image" src="x&#34; onerror=&#34;alert(1)" alt="" loading="lazy">')
    assert "<img" not in render_html(Image("javascript:alert(1)"))
    assert render_html(Image("#ff0000")) == (
        '<span class="bases-image-color" style="background-color: #ff0000"></span>')
    assert render_html(Icon('x"><script>')) == (
        '<span class="bases-icon" data-icon="x&#34;&gt;&lt;script&gt;" '
        'aria-label="x&#34;&gt;&lt;script&gt;"></span>')


def test_hostile_property_stays_text_through_a_base() -> None:
    base = parse_base("formulas:\n  shout: status + html(price)\nviews:\n  - type: table\n"
                      "    order: [status, formula.shout, price]\n", "H.base")
    result = evaluate(base, None, [HOSTILE, *RECORDS], now=NOW)
    row = next(r for r in result.rows if r.record is HOSTILE)
    rendered = [str(render_html(c, href)) for c in row.cells]
    assert rendered[0] == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert rendered[1] == "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;9&lt;/b&gt;"
    assert rendered[2] == "&lt;b&gt;9&lt;/b&gt;"
    assert all("<script" not in r for r in rendered)


def test_escape_html_output_is_escaped_again_when_rendered() -> None:
    value = ev('escapeHTML("<i>")')
    assert value == "&lt;i&gt;" and render_html(value) == "&amp;lt;i&amp;gt;"


def test_view_context_for_templates() -> None:
    from beliefbase.bases import view_context
    base = parse_base("properties:\n  note.status: {displayName: State}\nviews:\n"
                      "  - type: table\n    filters: price\n    groupBy: {property: status}\n"
                      "    order: [file.name, status, author]\n    summaries: {status: Unique}\n",
                      "V.base")
    data = view_context(evaluate(base, None, [HOSTILE, *RECORDS], now=NOW), href)
    assert [c["header"] for c in data["columns"]] == ["file name", "State", "author"]
    assert [g["label"] for g in data["groups"]] == [
        "<script>alert(1)</script>", "done", "reading", "todo"]
    hostile = data["groups"][0]["rows"][0]
    assert hostile["cells"][1] == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert hostile["url"] == "/Notes/Hostile/"
    assert data["groups"][1]["rows"][0]["cells"][2] == (
        '<a class="bases-link" href="/People/Jane Austen/">Jane Austen</a>')
    assert data["summaries"]["note.status"]["text"] == "4"
    assert (data["layout"], data["shown"], data["total"], data["errors"]) == (
        "table", 5, 5, [])

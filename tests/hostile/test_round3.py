"""Hostile inputs, third round (issue 32): no file stops the build, nothing the theme
prints is live markup, every JSON the site ships is HTML-safe, no page is lost
without a word.  The vault is ``round3.py``'s."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from beliefbase.html_json import html_safe

from tests.conftest import diagnostic_lines
from tests.hostile.round3 import ALIASES, INJECTED, STATUS, TAG, write_vault


@pytest.fixture(params=[True, False], ids=["speedups", "plain"])
def built(project: Any, request: pytest.FixtureRequest) -> tuple[Any, dict[str, Any]]:
    expected = write_vault(project)
    result = project.build(plugins=["search", {"beliefbase": {"speedups": request.param}}])
    return result, expected


def test_the_build_succeeds_and_names_every_bad_file(built: tuple[Any, Any]) -> None:
    result, expected = built
    assert result.error is None, result.error
    for name, (where, code) in expected.items():
        found = [line for line in diagnostic_lines(result, code) if f" {where}:" in line]
        assert found, f"{name}: no {code} at {where}"
    assert not [line for line in diagnostic_lines(result, "bad-frontmatter")
                if "docs/rule.md" in line]  # a rule Obsidian shows as one
    # every page-conflict names a file of docs/, as every other diagnostic does
    assert all(" docs/" in line for line in diagnostic_lines(result, "page-conflict"))


def test_the_user_file_wins_and_nothing_is_lost(built: tuple[Any, Any]) -> None:
    result, _ = built
    site: Path = result.site
    for name in ("beliefs", "wanted", "graph", "recent"):
        assert f"MINE-{name}" in result.page(f"{name}/"), name
    assert json.loads((site / "_beliefbase" / "redirects.json").read_text("utf-8")) == {
        "mine": True}
    assert (site / "_beliefbase" / "beliefbase.js").read_text("utf-8") == "/* MINE */\n"
    # the good belief of the sidecar is there, the four bad entries are not
    beliefs = (site / "_beliefbase" / "beliefs.json").read_text("utf-8")
    assert "b-sky-ok" in beliefs and "b-statement" not in beliefs
    # unclosed frontmatter: the whole text is shown
    assert "title: Open" in result.article("open-yaml/")
    assert 'title = "Open"' in result.article("open-toml/").replace("&quot;", '"')
    assert (site / "marked" / "index.html").is_file()


def test_no_payload_is_markup_in_any_page(built: tuple[Any, Any]) -> None:
    result, _ = built
    for page in result.site.rglob("*.html"):
        html = page.read_text("utf-8", errors="replace")
        assert INJECTED + '="' not in html, page
        assert not re.search(r"<(svg|img|b)\s+on", html), page
    assert 'md-status--newdata-bbx1"' in result.page("")  # the status, cut to a class name
    assert "&lt;svg onload=alert(1)&gt; x" in result.page("")  # the folder, in the nav


def test_every_json_string_of_the_site_is_html_safe(built: tuple[Any, Any]) -> None:
    """No '<' as such in any JSON file the site ships: the payloads are there,
    escaped as \\u003c (no string can close a tag if a page inlines the file)."""
    result, _ = built
    site: Path = result.site
    files = [p for p in site.rglob("*.json")
             if p.relative_to(site).as_posix() != "_beliefbase/redirects.json"]  # the user's
    names = {p.relative_to(site).as_posix() for p in files}
    assert {"search/search_index.json", "_beliefbase/graph.json",
            "_beliefbase/diagnostics.json", "_beliefbase/beliefs.json"} <= names
    for path in files:
        text = path.read_text("utf-8")
        json.loads(text)
        assert "<" not in text, path
    index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    tags = [t for doc in index["docs"] for t in doc.get("tags", [])]
    assert tags and all("<" not in t for t in tags)  # escaped for Material's innerHTML


def test_redirects_json_of_the_plugin_is_html_safe(project: Any) -> None:
    project.write("index.md", "# Home\n")
    project.write("a.md", "---\naliases:\n" + "".join(f"  - {json.dumps(a)}\n" for a in ALIASES)
                  + f"tags: [{json.dumps(TAG)}]\nstatus: '{STATUS}'\n---\n# A\n", dedent=False)
    result = project.build()
    assert result.error is None
    text = (result.site / "_beliefbase" / "redirects.json").read_text("utf-8")
    assert "<" not in text and "\\u003c" in text  # an alias's redirect page, escaped
    assert any(k.startswith("<img") for k in json.loads(text)["redirects"])


def test_html_safe_keeps_the_value() -> None:
    value = {"a": "<b>&</b>\u2028", "<k>": ["x > y"]}
    text = html_safe(json.dumps(value))
    assert json.loads(text) == value and not set("<>&") & set(text)


def test_a_redirects_json_of_the_user_deletes_nothing_outside_the_site(project: Any) -> None:
    """The site's ``_beliefbase/redirects.json`` is the user's (it wins): what it names is
    no redirect of ours to delete, least of all outside the site."""
    project.write("index.md", "# Home\n")
    outside = project.root / "outside.html"
    outside.write_text("keep", encoding="utf-8")
    project.write("_beliefbase/redirects.json", json.dumps(
        {"version": 1, "redirects": {"../outside.html": "x", "/etc/x.html": "y"}}))
    result = project.build()
    assert result.error is None
    assert outside.read_text(encoding="utf-8") == "keep"
    assert any("docs/_beliefbase/redirects.json:1:1: page-conflict" in line
               for line in result.lines)

"""End-to-end builds of a knowledge base with sidecars: the belief pages of SPEC 6.5.

Each test builds the fixture of conftest.py with the real plugin (``project.build``)
and reads the site: generated pages, the panel and footnote links on wiki pages,
the topic timeline's as-of data, escaping of hostile statements, drafts, outputs.
"""

from __future__ import annotations

import json
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from belief_kb import HOSTILE, SECRET

BELIEF_PAGES = ["b-auth-old", "b-auth-new", "b-session-30", "b-session-15", "b-hostile",
                "b-billing-eur"]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value and tag in ("a", "script", "link"):
                self.hrefs.append(value)


def _local_targets(site: Path, page_url: str, html: str) -> list[tuple[str, Path]]:
    parser = _Links()
    parser.feed(html)
    found = []
    for href in parser.hrefs:
        if urlsplit(href).scheme or href.startswith(("#", "//")):
            continue
        path = unquote(urlsplit(urljoin("http://x/" + page_url, href)).path).lstrip("/")
        target = site / path
        found.append((href, target / "index.html" if path.endswith("/") or not path else target))
    return found


def test_generated_pages_exist_and_link_to_existing_files(kb: Any) -> None:
    result = kb.build(strict=True)
    assert result.error is None, result.lines
    site = result.site
    pages = ["beliefs/", "beliefs/topic/auth/", "beliefs/topic/sessions/",
             "beliefs/topic/billing/", "beliefs/topic/bhostileb/"]
    pages += [f"beliefs/{slug}/" for slug in BELIEF_PAGES]
    for url in pages + ["topics/auth/"]:
        html = result.page(url)
        for href, target in _local_targets(site, url, html):
            assert target.exists(), f"{url}: {href} -> {target} is missing"
    assert (site / "_beliefbase" / "beliefs.json").exists()
    assert (site / "_beliefbase" / "beliefs.schema.json").exists()
    assert (site / "_beliefbase" / "beliefs-search.json").exists()
    assert (site / "_beliefbase" / "lunr.js").exists()


def test_index_page_is_in_the_nav_and_belief_pages_are_not(kb: Any) -> None:
    home = kb.build().page("")
    nav = home[home.index('<nav class="md-nav md-nav--primary"'):]
    nav = nav[: nav.index("</nav>")]
    assert 'href="beliefs/"' in nav
    assert "b-auth-new" not in nav and "topic/auth" not in nav


def test_index_counts_topics_and_recent_changes(kb: Any) -> None:
    article = kb.build().article("beliefs/")
    counts = dict(re.findall(r'bb-stat__value">(\d+)</span><span class="bb-stat__label">(\w+)',
                             article))
    assert {v: int(k) for k, v in counts.items()} == {
        "current": 5, "superseded": 1, "contested": 2, "drifted": 0}
    recent = article[article.index('id="changed-recently"'):article.index('id="topics"')]
    # b-auth-old was superseded on 2026-05-20, 12 days before the build (2026-06-01).
    assert "The refresh endpoint is /oauth/refresh." in recent
    assert "The refresh endpoint is /auth/v2/refresh." in recent
    assert 'datetime="2026-05-20"' in recent and "contradicted by new source" in recent
    for topic in ("auth", "sessions", "billing", "&lt;b&gt;hostile&lt;/b&gt;"):
        assert f">{topic}</a>" in article
    assert "data-bb-belief-search" in article and "beliefs-search.json" in article


def test_recent_days_option_narrows_changed_recently(kb: Any) -> None:
    result = kb.build(plugins=["search", {"beliefbase": {"recent_days": 7}}])
    recent = result.article("beliefs/")
    recent = recent[recent.index('id="changed-recently"'):recent.index('id="topics"')]
    assert "Nothing was superseded in the 7 days before 2026-06-01." in recent


def test_topic_timeline_carries_as_of_data(kb: Any) -> None:
    article = kb.build().article("beliefs/topic/auth/")
    items = re.findall(r'data-bb-belief="([^"]+)"\s+data-asserted="([^"]+)"'
                       r'(?: data-superseded="([^"]+)")?', article)
    assert items == [("b-auth-new", "2026-05-20", ""),
                     ("b-auth-old", "2026-01-10", "2026-05-20")]
    assert "data-bb-asof" in article and 'data-build-date="2026-06-01"' in article
    assert 'data-bb-date="2026-01-10"' in article and 'data-bb-date="2026-05-20"' in article
    sessions = kb.build().article("beliefs/topic/sessions/")
    assert 'data-asserted="2026-02-01T09:30:00Z"' in sessions  # canonical date-time


def test_belief_page_shows_everything(kb: Any) -> None:
    result = kb.build()
    old = result.article("beliefs/b-auth-old/")
    assert '<h1 class="bb-belief__statement">' in old
    assert "The refresh endpoint is /oauth/refresh." in old
    assert "bb-badge--superseded" in old
    assert 'datetime="2026-01-10"' in old and "run-1" in old
    assert 'datetime="2026-05-20"' in old and "run-2" in old and "contradicted by new source" in old
    assert 'href="../../topics/auth/#token-refresh">Acme auth › Token refresh</a>' in old
    assert "Token refresh is served at /oauth/refresh." in old  # the verbatim quote
    assert "quote found in the source" in old and "spec-v1.md" in old
    assert 'Superseded by <a href="../b-auth-new/">' in old  # newer, linked
    new = result.article("beliefs/b-auth-new/")
    assert 'Supersedes <a href="../b-auth-old/">' in new  # older, linked
    assert ("<td>Acme refresh endpoint</td><td><code>is_at</code></td>"
            "<td>/auth/v2/refresh</td>") in new
    contested = result.article("beliefs/b-session-15/")
    assert "Contradicted by" in contested and 'href="../b-session-30/"' in contested
    assert "bb-badge--contested" in contested


def test_wiki_page_panel_and_footnote_links(kb: Any) -> None:
    article = kb.build().article("topics/auth/")
    panel = article[article.index("bb-beliefs-panel"):article.index("bb-backlinks")]
    current = panel[: panel.index("<details")]
    history = panel[panel.index("<details"):]
    assert 'href="../../beliefs/b-auth-new/"' in current
    assert 'href="../../beliefs/b-session-30/"' in current
    assert "b-auth-old" not in current
    assert 'href="../../beliefs/b-auth-old/"' in history and "1 superseded belief" in history
    footnotes = article[article.index('<div class="footnote">'):article.index("bb-beliefs-panel")]
    items = dict(re.findall(r'<li id="fn:(\d)">(.*?)</li>', footnotes, re.S))
    assert 'href="../../beliefs/b-auth-old/"' in items["1"]
    assert 'href="../../beliefs/b-auth-new/"' in items["2"]
    assert 'href="../../beliefs/b-session-15/"' in items["4"]
    assert items["1"].index("footnote-backref") < items["1"].index("bb-footnote-beliefs")
    billing = kb.build().article("topics/billing/")
    assert 'href="../../beliefs/b-billing-eur/"' in billing
    home = kb.build().article("")
    assert "bb-beliefs-panel" not in home  # no sidecar, no panel


def test_hostile_strings_render_as_text(kb: Any) -> None:
    result = kb.build()
    for url in ("beliefs/b-hostile/", "beliefs/topic/bhostileb/", "beliefs/", "topics/auth/"):
        html = result.page(url)
        assert "<script>alert('bb')" not in html, url
        assert "<img src=x" not in html, url
        assert "<b>hostile</b>" not in html, url
    page = result.page("beliefs/b-hostile/")
    assert "&lt;script&gt;alert(&#39;bb&#39;)&lt;/script&gt; {{ 7*7 }} {% raw %}" in page
    assert "49" not in result.article("beliefs/b-hostile/")  # no template ran the statement
    search = (result.site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "<script>alert" not in search and "<b>hostile" not in search
    ours = (result.site / "_beliefbase" / "beliefs-search.json").read_text(encoding="utf-8")
    assert "<" not in ours and ">" not in ours
    assert json.loads(ours)["beliefs"]["b-<hostile>"]["statement"] == HOSTILE


def test_beliefs_of_drafts_leak_nowhere(kb: Any) -> None:
    result = kb.build()
    assert result.error is None
    for file in result.site.rglob("*"):
        if file.is_file() and file.suffix in (".html", ".json", ".js", ".xml", ".txt"):
            text = file.read_text(encoding="utf-8", errors="replace")
            for secret in (SECRET, "b-secret-001", "secret-plans", "secret.beliefs.json"):
                assert secret not in text, f"{secret} leaked into {file}"
    assert not (result.site / "beliefs" / "b-secret-001").exists()


def test_a_published_belief_superseded_from_a_draft_names_no_draft_belief(kb: Any) -> None:
    from belief_kb import billing_sidecar, write_json

    sidecar = billing_sidecar()
    sidecar["beliefs"][0].update(superseded_at="2026-05-26", superseded_by_belief_id="b-secret-001")
    write_json(kb, "topics/billing.beliefs.json", sidecar)
    result = kb.build()
    assert result.error is None
    assert any("b-billing-eur is superseded by a belief on an unpublished page" in line
               for line in result.lines)
    for file in result.site.rglob("*"):
        if file.is_file() and file.suffix in (".html", ".json", ".js"):
            assert "b-secret-001" not in file.read_text(encoding="utf-8"), file


def test_json_outputs(kb: Any) -> None:
    out = kb.build().site / "_beliefbase"
    data = json.loads((out / "beliefs.json").read_text(encoding="utf-8"))
    assert data["version"] == 1
    assert sorted(b["belief_id"] for b in data["beliefs"]) == sorted(
        ["b-auth-old", "b-auth-new", "b-session-30", "b-session-15", "b-<hostile>",
         "b-billing-eur"])
    schema = json.loads((out / "beliefs.schema.json").read_text(encoding="utf-8"))
    assert schema["title"] == "beliefbase belief sidecar"
    search = json.loads((out / "beliefs-search.json").read_text(encoding="utf-8"))
    assert search["version"] == 1 and search["index"]["version"] == "2.3.9"
    assert search["beliefs"]["b-auth-new"] == {
        "statement": "The refresh endpoint is /auth/v2/refresh.", "topic": "auth",
        "status": "current", "url": "beliefs/b-auth-new/"}


def test_belief_index_is_synced_in_cache_dir(kb: Any) -> None:
    kb.build()
    db = Path(kb.root) / ".beliefbase" / "beliefs.sqlite"
    with sqlite3.connect(db) as conn:
        ids = {row[0] for row in conn.execute("SELECT belief_id FROM wiki_beliefs")}
    assert ids == {"b-auth-old", "b-auth-new", "b-session-30", "b-session-15", "b-<hostile>",
                   "b-billing-eur"}


def test_slugs_collide_safely(project: Any) -> None:
    from belief_kb import belief, prov, write_json, write_raw

    project.write("a.md", "# A\n\nOne.[^1] Two.[^2] Three.[^3]\n\n[^1]: x\n[^2]: y\n[^3]: z\n")
    write_json(project, "a.beliefs.json", {
        "beliefs": [belief("B-Collide", "Upper.", "Topic A", ["1"], ["p"], "2026-01-01"),
                    belief("b-collide", "Lower.", "topic-a", ["2"], ["p"], "2026-01-01"),
                    belief("topic", "Named topic.", "topic a", ["3"], ["p"], "2026-01-01")],
        "provenance": [prov("p", "prices.md", "All prices are quoted in EUR.")]})
    write_raw(project)
    result = project.build(strict=True)
    assert result.error is None, result.lines
    site = result.site / "beliefs"
    assert "Upper." in result.article("beliefs/b-collide/")
    assert "Lower." in result.article("beliefs/b-collide-2/")
    assert "Named topic." in result.article("beliefs/topic-2/")  # "topic" is the topics' folder
    topics = sorted(p.name for p in (site / "topic").iterdir())
    assert topics == ["topic-a", "topic-a-2", "topic-a-3"]


def test_diagnostics_name_file_and_line(kb: Any) -> None:
    from belief_kb import auth_sidecar, write_json

    data = auth_sidecar()
    data["beliefs"][1]["footnote_ids"] = ["2", "9"]  # [^9] is no footnote of the page
    data["provenance"][2]["quote"] = "v3 moves the refresh endpoint."  # hash no longer matches
    text = write_json(kb, "topics/auth.beliefs.json", data).read_text()
    second = text.index('"footnote_ids"', text.index('"footnote_ids"') + 1)
    row = text.count("\n", 0, second) + 1
    column = second - text.rindex("\n", 0, second)
    result = kb.build()
    coverage = [line for line in result.lines if ": belief-coverage: " in line]
    assert coverage == [
        f"WARNING docs/topics/auth.beliefs.json:{row}:{column}: belief-coverage: b-auth-new "
        "cites footnote [^9], which docs/topics/auth.md does not have"]
    drift = [line for line in result.lines if ": quote-drift: " in line]
    assert len(drift) == 1 and drift[0].startswith("WARNING docs/topics/auth.beliefs.json:")
    assert "'p-rfc-3'" in drift[0]
    listed = json.loads((result.site / "_beliefbase" / "diagnostics.json").read_text())
    codes = {(d["code"], d["file"]) for d in listed["diagnostics"]}
    assert ("quote-drift", "docs/topics/auth.beliefs.json") in codes
    assert ("belief-coverage", "docs/topics/auth.beliefs.json") in codes
    assert not any("secret" in d["file"] for d in listed["diagnostics"])
    page = result.article("beliefs/b-auth-new/")  # the site still builds, and shows the drift
    assert "bb-source--drifted" in page and "bb-badge--drifted" in page
    assert re.search(r'bb-stat__value">1</span><span class="bb-stat__label">drifted',
                     result.article("beliefs/"))
    assert kb.build(strict=True).error is not None  # and strict mode fails


def test_a_page_at_the_index_url_wins_with_a_diagnostic(kb: Any) -> None:
    kb.write("beliefs/index.md", "# Our beliefs\n\nHand-written.\n")
    result = kb.build()
    assert result.error is None
    assert any(line.startswith("WARNING docs/beliefs/index.md:1:1: page-conflict:")
               for line in result.lines)
    assert "Hand-written." in result.article("beliefs/")
    assert "The refresh endpoint is /auth/v2/refresh." in result.article("beliefs/b-auth-new/")


def test_templates_can_be_overridden(kb: Any) -> None:
    custom = Path(kb.root) / "overrides"
    (custom / "beliefbase" / "beliefs").mkdir(parents=True)
    (custom / "beliefbase" / "beliefs" / "panel.html").write_text(
        '<aside class="my-panel">{{ current | length }} current</aside>\n', encoding="utf-8")
    result = kb.build(theme={"name": "material", "font": False, "custom_dir": "overrides"})
    article = result.article("topics/auth/")
    assert '<aside class="my-panel">4 current</aside>' in article
    assert "bb-beliefs-panel" not in article


def test_without_directory_urls(kb: Any) -> None:
    result = kb.build(use_directory_urls=False)
    assert result.error is None
    site = result.site
    for url in ("beliefs/index.html", "beliefs/b-auth-old.html", "beliefs/topic/auth.html",
                "topics/auth.html"):
        html = result.page(url)
        for href, _ in _local_targets(site, url, html):
            if href.endswith("/"):
                continue
            path = unquote(urlsplit(urljoin("http://x/" + url, href)).path).lstrip("/")
            assert (site / path).exists(), f"{url}: {href}"


def test_no_sidecars_no_belief_pages(project: Any) -> None:
    project.write("index.md", "# Home\n")
    result = project.build(strict=True)
    assert result.error is None
    assert not (result.site / "beliefs").exists()
    assert not (result.site / "_beliefbase" / "beliefs-search.json").exists()
    data = json.loads((result.site / "_beliefbase" / "beliefs.json").read_text())
    assert data["counts"]["beliefs"] == 0


def test_rebuild_reuses_the_cached_search_index(kb: Any, monkeypatch: Any) -> None:
    first = (kb.build().site / "_beliefbase" / "beliefs-search.json").read_text()
    from beliefbase.site.beliefs import search as belief_search

    def fail(*args: Any) -> Any:
        raise AssertionError("the lunr index was rebuilt although nothing changed")

    monkeypatch.setattr(belief_search, "_build_index", fail)
    second = (kb.build().site / "_beliefbase" / "beliefs-search.json").read_text()
    assert first == second


def test_theme_search_indexes_topics_but_not_each_belief(kb: Any) -> None:
    index = json.loads((kb.build().site / "search" / "search_index.json").read_text())
    locations = {entry["location"].split("#")[0] for entry in index["docs"]}
    assert {"beliefs/", "beliefs/topic/auth/", "topics/auth/"} <= locations
    assert not any(loc.startswith("beliefs/b-") for loc in locations)


def test_recent_days_is_validated(kb: Any) -> None:
    result = kb.build(plugins=["search", {"beliefbase": {"recent_days": -1}}])
    assert result.error is not None
    assert ("ERROR Config value 'plugins': Plugin 'beliefbase' option 'recent_days': must be "
            "between 0 and 3650 days, got -1") in result.all_lines


def test_serve_dirty_rerenders_pages_whose_beliefs_changed(kb: Any, tmp_path: Path) -> None:
    """Under ``mkdocs serve --dirty`` MkDocs re-renders a page only when its Markdown
    changed; a sidecar or raw file edit must still reach the page's belief panel."""
    import shutil
    import time

    from belief_kb import billing_sidecar, write_json

    plugins = ["search", {"beliefbase": {"explorer": True}}]
    assert kb.build(dirty=True, plugins=plugins).error is None  # as `mkdocs serve --dirty`
    time.sleep(0.05)
    sidecar = billing_sidecar()
    sidecar["beliefs"][0]["statement"] = "Prices are in euros, always."
    write_json(kb, "topics/billing.beliefs.json", sidecar)
    (Path(kb.root) / "raw" / "spec-v1.md").write_text("Everything changed.\n", encoding="utf-8")
    second = kb.build(dirty=True, plugins=plugins)
    assert "Prices are in euros, always." in second.page("topics/billing/")
    assert "Token refresh is served" not in second.page("topics/auth/")  # quote now drifted
    clean_root = tmp_path / "clean"
    shutil.copytree(Path(kb.root) / "docs", clean_root / "docs")
    shutil.copytree(Path(kb.root) / "raw", clean_root / "raw")
    clean = type(kb)(clean_root, kb.config).build(plugins=plugins)
    for url in ("topics/billing/", "topics/auth/", ""):
        assert second.page(url) == clean.page(url), url

"""Dates and reading time under a note's title, the recent notes page, the home page's
list and the Atom feed (site/reader/recent.py, issue 21)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from beliefbase.site.previews import first_sentence
from beliefbase.site.reader.recent import reading_minutes

ATOM = "{http://www.w3.org/2005/Atom}"


def dated_vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nWelcome. Start anywhere.\n")
    project.write("old.md", "---\ncreated: 2025-01-02\nmodified: 2025-02-03\n---\n# Old\n\n"
                  "The oldest note. It is short.\n")
    project.write("mid.md", "---\ndate: 2026-03-03\nupdated: 2026-04-04T08:30:00Z\n---\n"
                  "# Mid\n\nIn the middle! Links [[Old]].\n")
    project.write("new.md", "---\ncreated: 2026-05-05\nmodified: 2026-05-06\n---\n# New\n\n"
                  + "word " * 450 + "\n")
    # a title with markup, quotes and a control character (YAML escapes it)
    project.write("hostile.md", '---\ntitle: "Tom & \\"Jerry\\" <script>alert(1)</script>\\a"\n'
                  "created: 2024-06-06\nmodified: 2024-06-07\n---\n"
                  "Summary with <b>tags</b> & \x01 more.\n")
    project.write("secret.md", "---\ndraft: true\nmodified: 2027-01-01\n---\n# Secret\n\nNo.\n")


@pytest.mark.parametrize(("text", "minutes"), [
    ("", 1), ("word " * 200, 1), ("word " * 201, 2), ("一二三" * 100, 2),
])
def test_reading_minutes(text: str, minutes: int) -> None:
    assert reading_minutes(text) == minutes


def test_first_sentence() -> None:
    assert first_sentence("One. Two.") == "One."
    assert first_sentence("No end") == "No end"
    assert first_sentence("v1.2 is out! Yes.") == "v1.2 is out!"


def test_note_meta_row(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    result = project.build()
    assert result.error is None
    article = result.article("new/")
    # right under the title: the dates, then the reading time (450 words: 3 minutes)
    assert re.search(r"<h1[^>]*>New.*?</h1><p class=\"bb-note-meta\">", article, re.DOTALL)
    text = re.sub(r"<[^>]+>", "", re.search(r'<p class="bb-note-meta">.*?</p>',
                                            article).group())
    assert text == "Created 5 May 2026 · Updated 6 May 2026 · 3 min read"
    assert '<time datetime="2026-05-05">' in article
    mid = result.article("mid/")
    assert '<time datetime="2026-04-04T08:30:00+00:00">4 April 2026</time>' in mid
    assert "Created 3 March 2026" in re.sub(r"<[^>]+>", "", mid)  # `date` is the created date


def test_meta_row_options(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    config = {"plugins": ["search", {"beliefbase": {"dates": False, "reading_time": False,
                                                    "recent_notes": 0, "feed": False}}]}
    result = project.build(**config)
    assert result.error is None
    assert "bb-note-meta" not in result.article("new/")
    assert "bb-recent" not in result.article("")
    assert not (result.site / "feed.xml").exists()
    assert "application/atom+xml" not in result.page("new/")
    result = project.build(plugins=["search", {"beliefbase": {"dates": False}}])
    assert re.search(r'<p class="bb-note-meta"><span class="bb-note-meta__reading">3 min read',
                     result.article("new/"))


def _listed(html: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<a class="bb-recent__title" href="([^"]*)">(.*?)</a> '
                      r'<time class="bb-recent__date" datetime="[^"]*">([^<]*)</time>', html)


def test_recent_page_and_home_list(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    result = project.build()
    assert result.error is None
    recent = result.article("recent/")
    assert "<h1" in recent and "Recent notes" in recent
    listed = _listed(recent)
    # newest first; Home has no dates in its frontmatter: its file time (today) is newest
    assert [t for _h, t, _d in listed] == [
        "Home", "New", "Mid", "Old",
        "Tom &amp; &#34;Jerry&#34; &lt;script&gt;alert(1)&lt;/script&gt;\x07"]
    assert listed[1] == ("../new/", "New", "6 May 2026")
    assert "In the middle!</span>" in recent  # the first sentence only
    assert "Links" not in recent
    assert "Secret" not in recent and "<script>" not in recent
    home = result.article("")
    assert [t for _h, t, _d in _listed(home)][:2] == ["New", "Mid"]  # not itself
    assert len(_listed(home)) == 4
    assert 'href="recent/">All recent notes' in home
    # after the page's text, not searched
    assert home.index("Welcome.") < home.index("bb-recent")
    search = (result.site / "search/search_index.json").read_text()
    assert "All recent notes" not in search
    shorter = project.build(plugins=["search", {"beliefbase": {"recent_notes": 2}}])
    assert [t for _h, t, _d in _listed(shorter.article(""))] == ["New", "Mid"]


def test_generated_home_lists_recent_notes(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    (project.docs / "index.md").unlink()
    result = project.build()
    assert result.error is None
    home = result.article("")
    assert "bb-all-notes" in home and [t for _h, t, _d in _listed(home)][:1] == ["New"]


def test_feed(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    result = project.build(site_url="https://example.org/kb")
    assert result.error is None
    feed = ET.fromstring((result.site / "feed.xml").read_bytes())
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert titles[1:] == ["New", "Mid", "Old",
                          'Tom & "Jerry" <script>alert(1)</script>\ufffd']  # XML holds no BEL
    new = entries[1]
    assert new.findtext(f"{ATOM}id") == "https://example.org/kb/new/"
    assert new.find(f"{ATOM}link").get("href") == "https://example.org/kb/new/"  # type: ignore[union-attr]
    assert new.findtext(f"{ATOM}updated") == "2026-05-06T00:00:00Z"
    assert new.findtext(f"{ATOM}published") == "2026-05-05T00:00:00Z"
    assert entries[4].findtext(f"{ATOM}summary") == "Summary with tags & \ufffd more."
    assert "Secret" not in (result.site / "feed.xml").read_text()
    head = result.page("mid/")
    # site-relative even with site_url: Material fetches sitemap.xml from the host of
    # every link[rel=alternate], which must be the site's own (issue 29)
    assert ('<link rel="alternate" type="application/atom+xml" '
            'href="../feed.xml" title="Test KB">') in head
    assert "https://example.org" not in head.split("<body")[0].split('rel="alternate"')[1][:80]


def test_feed_without_site_url(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    result = project.build()
    feed = ET.fromstring((result.site / "feed.xml").read_bytes())
    entry = feed.findall(f"{ATOM}entry")[1]
    assert entry.findtext(f"{ATOM}id") == "tag:test-kb,2026:new.md"
    assert entry.find(f"{ATOM}link").get("href") == "new/"  # type: ignore[union-attr]
    assert 'type="application/atom+xml" href="../feed.xml"' in result.page("mid/")
    assert 'type="application/atom+xml" href="feed.xml"' in result.page("")


def test_bad_date_is_reported(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\ncreated: someday\n---\n# A\n\nText.\n")
    result = project.build(strict=True)
    assert result.error is None  # info: never fails a strict build
    assert any("docs/a.md:2:1: bad-date:" in line for line in result.lines)


def test_dirty_rebuild_refreshes_home_list(project) -> None:  # type: ignore[no-untyped-def]
    dated_vault(project)
    assert project.build(dirty=True).error is None
    project.write("old.md", "---\ncreated: 2025-01-02\nmodified: 2026-09-09\n---\n# Old\n\n"
                  "The oldest note, edited.\n")
    result = project.build(dirty=True)
    assert result.error is None
    assert [t for _h, t, _d in _listed(result.article(""))][:1] == ["Old"]


def test_recent_notes_is_bounded(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n")
    result = project.build(plugins=["search", {"beliefbase": {"recent_notes": -1}}])
    assert result.error is not None
    assert any("recent_notes" in line and "between 0 and 100" in line for line in result.all_lines)

"""Our dates and feed beside the plugins that do those parts (issue 21): with
mkdocs-git-revision-date-localized-plugin and mkdocs-rss-plugin enabled the build
succeeds and every output exists; ours leaves the dates to the dates plugin."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _committed_vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nWelcome.\n")
    project.write("a.md", "# A\n\nA note about [[b]].\n")
    project.write("b.md", "# B\n\nB, linked from A.\n")
    project.write_config()
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org",
           "GIT_AUTHOR_DATE": "2026-03-03T10:00:00Z", "GIT_COMMITTER_DATE": "2026-03-03T10:00:00Z"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "notes"]):
        subprocess.run(["git", *args], cwd=project.root, env=env, check=True, capture_output=True)


def test_beside_git_revision_date_localized(project) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("mkdocs_git_revision_date_localized_plugin")
    _committed_vault(project)
    result = project.build(plugins=["search", "git-revision-date-localized", "beliefbase"])
    assert result.error is None, result.all_lines[-5:]
    page = result.page("a/")
    assert "git-revision-date-localized-plugin" in page  # theirs, at the page's foot
    meta = page[page.index('<p class="bb-note-meta">'):]
    meta = meta[: meta.index("</p>")]
    assert "min read" in meta and "Created" not in meta and "Updated" not in meta
    # our lists still date the notes (from the same git history)
    assert "3 March 2026" in result.article("recent/")


def test_beside_rss(project) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("mkdocs_rss_plugin")
    _committed_vault(project)
    result = project.build(plugins=["search", "rss", "beliefbase"],
                           site_url="https://example.org/")
    assert result.error is None, result.all_lines[-5:]
    for name in ("feed_rss_created.xml", "feed_rss_updated.xml", "feed.xml"):
        ET.fromstring((result.site / name).read_bytes())  # each exists and parses
    rss = ET.fromstring((result.site / "feed_rss_created.xml").read_bytes())
    # its feed holds the notes, not our generated pages (tags, graph, recent notes)
    assert {i.findtext("link") for i in rss.iter("item")} == {
        "https://example.org/", "https://example.org/a/", "https://example.org/b/"}
    atom = ET.fromstring((result.site / "feed.xml").read_bytes())
    links = {e.find("{http://www.w3.org/2005/Atom}link").get("href")  # type: ignore[union-attr]
             for e in atom.findall("{http://www.w3.org/2005/Atom}entry")}
    assert links == {"https://example.org/", "https://example.org/a/", "https://example.org/b/"}

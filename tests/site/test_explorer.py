"""The explorer navigation (``explorer: true``): pages no longer carry the whole tree."""

from __future__ import annotations

import json
import re

EXPLORER = ["search", {"beliefbase": {"explorer": True}}]


def vault(project, n: int = 30) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nStart at [[Topic 3]].\n")
    project.write("topics/index.md", "# All Topics\n")
    for i in range(n):
        folder = "topics/deep" if i % 3 == 0 else "topics"
        project.write(f"{folder}/topic-{i}.md", f"---\ntitle: Topic {i}\n---\nText [[Topic {i + 1}]].\n")


def test_pages_do_not_embed_the_tree(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    plain = project.build()
    plain_size = len(plain.page("topics/topic-1/"))
    result = project.build(plugins=EXPLORER)
    assert result.error is None
    page = result.page("topics/topic-1/")
    assert 'data-bb-explorer' in page
    assert "Topic 29" not in page.split('class="md-content"')[0]  # the sidebar lists no notes
    assert len(page) < plain_size
    tree = json.loads((result.site / "_beliefbase/explorer.json").read_text())
    label, url, children = tree["root"]
    assert url == "./"
    topics = next(c for c in children if c[0] == "All Topics")
    assert topics[1] == "topics/"
    deep = next(c for c in topics[2] if len(c) == 3)
    assert deep[0] == "deep" and deep[1] == "topics/deep/"  # its generated folder page
    titles = [c[0] for c in topics[2] if len(c) == 2]
    assert titles == sorted(titles, key=str.lower)


def test_breadcrumbs_and_all_notes_without_javascript(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(plugins=EXPLORER)
    page = result.page("topics/deep/topic-0/")
    # breadcrumbs are in the page's content (site/reader/folders.py), not hidden in the sidebar
    crumbs = re.findall(r'<nav class="bb-crumbs".*?</nav>', page, re.S)[0]
    assert [m for m in re.findall(r">([^<>]+)</a>", crumbs)] == ["Home", "All Topics", "deep"]
    assert "bb-explorer__crumbs" not in page
    assert 'href="../../../notes/">All notes</a>' in page
    all_notes = result.article("notes/")
    assert all_notes.count("<li>") >= 32 and 'href="../topics/deep/topic-0/">Topic 0</a>' in all_notes


def test_explorer_escapes_titles(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    project.write("x/evil.md", "---\ntitle: '<img src=x onerror=alert(1)>'\n---\n")
    result = project.build(plugins=EXPLORER)
    for url in ("x/evil/", "notes/"):
        assert "<img src=x" not in result.page(url)
    data = (result.site / "_beliefbase/explorer.json").read_text()
    assert "<img" not in data and "\\u003cimg" in data

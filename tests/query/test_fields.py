"""Frontmatter fields in queries and views (issue 18): ``[[wikilink]]`` values become
links in every view, and fields named like a built-in property are ``field_NAME``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from beliefbase.query.run import QueryEngine
from beliefbase.speedups import render_ahead

from tests.conftest import Project, diagnostic_lines, differing
from tests.site.test_markdown_offload import (
    _both_convert,
    started,  # noqa: F401 - a fixture
)

from .conftest import write_vault
from .test_pages import build

LINKED = {
    "delta.md": """\
        ---
        schema: Project
        status: active
        priority: 9
        related: "[[ada]]"
        refs: ["[[beta]]", "[[gamma|the last, done]]", "[[Nobody]]"]
        motto: "[[not a link]] said plainly"
        lead: "[[<b>Nobody</b>]]"
        ---
        # Delta
        """,
}
CLASHING = {
    "epsilon.md": """\
        ---
        schema: Project
        status: active
        label: flagship
        kind: internal
        url: https://example.com/e
        path: /srv/e
        ---
        # Epsilon
        """,
    "zeta.md": "---\nschema: Project\nstatus: done\nlabel: side\n---\n# Zeta\n",
}


def test_link_values_load_as_text_and_lists(project: Project) -> None:
    write_vault(project, LINKED)
    engine = QueryEngine(project.compile().graph)
    result = engine.run("MATCH (p:Project {title: 'Delta'}) RETURN p.related, p.refs")
    assert result.rows == (("[[ada]]", ["[[beta]]", "[[gamma|the last, done]]", "[[Nobody]]"]),)
    assert engine.loaded.labels["Project"]["refs"] == "STRING[]"
    found = engine.run("MATCH (p:Project) WHERE '[[beta]]' IN p.refs RETURN p.title")
    assert found.rows == (("Delta",),)


def test_link_values_render_as_links(project: Project) -> None:
    result = build(project, {**LINKED, "dash.md": """\
        # Dash

        ```query view=cards
        MATCH (p:Project {title: 'Delta'}) RETURN p
        ```

        ```query view=table
        MATCH (p:Project {title: 'Delta'}) RETURN p.related AS related, p.refs AS refs,
          p.motto AS motto
        ```

        ```query view=list
        MATCH (p:Project {title: 'Delta'}) RETURN p.refs
        ```
        """})
    html = result.article("dash/")
    ada = '<a class="bb-link" href="../ada/">Ada Lovelace</a>'
    beta = '<a class="bb-link" href="../beta/">Beta</a>'
    gamma = '<a class="bb-link" href="../gamma/">the last, done</a>'
    nobody = '<span class="bb-link bb-unresolved" title="Nobody (no such note)">Nobody</span>'
    cards = html.split("bb-query-cards", 1)[1].split("bb-query-table", 1)[0]
    assert f"<dt>related</dt><dd>{ada}</dd>" in cards
    assert f"<dt>refs</dt><dd>{beta}, {gamma}, {nobody}</dd>" in cards
    assert "<dd>[[not a link]] said plainly</dd>" in cards  # not one whole link: text
    assert "<b>" not in html and "&lt;b&gt;Nobody&lt;/b&gt;" in cards
    table = html.split("bb-query-table", 1)[1].split("bb-query-list", 1)[0]
    assert f"<td>{ada}</td><td>{beta}, {gamma}, {nobody}</td>" in table
    assert f"<li>{beta}, {gamma}, {nobody}</li>" in html.split("bb-query-list", 1)[1]


def test_link_values_resolve_from_their_note(project: Project) -> None:
    """``[[x]]`` in a note's field means the x nearest that note, as in its text."""
    result = build(project, {
        "team/x.md": "# Team x\n", "other/x.md": "# Other x\n",
        "team/lead.md": "---\nschema: Task\nowner: \"[[x]]\"\n---\n# Lead\n",
        "other/dash.md": "# Dash\n\n```query view=cards\nMATCH (t:Task) RETURN t\n```\n"})
    html = result.article("other/dash/")
    assert '<a class="bb-link" href="../../team/x/">Team x</a>' in html


def test_fields_named_like_built_in_properties(project: Project) -> None:
    write_vault(project, CLASHING)
    engine = QueryEngine(project.compile().graph)
    result = engine.run("MATCH (p:Project) WHERE p.field_label IS NOT NULL "
                        "RETURN p.title, p.kind, p.field_label, p.field_kind, p.field_url, "
                        "p.url, p.field_path ORDER BY p.title")
    assert result.error is None, result.error
    assert result.rows == (
        ("Epsilon", "Document", "flagship", "internal", "https://example.com/e", "epsilon/",
         "/srv/e"),
        ("Zeta", "Document", "side", None, None, "zeta/", None))
    node = engine.run("MATCH (p:Project {title: 'Epsilon'}) RETURN p").rows[0][0]
    assert node["label"] == "Project" and node["field_label"] == "flagship"
    found = {d.message.split("`")[1]: d for d in engine.diagnostics}
    assert set(found) == {"label", "kind", "url", "path"}
    assert {d.code for d in found.values()} == {"query-property-renamed"}
    assert "epsilon.md, zeta.md" in found["label"].message
    assert "`field_label`" in found["label"].message


def test_renamed_fields_in_a_build(project: Project) -> None:
    result = build(project, {**CLASHING, "dash.md": "# D\n\n```query view=cards\n"
                             "MATCH (p:Project {title: 'Epsilon'}) RETURN p\n```\n"})
    html = result.article("dash/")
    assert "<dt>field_label</dt><dd>flagship</dd>" in html
    assert "<dt>field_kind</dt><dd>internal</dd>" in html
    lines = diagnostic_lines(result, "query-property-renamed")
    assert len(lines) == 4 and all(line.startswith("INFO") for line in lines)


def test_link_values_in_the_worker(project: Project, tmp_path: Path,
                                   started: list[render_ahead.RenderAhead],  # noqa: F811
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages the second process converts (``markdown_offload``) link them alike.  Each
    process converts some pages whatever the machine's load (``_both_convert``: the
    worker taking none of the 12 pages failed this test on a busy machine)."""
    _both_convert(monkeypatch)
    sites = []
    for flag in (True, False):
        for i in range(12):
            written = project.write(
                f"page-{i}.md", f"---\nschema: Task\nrank: {i}\nowner: \"[[page-{i + 1}]]\"\n"
                f"---\n# Page {i}\n\n```query view=cards\nMATCH (t:Task) WHERE t.rank = {i} "
                "RETURN t\n```\n", dedent=False)
            os.utime(written, (1_700_000_000, 1_700_000_000))
        result = project.build(plugins=["search", {"beliefbase": {"speedups": {"markdown_offload": flag}}}])
        assert result.error is None
        sites.append(shutil.copytree(result.site, tmp_path / f"site-{flag}"))
    assert len(started) == 1 and 0 < started[0].taken < len(started[0].order)
    assert differing(*sites) == []
    page = (sites[0] / "page-3/index.html").read_text(encoding="utf-8")
    assert '<a class="bb-link" href="../page-4/">Page 4</a>' in page
    assert '<span class="bb-link bb-unresolved" title="page-12 (no such note)">' in (
        sites[0] / "page-11/index.html").read_text(encoding="utf-8")


def test_a_field_both_text_and_list_shows_its_links(project: Project) -> None:
    """``owner: "[[ada]]"`` here, ``owner: ["[[ada]]", "[[beta]]"]`` there: the column
    is text (``query-property-type``), the list JSON text; views show links."""
    result = build(project, {
        "one.md": "---\nschema: Task\nowner: \"[[ada]]\"\n---\n# One\n",
        "two.md": "---\nschema: Task\nowner: [\"[[ada]]\", \"[[beta]]\"]\n---\n# Two\n",
        "dash.md": "# D\n\n```query view=table\nMATCH (t:Task) RETURN t.title, t.owner "
                   "ORDER BY t.title\n```\n"})
    html = result.article("dash/")
    ada = '<a class="bb-link" href="../ada/">Ada Lovelace</a>'
    beta = '<a class="bb-link" href="../beta/">Beta</a>'
    assert f"<tr><td>One</td><td>{ada}</td></tr>" in html
    assert f"<tr><td>Two</td><td>{ada}, {beta}</td></tr>" in html
    assert diagnostic_lines(result, "query-property-type")

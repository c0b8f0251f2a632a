"""Queries in built pages: embeds, fences, Query pages, errors, NodeType pages."""

from __future__ import annotations

from tests.conftest import BuildResult, Project, diagnostic_lines

from .conftest import write_vault

ACTIVE = """\
    ---
    schema: Query
    id: active-projects
    query: "MATCH (p:Project {status: 'active'}) RETURN p ORDER BY p.priority DESC"
    ---
    # Active projects
    """


def build(project: Project, pages: dict[str, str], **config: object) -> BuildResult:
    write_vault(project, {"active.md": ACTIVE, **pages})
    result = project.build(**config)
    assert result.error is None, result.error
    return result


def test_embed_by_id_title_and_bid(project: Project) -> None:
    result = build(project, {"dash.md": "# Dash\n\n{{query:active-projects}}\n\n"
                                        "{{ query: ACTIVE PROJECTS | view: count }}\n"})
    html = result.article("dash/")
    assert '<li><a href="../beta/">Beta</a></li>\n<li><a href="../alpha/">Alpha</a></li>' in html
    assert '<span class="bb-query-number">2</span>' in html
    assert "<p><div" not in html and "{{" not in html


def test_fence_with_view(project: Project) -> None:
    result = build(project, {"dash.md": """\
        # Dash

        ```query view=table
        MATCH (p:Project) RETURN p.title AS title, p.priority AS priority ORDER BY priority
        ```
        """})
    html = result.article("dash/")
    assert "<tr><td>Gamma</td><td>1</td></tr>" in html and "MATCH" not in html


def test_not_in_code_nor_escaped(project: Project) -> None:
    result = build(project, {"dash.md": """\
        # Dash

        `{{query:active-projects}}` and \\{{query:active-projects}}

        ````markdown
        ```query
        MATCH (n) RETURN n
        ```
        {{query:active-projects}}
        ````

            {{query:active-projects}}

        <!-- {{query:active-projects}} -->
        """})
    html = result.article("dash/")
    assert "bb-query" not in html
    assert "<code>{{query:active-projects}}</code> and {{query:active-projects}}" in html
    assert "```query" in html  # the inner fence is code in the outer one


def test_with_and_without_superfences(project: Project) -> None:
    page = {"dash.md": "# Dash\n\n```query view=count\nMATCH (p:Project) RETURN p\n```\n"}
    with_sf = build(project, page)
    without = build(project, page, markdown_extensions=["fenced_code"])
    for result in (with_sf, without):
        assert '<span class="bb-query-number">3</span>' in result.article("dash/")


def test_query_page_shows_query_and_result(project: Project) -> None:
    html = build(project, {}).article("active/")
    assert '<span class="k">MATCH</span>' in html  # highlighted
    assert '<div class="bb-query-page">' in html and '<a href="../beta/">Beta</a>' in html


def test_errors_render_a_box_and_report_the_line(project: Project) -> None:
    result = build(project, {"dash.md": """\
        # Dash

        {{query:nothing-like-this}}

        ```query
        MATCH (x:Nope) RETURN x
        ```

        ```query
        MATCH (n) DETACH DELETE n
        ```

        {{query:active-projects | view:nope}}

        Still here.
        """})
    html = result.article("dash/")
    assert html.count('class="bb-query-error') == 4 and "<p>Still here.</p>" in html
    lines = sorted(diagnostic_lines(result, "query-error"),
                   key=lambda line: int(line.split(":")[1]))
    assert [line.split(": query-error")[0] for line in lines] == [
        "WARNING docs/dash.md:3:1", "WARNING docs/dash.md:5:1", "WARNING docs/dash.md:9:1",
        "WARNING docs/dash.md:13:1"]
    assert "Table Nope does not exist" in lines[1] and "`DETACH` is not allowed" in lines[2]
    assert "no view named 'nope'" in lines[3]


def test_hostile_frontmatter_renders_as_text(project: Project) -> None:
    result = build(project, {
        "evil.md": "---\nschema: Project\nstatus: active\npriority: 0\n"
                   "note: '<img src=x onerror=alert(1)>'\n---\n# <script>x</script>\n",
        "dash.md": "# Dash\n\n```query view=cards\nMATCH (p:Project {status: 'active'}) "
                   "RETURN p\n```\n"})
    html = result.article("dash/")
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<script>x</script>" not in html


def test_drafts_absent_from_results(project: Project) -> None:
    html = build(project, {"dash.md": "# D\n\n```query view=table\nMATCH (n) RETURN n.title\n"
                                      "```\n"}).article("dash/")
    assert "Secret draft" not in html and "Hidden" not in html and "Gamma" in html


def test_user_views_dir_and_views_map(project: Project) -> None:
    project.write("_views/project-cards.html",
                  '{% extends "cards.html" %}{% block card_fields %}<i>{{ row.p.status }}</i>'
                  "{% endblock %}")
    project.write("_views/README.md", "# Not a page\n")
    result = build(project, {"dash.md": "# D\n\n{{query:active-projects}}\n"},
                   plugins=["search", {"beliefbase": {"views": {"Project": "project-cards"}}}])
    html = result.article("dash/")
    assert "<i>active</i>" in html and "bb-query-cards" in html
    assert not (result.site / "_views").exists()
    assert not [line for line in result.lines if "_views" in line]


def test_node_type_checks_and_instances(project: Project) -> None:
    result = build(project, {"types/project.md": """\
        ---
        schema: NodeType
        name: Project
        properties:
          - {name: status, type: string, required: true}
          - {name: priority, type: integer, required: true}
          - {name: due, type: date}
          - {name: owner, type: link}
        ---
        # Project type
        """, "broken.md": """\
        ---
        schema: Project
        priority: high
        due: someday
        ---
        # Broken
        """})
    lines = diagnostic_lines(result, "schema-violation")
    assert [line.split(": schema-violation")[0] for line in lines] == [
        "WARNING docs/broken.md:1:1", "WARNING docs/broken.md:3:1", "WARNING docs/broken.md:4:1"]
    assert "needs `status`" in lines[0] and "not the text 'high'" in lines[1]
    html = result.article("types/project/")
    assert "Instances of Project" in html
    for title in ("Alpha", "Beta", "Broken", "Gamma"):
        assert f">{title}</a>" in html

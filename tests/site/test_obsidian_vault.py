"""A real-looking Obsidian vault: what is published is what is compiled (issue 16).

``.trash/``, ``.obsidian/``, Obsidian's excluded files and templates folder,
``exclude_docs`` and the plugin's ``exclude`` leave no page, no diagnostic, no
graph node; ``beliefbase check`` sees the same; zero configuration renders
Obsidian's Markdown; a user's own extension configuration wins.
"""

from __future__ import annotations

import json
from typing import Any

from tests.cli.test_check import run
from tests.conftest import Project, diagnostic_lines

ZERO_CONFIG: dict[str, Any] = {
    "site_name": "Vault",
    "theme": {"name": "material", "font": False},
    "plugins": ["search", "beliefbase"],
}


def _vault(project: Project) -> None:
    project.config = {**ZERO_CONFIG, "exclude_docs": "private/\n",
                      "plugins": ["search", {"beliefbase": {"exclude": ["*.excalidraw.md"]}}]}
    project.write("index.md", "# Home\n\nSee [[Kept]] and [[Old]].\nLine two\n")
    project.write("Kept.md", "# Kept\n\nBack to [[index]].\n")
    project.write(".trash/Old.md", "# Old\n\n[[Nowhere]] and [[Also nowhere]]\n")
    project.write(".obsidian/app.json", json.dumps({
        "strictLineBreaks": False,
        "userIgnoreFilters": ["Archive/", "/-draft\\.md$/"],
    }))
    project.write(".obsidian/templates.json", json.dumps({"folder": "Meta/Templates"}))
    project.write(".obsidian/workspace.md", "# not a note\n\n[[Broken]]\n")
    project.write("Archive/Gone.md", "# Gone\n\n[[Broken link]]\n")
    project.write("Notes/idea-draft.md", "# Draft\n\n[[Broken too]]\n")
    project.write("Meta/Templates/Daily.md", "# {{title}}\n\n[[{{date}}]]\n")
    project.write("private/secret.md", "# Secret\n\n[[Broken secret]]\n")
    project.write("sketch.excalidraw.md", "# Sketch\n\n[[Broken sketch]]\n")


_EXCLUDED = ("Old", "workspace", "Gone", "idea-draft", "Daily", "secret", "sketch")


def test_excluded_files_appear_nowhere(project: Project) -> None:
    _vault(project)
    result = project.build()
    assert result.error is None, result.error
    lines = "\n".join(result.lines)
    # the only diagnostic: the link to the trashed note, unresolved like any other
    diagnostics = json.loads((result.site / "_beliefbase/diagnostics.json").read_text())
    assert [(d["file"], d["code"]) for d in diagnostics["diagnostics"]] == [
        ("docs/index.md", "unresolved-link")], lines
    assert "[[Old]]" in diagnostics["diagnostics"][0]["message"]
    graph = (result.site / "_beliefbase/graph.json").read_text()
    for name in _EXCLUDED:
        assert name not in graph
    for folder in (".trash", ".obsidian", "Archive", "Meta", "private", "Notes"):
        assert not (result.site / folder).exists(), folder
    assert not (result.site / "sketch.excalidraw").exists()
    assert (result.site / "Kept/index.html").exists()
    # the vault has .obsidian and strictLineBreaks false: a newline is a line break
    assert "See" in result.article("") and "<br />\nLine two" in result.article("")


def test_check_sees_what_the_build_sees(project: Project) -> None:
    _vault(project)
    built = project.build()
    from_build = json.loads((built.site / "_beliefbase/diagnostics.json").read_text())
    checked = json.loads(run(project, "check", "--json").stdout)
    assert checked["diagnostics"] == from_build["diagnostics"]


def test_malformed_settings_are_an_info_diagnostic(project: Project) -> None:
    project.config = dict(ZERO_CONFIG)
    project.write("index.md", "# Home\n\nOne\ntwo\n")
    project.write(".obsidian/app.json", "{not json")
    result = project.build()
    assert result.error is None
    assert any("docs/.obsidian/app.json:1:2: obsidian-settings:" in line
               for line in result.lines), result.lines
    assert "One<br />" in result.article("")  # Obsidian's default still applies
    checked = json.loads(run(project, "check", "--json").stdout)
    assert [d["code"] for d in checked["diagnostics"]] == ["obsidian-settings"]


def test_strict_line_breaks_and_no_vault(project: Project) -> None:
    project.config = dict(ZERO_CONFIG)
    project.write("index.md", "# Home\n\nOne\ntwo\n")
    result = project.build()
    assert "<p>One\ntwo</p>" in result.article("")  # no .obsidian: MkDocs' behaviour
    project.write(".obsidian/app.json", json.dumps({"strictLineBreaks": True}))
    assert "<p>One\ntwo</p>" in project.build().article("")
    plugins = ["search", {"beliefbase": {"line_breaks": "breaks"}}]
    assert "One<br />" in project.build(plugins=plugins).article("")


def test_zero_configuration_renders_obsidian_markdown(project: Project) -> None:
    project.config = dict(ZERO_CONFIG)
    project.write("index.md", """\
        # Home

        Intro:
        - a
        - b

        Tasks:
        - [ ] open
        - [/] half
        - [-] dropped

        ==marked== and ~~struck~~ and a footnote[^1].

        ```python
        x = 1
        ```

        ```mermaid
        graph TD; A-->B
        ```

        [^1]: The note.
        """)
    html = project.build().article("")
    assert "<p>Intro:</p>\n<ul>\n<li>a</li>" in html
    assert "<p>Tasks:</p>\n<ul class=\"task-list\">" in html
    assert 'class="task-list-item task-in-progress" data-task="/"' in html
    assert 'class="task-list-item task-cancelled"' in html
    assert "<mark>marked</mark>" in html and "<del>struck</del>" in html
    assert 'class="footnote"' in html
    assert '<span class="n">x</span>' in html  # Pygments, at build time
    assert 'class="bb-mermaid"' in html and "A--&gt;B" in html
    assert "Mermaid diagram (shown as source: no offline renderer)" in html
    assert 'class="mermaid"' not in html  # Material would fetch mermaid.js from a CDN


def test_markdown_defaults_off(project: Project) -> None:
    project.config = {**ZERO_CONFIG,
                      "plugins": ["search", {"beliefbase": {"markdown_defaults": False}}]}
    project.write("index.md", "# Home\n\nIntro:\n- a\n\n==m==\n")
    project.write(".obsidian/app.json", "{}")
    html = project.build().article("")
    assert "<mark>" not in html and "<ul>" not in html and "<br />" not in html


def test_users_own_extension_config_wins(project: Project) -> None:
    project.config = {**ZERO_CONFIG, "markdown_extensions": [
        {"pymdownx.tilde": {"subscript": True}},
        {"pymdownx.tasklist": {"custom_checkbox": False}},
        "codehilite",
    ]}
    project.write("index.md", "# Home\n\nH~2~O\n\n- [x] done\n\n```python\nx = 1\n```\n")
    html = project.build().article("")
    assert "H<sub>2</sub>O" in html  # ours would turn subscript off
    assert "task-list-indicator" not in html  # ours would use custom checkboxes
    assert 'class="codehilite"' in html  # codehilite, not pymdownx.highlight


def test_draft_docs_are_compiled_only_where_mkdocs_shows_them(project: Project) -> None:
    project.config = {**ZERO_CONFIG, "draft_docs": "drafts/\n"}
    project.write("index.md", "# Home\n")
    project.write("drafts/wip.md", "# Work in progress\n\n[[Nowhere]]\n")
    built = project.build()
    assert built.error is None
    assert diagnostic_lines(built) == []
    assert "Work in progress" not in (built.site / "_beliefbase/graph.json").read_text()
    served = project.build(serve=True)
    assert served.error is None
    assert [line.split(": ")[1] for line in diagnostic_lines(served)] == ["unresolved-link"]

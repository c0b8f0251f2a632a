"""``mkdocs serve --dirty``: a page with a query follows the graph it shows."""

from __future__ import annotations

import time
from pathlib import Path

from tests.conftest import Project
from tests.site.test_dirty import EXPLORER, _same_as_clean

# (no `status` field: Material shows a page's `status` in the navigation, and
# --dirty rebuilds of such vaults differ from clean ones with or without queries)
DASH = "# Dash\n\n```query view=table\nMATCH (p:Task) RETURN p.title, p.stage\n```\n"


def test_editing_a_field_a_dashboard_shows(project: Project, tmp_path: Path) -> None:
    project.write("dash.md", DASH)
    project.write("one.md", "---\nschema: Task\nstage: open\n---\n# One\n")
    project.write("two.md", "---\nschema: Task\nstage: done\n---\n# Two\n")
    project.write("other.md", "# Other\n\nNothing to do with tasks.\n")
    # the explorer: with Material's navigation in every page, a --dirty rebuild in
    # this harness (a new plugin per build) titles the pages it skips "None"
    first = project.build(dirty=True, plugins=EXPLORER)
    assert first.error is None
    assert "<td>Two</td><td>done</td>" in first.article("dash/")
    time.sleep(0.05)
    project.write("two.md", "---\nschema: Task\nstage: reopened\n---\n# Two\n")
    second = project.build(dirty=True, plugins=EXPLORER)
    assert second.error is None
    assert "<td>Two</td><td>reopened</td>" in second.article("dash/")
    assert second.page("other/") == first.page("other/")
    _same_as_clean(project, second, tmp_path, plugins=EXPLORER)


def test_editing_a_property_a_base_and_a_dataview_table_show(project: Project,
                                                              tmp_path: Path) -> None:
    """Issue 27: a ```dataview fence, a ```base fence, an ![[X.base]] embed and the
    .base page itself follow an edit to another note, byte for byte as a clean build."""
    project.write("dash.md", "# Dash\n\n```dataview\nTABLE stage FROM #task SORT file.name\n```\n")
    project.write("board.md", "# Board\n\n```base\nfilters: file.hasTag(\"task\")\nviews:\n"
                              "  - type: table\n    order: [file.name, stage]\n```\n")
    project.write("Tasks.base", "filters: file.hasTag(\"task\")\nviews:\n  - type: table\n"
                                "    name: All\n    order: [file.name, stage]\n")
    project.write("embeds.md", "# Embeds\n\n![[Tasks.base#All]]\n")
    project.write("one.md", "---\ntags: [task]\nstage: open\n---\n# One\n")
    project.write("two.md", "---\ntags: [task]\nstage: done\n---\n# Two\n")
    project.write("other.md", "# Other\n\nNothing to do with tasks.\n")
    first = project.build(dirty=True, plugins=EXPLORER)
    assert first.error is None
    for url in ("dash/", "board/", "embeds/", "Tasks.base/"):
        assert ">done<" in first.article(url), url
    time.sleep(0.05)
    project.write("two.md", "---\ntags: [task]\nstage: reopened\n---\n# Two\n")
    second = project.build(dirty=True, plugins=EXPLORER)
    assert second.error is None
    for url in ("dash/", "board/", "embeds/", "Tasks.base/"):
        assert ">reopened<" in second.article(url), url
    assert second.page("other/") == first.page("other/")
    _same_as_clean(project, second, tmp_path, plugins=EXPLORER)

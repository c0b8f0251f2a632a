"""``mkdocs serve`` (``--dirty`` or not): a page with a query follows the graph it shows."""

from __future__ import annotations

import time
from pathlib import Path

from tests.conftest import Project
from tests.site.test_dirty import EXPLORER, _same_as_clean, serve  # noqa: F401 - a fixture

# (no `status` field: Material shows a page's `status` in the navigation, and
# --dirty rebuilds of such vaults differ from clean ones with or without queries)
DASH = "# Dash\n\n```query view=table\nMATCH (p:Task) RETURN p.title, p.stage\n```\n"


def test_editing_a_field_a_dashboard_shows(project: Project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    project.write("dash.md", DASH)
    project.write("one.md", "---\nschema: Task\nstage: open\n---\n# One\n")
    project.write("two.md", "---\nschema: Task\nstage: done\n---\n# Two\n")
    project.write("other.md", "# Other\n\nNothing to do with tasks.\n")
    # the explorer: with Material's navigation in every page, a --dirty rebuild in
    # this harness (a new plugin per build) titles the pages it skips "None"
    session = serve(plugins=EXPLORER)
    first = session.build()
    assert first.error is None
    assert "<td>Two</td><td>done</td>" in first.article("dash/")
    other = first.page("other/")
    time.sleep(0.05)
    project.write("two.md", "---\nschema: Task\nstage: reopened\n---\n# Two\n")
    second = session.build()
    assert second.error is None
    assert "<td>Two</td><td>reopened</td>" in second.article("dash/")
    assert second.page("other/") == other
    _same_as_clean(project, second, tmp_path, session)


def test_editing_a_property_a_base_and_a_dataview_table_show(project: Project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
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
    session = serve(plugins=EXPLORER)
    first = session.build()
    assert first.error is None
    for url in ("dash/", "board/", "embeds/", "Tasks.base/"):
        assert ">done<" in first.article(url), url
    other = first.page("other/")
    time.sleep(0.05)
    project.write("two.md", "---\ntags: [task]\nstage: reopened\n---\n# Two\n")
    second = session.build()
    assert second.error is None
    for url in ("dash/", "board/", "embeds/", "Tasks.base/"):
        assert ">reopened<" in second.article(url), url
    assert second.page("other/") == other
    _same_as_clean(project, second, tmp_path, session)

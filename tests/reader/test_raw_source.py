"""The "Source" panel (option ``raw_toggle``): the note's text as written, shown as text."""

from __future__ import annotations

import html
import re

from tests.conftest import Project

NOTE = """---
title: Dragons <b>&</b> "quotes"
tags: [lore]
---
# Smaug

#Smaug:CREATURE lives under the mountain. %%a private comment%%
Cory:ALIAS_OF_CORY_GILFORD:PERSON met [[Other|him]] and wrote <script>alert(1)</script>.

$$x^2$$
"""

#: the panel's text, as a reader sees it once opened
_PANEL = re.compile(r'<details class="bb-panel bb-source">.*?<code>(.*?)</code>', re.S)


def _shown(page: str) -> str:
    found = _PANEL.search(page)
    assert found is not None, "no Source panel"
    return html.unescape(found.group(1))


def test_the_panel_shows_the_note_as_written_less_comments(project: Project) -> None:
    project.write("smaug.md", NOTE)
    project.write("other.md", "# Other\n")
    result = project.build()
    assert result.error is None
    page = result.page("smaug/", source=True)
    # every byte of the note, frontmatter and syntax included, but %%comments%%,
    # which no part of the site publishes
    assert _shown(page) == NOTE.replace(" %%a private comment%%", "")
    assert "private comment" not in page
    panel = page[page.index('<details class="bb-panel bb-source">'):]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in panel  # shown, never run
    assert "<script>alert(1)" not in panel
    # closed until opened, and after the note's own text
    assert page.index("bb-source") > page.index("lives under the mountain")
    assert "<details class=\"bb-panel bb-source\" open" not in page


def test_off_and_only_on_notes(project: Project) -> None:
    project.write("smaug.md", NOTE)
    project.write("other.md", "# Other\n")
    result = project.build()
    assert "bb-source" not in result.page("tags/", source=True)  # a generated page
    off = project.build(plugins=["search", {"beliefbase": {"raw_toggle": False}}])
    assert off.error is None
    assert "bb-source" not in off.page("smaug/", source=True)

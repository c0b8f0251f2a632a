"""Snippets on a built site are rendered text (issue 28 item 4): backlinks, unlinked
mentions, folder and recent blurbs and ``previews.json`` show no Markdown syntax,
inline code stays code and math is math."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Project
from tests.snippet_markers import raw_markers, snippets_of

#: Each note's text: every syntax, each block linking to (or naming) "Hub".
MESSY = {
    "index.md": "# Home\n\nThe home of the [[Hub]] vault.\n",
    "notes/callouts.md": (
        "# Callouts\n\n> [!warning|clean no-icon]- Watch **out** for [[Hub]]\n"
        "> The `hub` runs $x^2$ times. ^c1\n\n"
        "> [!tip]+\n> > [!info|wide]\n> > Nested callout naming [[Hub|the hub]].\n"),
    "notes/blocks.md": (
        "---\ntitle: Blocks\ndescription: >-\n  folded\n---\n"
        "## Heading with [[Hub]] ##\n\n---\n\n"
        "- [ ] a task about [[Hub]] with ==marks== and ~~strikes~~ #tag\n"
        "- second item names Hub plainly.\n\n"
        "| col | other |\n|:---|---:|\n| [[Hub\\|h]] cell | `code` |\n\n"
        "$$\n\\sum_i x_i\n$$\nAfter display math, see [[Hub]].\n"),
    "notes/prose.md": (
        "# Prose\n\n%%hidden%% First *prose* with `a [[b]]` code, $\\frac{a}{b}$ math, "
        "a footnote[^1], ^[an inline note], <b>html</b> &amp; [a link](https://x.org) "
        "about [[Hub]]. Second sentence names Hub again. ^p1\n\n"
        "key:: value with [[Hub]]\n\n[^1]: The footnote's definition mentions [[Hub]].\n"),
    "notes/code.md": (
        "# Code\n\nCode:\n```python\nprint('[[Hub]]')\n```\nThen **[[Hub]]** after a fence.\n"),
    "hub.md": "# Hub\n\nThe hub note. It is linked from everywhere.\n",
    "notes/linking.md": "# Linking\n\nSome words. Then [[Hub]] is named, e.g. twice! Last.\n",
    "notes/naming.md": "# Naming\n\nSome words. Then Hub is named, e.g. twice! Last.\n",
}


def _vault(project: Project) -> None:
    for path, text in MESSY.items():
        project.write(path, text, dedent=False)


def test_no_snippet_of_a_messy_vault_shows_markdown(project: Project) -> None:
    _vault(project)
    result = project.build()
    assert result.error is None, result.error
    found = snippets_of(project.root / "site")
    assert len(found["html"]) >= 10 and len(found["previews"]) >= 5, found
    bad = {kind: [(raw_markers(t), t) for t in texts if raw_markers(t)]
           for kind, texts in found.items()}
    assert bad == {"html": [], "previews": []}


def test_backlinks_keep_code_and_math(project: Project) -> None:
    _vault(project)
    assert project.build().error is None
    hub = (project.root / "site" / "hub" / "index.html").read_text(encoding="utf-8")
    # the callout's title line, as the page shows it: no [!warning|...]- marker
    assert "Watch out for Hub" in hub
    assert "<code>a [[b]]</code>" in hub  # code is code, with its text as written
    assert '<span class="bb-math"><math' in hub  # math is math
    assert ">h cell</p>" in hub  # the table cell, the pipe unescaped


def test_previews_and_blurbs_are_text(project: Project) -> None:
    _vault(project)
    assert project.build().error is None
    site = project.root / "site"
    pages = json.loads(next(site.rglob("previews.json")).read_text(encoding="utf-8"))["pages"]
    excerpts = {page["title"]: page["excerpt"] for page in pages.values()}
    assert excerpts["Prose"].startswith("First prose with a [[b]] code, \\frac{a}{b} math,")
    assert excerpts["Callouts"] == ""  # a callout is not the note's prose
    assert excerpts["Code"] == "Code:"  # a fence ends the paragraph above it
    folder = (site / "notes" / "index.html").read_text(encoding="utf-8")
    assert "First prose with <code>a [[b]]</code> code," in folder


def test_the_same_sentence_is_cut_the_same_way(project: Project) -> None:
    _vault(project)
    assert project.build().error is None
    hub = (Path(project.root) / "site" / "hub" / "index.html").read_text(encoding="utf-8")
    # a backlink's sentence and a mention's sentence of the same paragraph: one rule
    assert ">Then Hub is named, e.g. twice!</p>" in hub
    assert ('>Then <mark class="bb-mentions__name">Hub</mark> is named, e.g. twice!</p>'
            in hub)

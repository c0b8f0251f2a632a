"""Markdown-syntax links at render level: each takes its compiled resolution by position.

``[t](note.md)``, ``![](note.md#Section)`` and ``[t](<a b.md>)`` get a link mark at
the start of their href (``PageRenderer.mark_links``); the link treeprocessors and
the Markdown-embed pattern take it out again and use the compiled link it names,
never one found again by matching the href's text.  A link the compile did not
see (reference-style) is resolved on its own; external links, anchors and code
stay as written.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from beliefbase.codecs.grammar import LINK_MARK
from beliefbase.compile.compiled import Compiled
from beliefbase.ids import SrcPath

from ..conftest import Project
from ..page_render import page_renderer, render_note


def _render(project: Project, name: str, compiled: Compiled | None = None) -> str:
    """The HTML of note ``name``'s page (MkDocs' own link conversion left out)."""
    compiled = compiled if compiled is not None else project.compile()
    return render_note(project, compiled, name, ["tables", "toc"], nested_links=True)


def _hrefs(html: str) -> list[str]:
    return re.findall(r'<(?:a|img)\b[^>]*?(?:href|src)="([^"]*)"', html)


def _elsewhere(compiled: Compiled, note: str, index: int, target: str,
               anchor: str | None = None) -> Compiled:
    """``compiled`` with link ``index`` of ``note`` resolved to ``target`` by name (a
    stand-in: the compile is the authority, the page must not re-derive it)."""
    path = SrcPath(note)
    links = list(compiled.links[path])
    links[index] = dataclasses.replace(links[index], target=SrcPath(target), step=5,
                                       anchor=anchor, status="ok", is_asset=False)
    return dataclasses.replace(compiled, links={**compiled.links, path: tuple(links)})


@pytest.fixture()
def vault(project: Project) -> Project:
    project.write("target.md", "# Target\n\n## Section One\n\nTarget's text.\n")
    project.write("other.md", "# Other\n\nOther's own text.\n")
    project.write("a b.md", "# A B\n\nSpaced.\n")
    return project


def test_two_links_with_the_same_href_each_take_their_own_compiled_link(
    vault: Project,
) -> None:
    vault.write("a.md", "# A\n\n[one](target.md) then [two](target.md).\n")
    compiled = _elsewhere(vault.compile(), "a.md", 1, "other.md")
    assert _hrefs(_render(vault, "a.md", compiled)) == ["target.md", "other.md"]
    compiled = _elsewhere(vault.compile(), "a.md", 0, "other.md")
    assert _hrefs(_render(vault, "a.md", compiled)) == ["other.md", "target.md"]


def test_angle_bracket_hrefs_titles_and_table_cells_are_marked(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        | x | y |
        |---|---|
        | [c1](<a b.md>) | [c2](target.md "a title") |

        [p](<a b.md>) and [q](target.md#Section%20One).
        """)
    compiled = vault.compile()
    assert _hrefs(_render(vault, "a.md", compiled)) == [
        "a b.md", "target.md", "a b.md", "target.md#section-one"]
    for index in range(4):
        moved = _elsewhere(compiled, "a.md", index, "other.md")
        hrefs = _hrefs(_render(vault, "a.md", moved))
        assert hrefs[index].startswith("other.md"), (index, hrefs)
        assert sum(h.startswith("other.md") for h in hrefs) == 1


def test_a_markdown_embed_takes_its_own_compiled_link(vault: Project) -> None:
    vault.write("a.md", "# A\n\n![](target.md#Section%20One)\n\n![](<target.md#Section One>)\n")
    html = _render(vault, "a.md")
    assert html.count("Target&#x27;s text.") + html.count("Target's text.") == 2
    compiled = _elsewhere(vault.compile(), "a.md", 1, "other.md")
    html = _render(vault, "a.md", compiled)
    assert "Other&#x27;s own text." in html or "Other's own text." in html
    assert html.count("Target&#x27;s text.") + html.count("Target's text.") == 1
    assert not LINK_MARK.search(html)


def test_links_in_an_embedded_note_take_their_own_compiled_links(vault: Project) -> None:
    vault.write("sub/host.md", "# Host\n\n![[inner]]\n")
    vault.write("inner.md", "# Inner\n\n[x](target.md) and [y](target.md)\n")
    compiled = vault.compile()
    assert _hrefs(_render(vault, "sub/host.md", compiled))[-2:] == ["../../target/", "../../target/"]
    moved = _elsewhere(compiled, "inner.md", 1, "other.md")
    html = _render(vault, "sub/host.md", moved)
    assert _hrefs(html)[-2:] == ["../../target/", "../../other/"]
    assert not LINK_MARK.search(html)


def test_external_links_anchors_code_and_reference_links(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        [e](https://example.org/x.md) <https://example.org> [s](#Section) `[c](target.md)`
        [r][ref] goes by name, as a link the compile did not see.

        [ref]: target
        """)
    html = _render(vault, "a.md")
    hrefs = _hrefs(html)
    assert hrefs == ["https://example.org/x.md", "https://example.org", "#Section",
                     "target.md"]
    assert "<code>[c](target.md)</code>" in html
    assert not LINK_MARK.search(html)


def test_an_unmarked_link_is_resolved_on_its_own(vault: Project) -> None:
    """Text the compile never saw: no mark, the resolver decides (by name here)."""
    vault.write("a.md", "# A\n\nSee [x](target.md).\n")
    compiled = vault.compile()
    text = "[x](target.md) and [y](other) and [z](nowhere.md)\n"

    renderer, md = page_renderer(vault, compiled, ["tables", "toc"])
    doc = compiled.documents[SrcPath("a.md")]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert(text)
    renderer.end_page()
    assert _hrefs(html) == ["target.md", "other.md", "nowhere.md"]


def test_a_link_the_compile_left_unresolved_stays_as_written(vault: Project) -> None:
    vault.write("a.md", "# A\n\n[x](nowhere.md) [y](target.md#No%20Such)\n")
    compiled = vault.compile()
    statuses = [r.status for r in compiled.links[SrcPath("a.md")]]
    assert statuses == ["ok"]  # (a link to no file is MkDocs' to report)
    assert _hrefs(_render(vault, "a.md", compiled)) == ["nowhere.md", "target.md#No%20Such"]


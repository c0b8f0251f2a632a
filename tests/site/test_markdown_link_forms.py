"""Obsidian's Markdown-syntax links and embeds (issue 16, point 9)."""

from __future__ import annotations

from tests.conftest import diagnostic_lines


def vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("notes/Other Note.md", "# Other Note\n\n## Some Heading\n\nSection text.\n\n"
                                         "## Later\n\nLater text.\n")
    project.write("pic.png", b"\x89PNG\r\n")
    project.write("index.md", """\
        # Home

        [a](notes/Other%20Note.md#Some%20Heading) [b](Other%20Note.md#Some%20Heading)
        [c](notes/Other%20Note.md#some-heading) [d](notes/Other%20Note.md#Nowhere)
        [e](#Local%20Part)

        ![](notes/Other%20Note.md#Some%20Heading)

        ![alt|375](pic.png) ![alt|375x200](pic.png)

        ## Local Part
        """)


def test_fragment_as_heading_text_gets_the_anchor(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build()
    html = result.article("")
    assert '<a href="notes/Other%20Note/#some-heading">a</a>' in html
    assert '<a href="notes/Other%20Note/#some-heading">b</a>' in html  # found by name
    assert '<a href="notes/Other%20Note/#some-heading">c</a>' in html
    # no such heading: as written (it may be a raw HTML anchor); the compiler reports it
    assert '<a href="notes/Other%20Note/#Nowhere">d</a>' in html
    assert '<a href="#local-part">e</a>' in html
    assert not [line for line in result.all_lines
                if "contains a link" in line and "Nowhere" not in line]
    assert [line.split(": ")[1] for line in diagnostic_lines(result)] == ["unresolved-anchor"]
    assert "'Other Note' has no heading 'Nowhere'" in diagnostic_lines(result)[0]


def test_markdown_embed_of_a_section_transcludes(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    html = project.build().article("")
    embed = html[html.index('<div class="bb-embed"'):]
    assert "Section text." in embed and "Later text." not in embed
    assert "<img" not in html[:html.index('<div class="bb-embed"')]  # not an <img>


def test_image_size_in_alt_text(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    html = project.build().article("")
    assert '<img alt="alt" src="pic.png" width="375" />' in html
    assert '<img alt="alt" height="200" src="pic.png" width="375" />' in html
    assert "alt|375" not in html


def test_heading_text_fragment_inside_an_embed(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    project.write("sub/inner.md", "# Inner\n\nGo [there](../notes/Other%20Note.md#Later).\n")
    project.write("host.md", "# Host\n\n![[inner]]\n")
    html = project.build().article("host/")
    assert '<a href="../notes/Other%20Note/#later">there</a>' in html


def test_inline_footnote_in_a_build(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nClaim^[see [[other]]] and a cited one[^1].\n\n"
                              "[^1]: A source.\n")
    project.write("other.md", "# Other Page\n")
    result = project.build()
    html = result.article("")
    assert 'href="#fn:inline-1"' in html and "^[" not in html
    assert 'see <a class="bb-link"' in html and ">Other Page</a>" in html
    assert result.error is None

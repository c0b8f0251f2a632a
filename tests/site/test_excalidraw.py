"""Excalidraw drawing notes are drawings, not pages (issue 16, point 5)."""

from __future__ import annotations

from tests.conftest import diagnostic_lines

DRAWING = """\
---
excalidraw-plugin: parsed
tags: [excalidraw]
---
==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==

# Text Elements
Some label ^abc123

%%
# Drawing
```json
{"type":"excalidraw","elements":[]}
```
%%
"""


def vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("art/Sketch.excalidraw.md", DRAWING, dedent=False)
    project.write("art/Sketch.excalidraw.svg", '<svg xmlns="http://www.w3.org/2000/svg"/>')
    project.write("art/Plan.excalidraw.md", DRAWING, dedent=False)
    project.write("Old Style.md", DRAWING, dedent=False)  # plugin frontmatter, plain name
    project.write("index.md", "# Home\n\n![[Sketch.excalidraw]]\n\n![[Plan]]\n\n"
                              "See [[Plan.excalidraw]] and ![[Old Style]].\n")


def test_drawings_have_no_page_and_embed_their_export(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build()
    assert result.error is None
    for gone in ("art/Sketch.excalidraw/index.html", "art/Plan.excalidraw/index.html",
                 "Old Style/index.html"):
        assert not (result.site / gone).exists(), gone
    assert "Sketch" not in (result.site / "search/search_index.json").read_text()
    html = result.article("")
    assert '<img alt="Sketch.excalidraw.svg" class="bb-embed-image"' in html
    assert 'src="art/Sketch.excalidraw.svg"' in html
    assert ('<span class="bb-link bb-drawing" title="Plan (Excalidraw drawing, not exported '
            'as an image)">Plan</span>') in html
    assert "JSON" not in html and "excalidraw-plugin" not in html
    lines = diagnostic_lines(result)
    assert [line.split(": ")[1] for line in lines] == ["excalidraw-embed"] * 3, lines
    assert "Auto-export SVG" in lines[0] and lines[0].startswith("INFO docs/index.md:5:1:")

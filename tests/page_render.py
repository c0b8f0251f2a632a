"""A note's page rendered by our Markdown extension alone, without a build (MkDocs'
own link conversion left out): the render-level tests of links share it."""

from __future__ import annotations

from collections.abc import Sequence

import markdown
from beliefbase.codecs.markdown import note_text
from beliefbase.compile.compiled import Compiled
from beliefbase.ids import SrcPath
from beliefbase.site.markdown.markdown_ext import EmbeddedLinks, WikiLinkExtension
from beliefbase.site.render import PageRenderer
from beliefbase.site.templates import Templates

from .conftest import Project


def page_renderer(project: Project, compiled: Compiled, extensions: Sequence[str] = (),
                  nested_links: bool = False) -> tuple[PageRenderer, markdown.Markdown]:
    """A renderer over ``project``'s notes and a Markdown with our extension and
    ``extensions`` (``nested_links``: embedded notes' links are converted too)."""

    def read_text(path: SrcPath) -> str:
        return str(note_text((project.docs / path).read_bytes())[0])

    def new_markdown() -> markdown.Markdown:
        return markdown.Markdown(extensions=[WikiLinkExtension(renderer), *extensions])

    def render_nested(text: str, depth: int) -> str:
        md = new_markdown()
        if nested_links:
            md.treeprocessors.register(EmbeddedLinks(md, renderer), "bb_embedded_links", 1)
        return str(md.convert(text))

    renderer = PageRenderer(compiled, Templates(), read_text, render_nested)
    return renderer, new_markdown()


def render_note(project: Project, compiled: Compiled, name: str,
                extensions: Sequence[str] = (), nested_links: bool = False) -> str:
    """The HTML of note ``name``'s page."""
    renderer, md = page_renderer(project, compiled, extensions, nested_links)
    doc = compiled.documents[SrcPath(name)]
    renderer.begin_page(doc, doc.url or "")
    try:
        return str(md.convert(renderer.read_text(doc.path)[doc.parsed.body_offset:]))
    finally:
        renderer.end_page()

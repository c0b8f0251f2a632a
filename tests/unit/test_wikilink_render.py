"""The wikilink extension at render level: a Markdown instance and a compile, no MkDocs build.

Each wikilink and embed on a page gets the resolution the compile gave the
link at that position in the note (``PageRenderer.mark_links`` marks it,
``WikiLinkProcessor`` takes the mark), never a resolution found again by
matching the link's text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import markdown
import pytest
from beliefbase.builder.resolve import ResolvedLink
from beliefbase.codecs.grammar import LINK_MARK
from beliefbase.codecs.guards import MAX_INDENT, make_renderable
from beliefbase.codecs.markdown import note_text
from beliefbase.compile.compiled import Compiled
from beliefbase.ids import SrcPath
from beliefbase.site.markdown.markdown_ext import WikiLinkExtension
from beliefbase.site.render import PageRenderer
from beliefbase.site.templates import Templates

from ..conftest import Project

Render = Callable[[str], str]


def _renderer(project: Project, compiled: Compiled | None = None
              ) -> tuple[Compiled, PageRenderer, markdown.Markdown]:
    compiled = compiled if compiled is not None else project.compile()

    def read_text(path: SrcPath) -> str:
        return str(note_text((project.docs / path).read_bytes())[0])

    nested: dict[int, markdown.Markdown] = {}

    def render_nested(text: str, depth: int) -> str:
        md = nested.setdefault(depth, _markdown(renderer))
        md.reset()
        return str(md.convert(text))

    renderer = PageRenderer(compiled, Templates(), read_text, render_nested)
    return compiled, renderer, _markdown(renderer)


def _markdown(renderer: PageRenderer) -> markdown.Markdown:
    return markdown.Markdown(extensions=[WikiLinkExtension(renderer), "tables", "toc"])


def _page(project: Project, name: str) -> tuple[Compiled, PageRenderer, str]:
    """The HTML of note ``name``'s page, rendered as the site renders it."""
    compiled, renderer, md = _renderer(project)
    doc = compiled.documents[SrcPath(name)]
    text = note_text((project.docs / name).read_bytes())[0]
    renderer.begin_page(doc, doc.url or "")
    try:
        html = md.convert(text[doc.parsed.body_offset:])
    finally:
        renderer.end_page()
    return compiled, renderer, html


def _links(html: str) -> list[str]:
    return re.findall(r'<(?:a|span)\b[^>]*class="bb-link[^"]*"[^>]*>.*?</(?:a|span)>', html)


@pytest.fixture()
def vault(project: Project) -> Project:
    project.write("target.md", """\
        # Target

        ## Section One

        A paragraph with an id. ^para-1
        """)
    project.write("other.md", "# Other\n\nOther's own text.\n")
    return project


def test_links_aliases_headings_block_refs(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        See [[target]], [[target|the alias]], [[target#Section One]] and [[target#^para-1]].
        Missing: [[nowhere]].
        """)
    _c, _r, html = _page(vault, "a.md")
    links = _links(html)
    assert len(links) == 5
    assert 'href="target.md"' in links[0] and ">Target<" in links[0]
    assert ">the alias<" in links[1]
    assert 'href="target.md#section-one"' in links[2]
    assert 'href="target.md#^para-1"' in links[3]
    assert "bb-unresolved" in links[4] and "href" not in links[4]
    assert not LINK_MARK.search(html)


def test_embeds_render_the_embedded_note(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        ![[other]]

        ![[target#Section One]]
        """)
    _c, _r, html = _page(vault, "a.md")
    assert "Other&#x27;s own text." in html or "Other's own text." in html
    assert "A paragraph with an id." in html
    assert not LINK_MARK.search(html)


def test_links_in_code_and_escaped_links_stay_text(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        `[[target]]` and \\[[target]] stay text.

            [[target]] in an indented block

        ```
        [[target]] in a fence
        ```
        """)
    _c, _r, html = _page(vault, "a.md")
    assert _links(html) == []
    assert "<code>[[target]]</code>" in html
    assert "[[target]] stay text." in html
    assert html.count("[[target]]") == 4
    assert not LINK_MARK.search(html)


def test_link_in_a_table_cell_with_escaped_pipe(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        | Link | Note |
        |------|------|
        | [[target\\|shown]] | x |
        | [[other|piped]] | y |
        """)
    _c, _r, html = _page(vault, "a.md")
    links = _links(html)
    assert len(links) == 2
    assert ">shown<" in links[0] and 'href="target.md"' in links[0]
    assert ">piped<" in links[1] and 'href="other.md"' in links[1]
    assert html.count("<td>") == 4


def test_identical_links_each_take_their_own_compiled_link(vault: Project) -> None:
    vault.write("a.md", """\
        # A

        | x | y |
        |---|---|
        | [[target]] | [[target]] |

        [[target]] and [[target]] again.
        """)
    compiled, renderer, md = _renderer(vault)
    doc = compiled.documents[SrcPath("a.md")]
    taken: list[int] = []
    real = renderer.lookup

    def lookup(*args: object) -> object:
        found = real(*args)
        taken.append(compiled.links[doc.path].index(found))
        return found

    renderer.lookup = lookup
    text = note_text((vault.docs / "a.md").read_bytes())[0]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert(text[doc.parsed.body_offset:])
    renderer.end_page()
    assert len(_links(html)) == 4
    # every compiled link taken once (Python-Markdown meets the paragraph's links
    # before the table's), each the one written where the page met it: left to right
    assert sorted(taken) == [0, 1, 2, 3]
    met = [(compiled.links[doc.path][i].link.line, compiled.links[doc.path][i].link.column)
           for i in taken]
    assert [line for line, _ in met] == [7, 7, 5, 5]
    assert met[0][1] < met[1][1] and met[2][1] < met[3][1]


def test_the_page_takes_each_link_by_position_not_by_text(vault: Project) -> None:
    """Two links written alike: the page shows each one's own compiled resolution."""
    vault.write("a.md", "# A\n\n[[target]] first, then [[target]] second.\n")
    compiled = vault.compile()
    doc = compiled.documents[SrcPath("a.md")]
    first, second = compiled.links[doc.path]
    # a compile where the second link went elsewhere (a stand-in: the compile is the
    # authority, the renderer must not re-derive it from the text)
    other = compiled.documents[SrcPath("other.md")]
    links = {**compiled.links, doc.path: (first, dataclasses.replace(second, target=other.path))}
    compiled, renderer, md = _renderer(vault, dataclasses.replace(compiled, links=links))
    text = note_text((vault.docs / "a.md").read_bytes())[0]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert(text[doc.parsed.body_offset:])
    renderer.end_page()
    links = _links(html)
    assert 'href="target.md"' in links[0]
    assert 'href="other.md"' in links[1]


def test_a_link_the_compile_did_not_find_there_is_resolved_on_its_own(vault: Project) -> None:
    vault.write("a.md", "# A\n\nSee [[target]].\n")
    compiled, renderer, md = _renderer(vault)
    doc = compiled.documents[SrcPath("a.md")]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert("Text the note does not hold: [[other]] and [[target]].\n")
    renderer.end_page()
    links = _links(html)
    assert 'href="other.md"' in links[0] and 'href="target.md"' in links[1]


def _marks_taken(renderer: PageRenderer) -> list[bool]:
    """Record, for each link the page meets, whether it came with its mark."""
    taken: list[bool] = []
    real = renderer.lookup

    def lookup(form: str, target: str, fragment: str, display: str | None,
               mark: str | None = None) -> ResolvedLink:
        taken.append(mark is not None)
        return real(form, target, fragment, display, mark)

    renderer.lookup = lookup
    return taken


def test_links_inside_an_embedded_note_are_taken_by_position(vault: Project) -> None:
    vault.write("host.md", "# Host\n\nBefore.\n\n![[inner#Part]]\n")
    vault.write("inner.md", """\
        # Inner

        Intro with [[target]].

        ## Part

        Part text with [[other|the other]] and [[target#Section One]].
        """)
    compiled, renderer, md = _renderer(vault)
    taken = _marks_taken(renderer)
    doc = compiled.documents[SrcPath("host.md")]
    text = note_text((vault.docs / "host.md").read_bytes())[0]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert(text[doc.parsed.body_offset:])
    renderer.end_page()
    assert taken == [True, True, True]  # the embed, then the two links of its section
    assert ">the other<" in html and "Intro with" not in html
    assert 'href="../target/#section-one"' in html


def test_a_page_with_text_before_the_note_body_still_marks(vault: Project) -> None:
    """Broken frontmatter is shown as a code block first: the body is the text's end."""
    vault.write("a.md", "---\ntitle: [broken\n---\n# A\n\nSee [[target|t]] and [[other]].\n")
    compiled, renderer, md = _renderer(vault)
    taken = _marks_taken(renderer)
    doc = compiled.documents[SrcPath("a.md")]
    assert doc.parsed.bad_frontmatter
    text = note_text((vault.docs / "a.md").read_bytes())[0]
    source = "```yaml\n" + text[:doc.parsed.frontmatter_end] + "```\n\n" + text[
        doc.parsed.frontmatter_end:]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert(source)
    renderer.end_page()
    assert taken == [True, True]
    assert len(_links(html)) == 2


def test_marks_no_link_took_are_removed_and_the_notes_own_characters_kept(
    vault: Project,
) -> None:
    vault.write("a.md", "# A\n\n<div>\n[[target]] in raw HTML\n</div>\n\nSee [[other]].\n")
    _c, _r, html = _page(vault, "a.md")
    assert "[[target]] in raw HTML" in html
    assert not LINK_MARK.search(html)
    # icon-font glyphs, private-use characters, and a link mark's own spelling
    icons = "\U000f0001 \U00100000 \U0010fffd \x1a0000"
    vault.write("b.md", f"# B\n\n{icons} [[target]] and [[other]].\n")
    _c, _r, html = _page(vault, "b.md")
    assert icons in html
    assert len(_links(html)) == 2


def test_a_link_moved_by_the_render_guard_is_resolved_on_its_own(vault: Project) -> None:
    deep = "\n".join("    " * i + "- level" for i in range(MAX_INDENT // 4 + 2))
    vault.write("a.md", f"# A\n\nBefore: [[other|before]].\n\n{deep}\n\nAfter: [[target|after]].\n")
    compiled, renderer, md = _renderer(vault)
    taken = _marks_taken(renderer)
    doc = compiled.documents[SrcPath("a.md")]
    text = note_text((vault.docs / "a.md").read_bytes())[0]
    renderer.begin_page(doc, doc.url or "")
    html = md.convert(make_renderable(text[doc.parsed.body_offset:]))
    renderer.end_page()
    # the deep list was fenced (a line more above and below it): the text before it
    # moved, the text after it (a page's body is aligned on its end) did not
    assert taken == [False, True]
    assert ">before<" in html and 'href="other.md"' in html
    assert ">after<" in html and 'href="target.md"' in html


def test_link_marks_keep_an_ascii_note_ascii(vault: Project) -> None:
    """A mark above ASCII made CPython store the whole text four bytes a character and
    scan every slice Python-Markdown takes of it (one per inline match): an 800 KB line
    of sentences with links took seven times as long (issue 32)."""
    vault.write("a.md", "# A\n\nSee [[target]], [t](other.md) and ![[other]].\n")
    compiled, renderer, _md = _renderer(vault)
    doc = compiled.documents[SrcPath("a.md")]
    text = note_text((vault.docs / "a.md").read_bytes())[0]
    renderer.begin_page(doc, doc.url or "")
    try:
        marked, marks = renderer.mark_links(text[doc.parsed.body_offset:])
    finally:
        renderer.end_page()
    assert len(LINK_MARK.findall(marks)) == 3
    assert marked.isascii()
    _c, _r, html = _page(vault, "a.md")
    assert len(_links(html)) == 1 and "other.md" in html and "\x1a" not in html


def test_a_long_table_of_links_is_read_in_one_pass(
        vault: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each row with a link walked up to the table's delimiter row: quadratic in rows
    (issue 32, 10,000 rows: 9 s of our own); now each line is tried once or twice."""
    from beliefbase.site.markdown import markdown_ext

    rows = 500
    tried: list[str] = []
    real = markdown_ext._DELIMITER_ROW

    class Counting:
        def match(self, line: str) -> re.Match[str] | None:
            tried.append(line)
            return real.match(line)

    monkeypatch.setattr(markdown_ext, "_DELIMITER_ROW", Counting())
    vault.write("a.md", "# A\n\n| L | N |\n|---|---|\n"
                + "".join(f"| [[target\\|t{i}]] [[other|o{i}]] | x |\n" for i in range(rows)),
                dedent=False)
    _c, _r, html = _page(vault, "a.md")
    assert len(_links(html)) == 2 * rows and ">o499<" in html
    assert len(tried) <= 2 * (rows + 2)

"""``speedups.search_flat.flatten``: Material's search parser makes the same sections
of a flattened page as of the page (generated pages full of the cases that would
differ: blank texts between tags, character references, excluded spans, headings,
``<pre>``), and the pathological pages lose their link and tag markup."""

from __future__ import annotations

from typing import Any

import pytest
from beliefbase.speedups.search_flat import flatten
from hypothesis import example, given, settings
from hypothesis import strategies as st

Parser = pytest.importorskip("material.plugins.search.plugin").Parser


def _sections(html: str) -> list[tuple[Any, ...]]:
    """Material's sections of ``html``, or the error its parser raises (an ``<li>``
    closed inside an excluded ``<div>`` it never saw open: ``ValueError``), which a
    flattened page must raise alike."""
    parser = Parser()
    try:
        parser.feed(html)
        parser.close()
    except ValueError as error:  # the same kind of error, whatever its wording
        return [("error", type(error).__name__)]
    return [(s.el.tag, s.el.attrs, s.depth, s.id, "".join(s.title), "".join(s.text),
             s.is_excluded()) for s in parser.data]


_TEXTS = ["", " ", "\n", "  ", " \n", "\t", "a", "a b", " a ", "a\n", "&amp;", "&amp",
          "x&#38", "&lt;b&gt;", ">", "a > b", "&", "k:: ", "&amp ", "\u00a0"]
_INLINE = ['<span class="bb-link bb-unresolved" title="n (no such note)">{}</span>',
           '<a class="bb-tag" href="../t/">{}</a>', "<span>{}</span>", '<a href="x">{}</a>',
           '<span data-search-exclude>{}</span>', '<a class="headerlink" href="#h">{}</a>',
           '<span class="linenodiv">{}</span>', "<em>{}</em>", "<code>{}</code>",
           '<a title="a > b" href="y">{}</a>']
_INNER = ["n0", "#t1", " ", "", "a b", "x\ny", "¶"]
_OPEN = ["<p>", "</p>", "<li>", "</li>", "<ul>", "</ul>", "<pre>", "</pre>",
         '<h2 id="s">', "</h2>", "<div>", "</div>", '<div data-search-exclude>', "<br>",
         "<!-- <span>c</span> -->", '<script>"<span>s</span>"</script>', "<b>", "</b>"]


@st.composite
def _page(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            parts.append(draw(st.sampled_from(_TEXTS)))
        elif kind == 1:
            element = draw(st.sampled_from(_INLINE))
            parts.append(element.format(draw(st.sampled_from(_INNER))))
        else:
            parts.append(draw(st.sampled_from(_OPEN)))
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(_page())
@example('<div data-search-exclude><li><div></div></li>')  # Material's parser raises
def test_the_parser_makes_the_same_sections_of_a_flattened_page(html: str) -> None:
    assert _sections(flatten(html, min_tags=0)) == _sections(html)


@pytest.mark.parametrize("html", [
    # blank chunks that the parser turns into one space, or drops after a blank item
    '<p> <b>\n<span title="t">x</span> </b>\n<em>y</em></p>',
    '<p><span title="t">x</span>  <span title="t">y</span></p>',
    '<p>a<span title="t">x</span>\t<span title="t">y</span>z</p>',
    # a reference that would run into the element's text
    '<p>&not<span title="t">in;</span></p>', '<p>&#3<span title="t">8</span>;</p>',
    # an excluded span closed early by one inside it (the parser compares tag names)
    '<p><span data-search-exclude>a <span title="t">b</span> c</span> d</p>',
    '<p><SPAN DATA-SEARCH-EXCLUDE>a <span title="t">b</span> c</SPAN> d</p>',
    # inside a heading, a permalink
    '<h2 id="h">A <span title="t">b</span>  c<a class="headerlink" href="#h">¶</a></h2>',
    '<div title="<span>x</span>">y</div>',
])
def test_pages_where_removing_the_tags_would_differ(html: str) -> None:
    assert _sections(flatten(html, min_tags=0)) == _sections(html)


def test_a_line_of_links_or_tags_loses_its_markup() -> None:
    links = "\n".join(f'k{i}:: <span class="bb-link bb-unresolved" title="n{i} (no such '
                      f'note)">n{i}</span>' for i in range(100))
    tags = " ".join(f'<a class="bb-tag" href="../tags/t{i}/">#t{i}</a>' for i in range(100))
    for html in (f"<h1 id='c'>Case</h1><p>{links}</p>", f"<p>{tags}</p>\n<p>after</p>"):
        flat = flatten(html, min_tags=0)
        assert "<span" not in flat and "<a " not in flat
        assert _sections(flat) == _sections(html)


_NOTES = {
    "index.md": "# Home\n\nSee [[Alpha]], [[Missing one]] and [[Alpha#Part|a part]] #home\n",
    "alpha.md": "# Alpha\n\n## Part\n\nk:: [[Beta]]\nm:: [[Nowhere]]\n\n#x #y/z [[Index]]  "
                "[[Beta]]\n\n- item [[Gone]] &amp; more\n- `[[code]]` #tag\n",
    "beta.md": "---\ntags: [b]\n---\n## No h1 [[Alpha]]\n\nText&nbsp;[[Alpha]] *em [[Beta]]*\n",
}


@pytest.mark.parametrize("offload", [False, True])
def test_a_built_search_index_is_the_same_flattened(project: Any, offload: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from beliefbase.speedups import search_flat, search_offload

    if offload:  # (offloaded pages are flattened before they are sent)
        monkeypatch.setattr(search_offload, "OFFLOAD_THRESHOLD", 1)
    monkeypatch.setattr(search_flat, "FLAT_MIN", 1)  # every page of this small vault
    for path, text in _NOTES.items():
        project.write(path, text, dedent=False)
    indexes = []
    for on in (True, False):
        result = project.build(plugins=["search", {"beliefbase": {"speedups": on}}])
        assert result.error is None
        indexes.append((result.site / "search" / "search_index.json").read_bytes())
    assert indexes[0] == indexes[1]


def test_an_ordinary_page_is_left_as_it_is() -> None:
    """Below ``FLAT_MIN`` inline closing tags flattening costs more than it saves."""
    from beliefbase.speedups.search_flat import FLAT_MIN

    def page(n: int) -> str:
        return "<p>" + " ".join(f'<a class="bb-tag" href="t{i}/">#t{i}</a>'
                                for i in range(n)) + "</p>"

    small = page(FLAT_MIN - 1)
    assert flatten(small) is small
    assert "<a " not in flatten(page(FLAT_MIN))

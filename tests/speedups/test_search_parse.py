"""``speedups.search_parse._fed``: the search worker's tokenizer calls a parser's
handlers exactly as ``HTMLParser.feed`` then ``close`` would on the running Python,
or gives up (and ``_parse`` lets HTMLParser read the page); Material's sections come
out the same either way."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import markdown
import pytest
from beliefbase.speedups import search_parse
from beliefbase.speedups.search_parse import _fed, _parse
from hypothesis import example, given, settings
from hypothesis import strategies as st

material = pytest.importorskip("material.plugins.search.plugin")


class Recorder(HTMLParser):
    """Every handler call, in order (the handlers: ``_RECORDED``)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[Any, ...]] = []


def _recording(kind: str) -> Any:
    def handle(self: Recorder, *args: Any) -> None:
        self.calls.append((kind, *args))
    return handle


#: HTMLParser's handlers, each recorded as (kind, its arguments...)
_RECORDED = {"handle_starttag": "start", "handle_startendtag": "startend",
             "handle_endtag": "end", "handle_data": "data", "handle_comment": "comment",
             "handle_decl": "decl", "handle_pi": "pi", "unknown_decl": "unknown"}
for _method, _kind in _RECORDED.items():
    setattr(Recorder, _method, _recording(_kind))


def _by_htmlparser(html: str) -> list[tuple[Any, ...]]:
    parser = Recorder()
    parser.feed(html)
    parser.close()
    return parser.calls


def _by_fed(html: str) -> list[tuple[Any, ...]] | None:
    parser = Recorder()
    if not _fed(parser, html):
        return None
    parser.close()
    return parser.calls


_TEXTS = ["", " ", "\n", "a", "a b", "x\ny", "&amp;", "&amp", "a &lt;b&gt; c", "&#38;", "&#x26",
          "&", "a & b", "x&y", "&nosuch;", "¶", "\u00a0", "\t", ">", "a > b", "=", '"', "'",
          "&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp"]
_NAMES = ["p", "a", "li", "h2", "H3", "div", "span", "pre", "code", "br", "hr", "img",
          "math", "mi", "my-element", "svg:rect", "td", "x1", "sup"]
_ATTRS = ["", ' id="s"', ' class="bb-link"', ' href="../a/#b"', ' title="a &amp; b"',
          ' title="a &gt; b"', ' data-search-exclude', ' CLASS="X"', ' a="" b="1"',
          ' alt="x&#39;y"', ' href="?a=1&amp;b=2"', " id='q'", " id=q", ' id = "s"',
          ' title="a > b"', ' id="s"title="t"', '\n  id="s"', ' id="s" ', " x\u00a0y", " a=b/c",
          ' style="color: red"', ' href="x"  class="y"', '\thref="x"']
_ODD = ["<!-- c -->", "<!-- <p>x</p> -->", "<!DOCTYPE html>", "<?xml x?>", "<![CDATA[x]]>",
        "<", "< p>", "<3", "a<b", "</ p>", "</p >", "</>", "</ >", "</3>", "<p/", "<p",
        "<script>var a = '<p>';</script>", "<style>p{}</style>", "<textarea><b></textarea>",
        "<title>t</title>", "<!x>", "<p\x00>", "</p\n>", "&#", "&#;"]


@st.composite
def _page(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 30))):
        kind = draw(st.integers(0, 9))
        name = draw(st.sampled_from(_NAMES))
        if kind <= 3:
            parts.append(draw(st.sampled_from(_TEXTS)))
        elif kind <= 5:
            parts.append(f"<{name}{draw(st.sampled_from(_ATTRS))}{draw(st.sampled_from(['', ' /', '/']))}>")
        elif kind <= 7:
            parts.append(f"</{name}>")
        elif kind == 8:
            parts.append(draw(st.sampled_from(_ODD)))
        else:
            parts.append(draw(st.text(max_size=6)))
    return "".join(parts)


@settings(max_examples=1500, deadline=None)
@given(_page())
@example('<h2 id="s">A &amp; B<a class="headerlink" href="#s">¶</a></h2><p>x</p>')
@example("<p>a &amp")  # a reference cut at the end: HTMLParser holds it until ``close``
@example("<br/><BR /><img src=\"a.png\" alt=\"\">")
def test_what_it_reads_it_reads_as_htmlparser_does(html: str) -> None:
    fed = _by_fed(html)
    if fed is not None:
        assert fed == _by_htmlparser(html)


@pytest.mark.parametrize("html", _ODD)
def test_it_gives_up_on_what_it_does_not_know(html: str) -> None:
    if html in ("&#", "&#;", "a<b", "<3", "<p", "<p/"):
        html = f"<p>{html}</p>"
    assert _by_fed(html) is None or _by_fed(html) == _by_htmlparser(html)
    if "<" in html.replace("<p>", "").replace("</p>", ""):
        assert _by_fed(html) is None


_MARKDOWN = st.lists(st.sampled_from([
    "# Title", "## A & B {#ab}", "Some *text* with `code` and **bold**.", "- one\n- two",
    "1. first\n2. second", "> quoted", "```python\nx = '<p>'\n```", "[link](../x.md#h 'a \"t\"')",
    "![img](a.png)", "a | b\n--|--\n1 | 2", "Term &amp; &lt;tag&gt;", "x<sup>2</sup>", "",
    "!!! note \"N\"\n    body", "Text[^1]\n\n[^1]: foot", "<div markdown>\n*in html*\n</div>",
]), min_size=1, max_size=12).map("\n\n".join)


@settings(max_examples=200, deadline=None)
@given(_MARKDOWN)
def test_python_markdowns_pages_take_the_quick_path_with_the_same_sections(text: str) -> None:
    """What Python-Markdown writes is all tokens ``_fed`` reads, and Material's sections
    from it are those of Material's own parse."""
    html = markdown.markdown(text, extensions=["toc", "admonition", "attr_list", "footnotes",
                                               "md_in_html", "tables", "pymdownx.superfences",
                                               "pymdownx.highlight"],
                             extension_configs={"toc": {"permalink": True}})
    assert _by_fed(html) == _by_htmlparser(html)

    def sections(found: list[Any]) -> list[tuple[Any, ...]]:
        return [(s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text) for s in found]

    parser = material.Parser()
    parser.feed(html)
    parser.close()
    assert sections(_parse(html)) == sections(parser.data)


def test_a_page_it_gives_up_on_is_parsed_by_htmlparser(monkeypatch: pytest.MonkeyPatch) -> None:
    html = '<h2 id="a">A</h2><p>x <!-- c --> y</p><script>"<h2 id=\\"b\\">"</script>'
    calls: list[str] = []
    real = search_parse._fed
    monkeypatch.setattr(search_parse, "_fed", lambda p, h: calls.append(h) or real(p, h))
    found = _parse(html)
    assert calls == [html]
    parser = material.Parser()
    parser.feed(html)
    parser.close()
    assert [(s.id, s.title, s.text) for s in found] == [(s.id, s.title, s.text)
                                                       for s in parser.data]


def _material_sections(parser: Any, html: str) -> list[tuple[Any, ...]]:
    """The sections ``parser`` makes of ``html`` (fed by HTMLParser), or the error it raises."""
    try:
        parser.feed(html)
        parser.close()
    except ValueError as error:
        return [("error", type(error).__name__)]
    return [(s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text, s.is_excluded())
            for s in parser.data]


from tests.speedups.test_search_flat import _page as _flat_page  # noqa: E402


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_page(), _flat_page()))
@example('<div data-search-exclude><div>x</div>y</div><p>z</p>')  # a nested div ends it
@example('<h2 id="a">A<a class="headerlink" href="#a">¶</a></h2><pre> \n x</pre> <p> </p>')
@example('<ul><li>a</div></li></ul><hx>t</hx>')
@example("<p>a</p><pre> <b></b> </pre>")  # blank after blank: kept only in <pre>
@example('<section><h3 id="b">B</h3></div></section><div><section><section><div></section>x')
def test_the_quick_parser_makes_materials_sections(html: str) -> None:
    """``QuickParser``'s handlers make the sections (and raise the errors) of Material's."""
    quick = search_parse._parser_class()
    assert _material_sections(quick(), html) == _material_sections(material.Parser(), html)

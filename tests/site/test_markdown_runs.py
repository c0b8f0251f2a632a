"""Wikilinks and tags in a row are one run for Python-Markdown (``markdown_ext``'s
``RenderedPattern``, ``LiftRuns``, issue 20): the page comes out as it did match by match,
and thousands of them in one paragraph are not one copy of the paragraph each."""

from __future__ import annotations

import re
from typing import Any

import pytest
from beliefbase.site.markdown import markdown_ext

TRICKY = """\
# Home

#alpha #beta #gamma, #delta. #eps: #zeta

[[a]] [[b]] [[missing]] [[a|Shown *x*]] [[b#Part]]{BR}[[a]]{BR}[[b]] line after break

k1:: [[a]]
k2:: [[missing2]]
k3:: [[b]] *emph [[a]] and* [[b]] `code [[a]]` [[a]]
k4:: [[a]] ![[b]] [[a]][[b]] [[a]] \\[[b]] [[a]]

*[[a]] [[b]]* and _[[a]] x_ [[b]] [[[a]] [[b]]](http://x.org) [[a]] <span>[[b]]</span> [[a]]

#t1 #t2 { #t3 } #t4 #t5 &amp; #t6 HTML #t7

## Head [[a]] [[b]] #t1 #t2

*[HTML]: Hyper Text
"""


def _unresolved(name: str) -> str:
    return (f'<span class="bb-link bb-unresolved" title="{name} (no such note)">'
            f"{name}</span>")


def test_links_and_tags_in_a_row_render_as_one_by_one(project: Any) -> None:
    project.write("index.md", TRICKY.replace("{BR}", "  \n"), dedent=False)
    project.write("a.md", "# A\n")
    project.write("b.md", "# B\n\n## Part\n")
    result = project.build(markdown_extensions=["abbr"])
    assert "bb-run" not in result.page("")
    article = re.sub(r' data-bb-target="[^"]*"', "", result.article(""))

    def link(name: str, text: str | None = None, part: str = "") -> str:
        return f'<a class="bb-link" href="{name}/{part}">{text or name.upper()}</a>'

    a, b = link("a"), link("b")
    assert f"{a} {b} {_unresolved('missing')} {link('a', 'Shown *x*')} " in article
    assert f"{a}<br />\n{b} line after break" in article
    assert (f"k1:: {a}\nk2:: {_unresolved('missing2')}\nk3:: {b} <em>emph {a} and</em> {b} "
            "<code>code [[a]]</code> " in article)
    assert f"<em>{a} {b}</em> and <em>{a} x</em> {b} <a href=\"http://x.org\">{a} {b}</a>" \
        in article
    assert f"{a}{b} {a} [[b]] {a}</p>" in article  # adjacent, escaped
    assert f"{a} <span>{b}</span> {a}</p>" in article

    def tag(name: str) -> str:
        return f'<a class="bb-tag" href="tags/{name}/">#{name}</a>'

    assert f"{tag('gamma')}, {tag('delta')}. {tag('eps')}: {tag('zeta')}</p>" in article
    assert (f"{tag('t2')} {{ {tag('t3')} }} {tag('t4')} {tag('t5')} &amp; {tag('t6')} "
            f'<abbr title="Hyper Text">HTML</abbr> {tag("t7")}</p>') in article
    assert f'<h2 id="head-a-b-t1-t2">Head {a} {b} {tag("t1")} {tag("t2")}</h2>' in article


@pytest.mark.parametrize("line", ["#t{i}", "[[n{i}]]", "k{i}:: [[n{i}]]\n"])
def test_a_thousand_in_a_paragraph_are_a_few_matches(
        project: Any, monkeypatch: pytest.MonkeyPatch, line: str) -> None:
    """Python-Markdown copies the paragraph once per match it is handed: a thousand
    links, tags or inline fields are handed to it in runs of ``_RUN_MAX``."""
    handed = [0]
    original = markdown_ext.RenderedPattern.handleMatch

    def counted(self: Any, m: Any, data: str) -> Any:
        handed[0] += 1
        return original(self, m, data)

    monkeypatch.setattr(markdown_ext.RenderedPattern, "handleMatch", counted)
    separator = "" if line.endswith("\n") else " "
    project.write("index.md", "# Home\n\n" + separator.join(
        line.format(i=i) for i in range(1_000)) + "\n", dedent=False)
    result = project.build()
    assert result.error is None
    assert result.article("").count("bb-tag" if line.startswith("#") else "bb-link") >= 1_000
    assert handed[0] <= 1_000 // markdown_ext._RUN_MAX + 4


SENTENCES = """\
# Home

A sentence with [[a]] and #tag and `code`. A sentence with [[b]] and #tag and `x`. [[a]]

[[a]] #t1 [[b]] #t2 `c` [[a]] \\#t3 [[b]]#t4 [[a]] #t5#t6 [[b]] #7 [[a]] . #t8. [[b]]

x [[a]] #t1 [[b]] {: #custom } [[a]]

[[a]] a #t1 b [[b]] {#id}

#t1 [[a]] #t2 `c` #t3 [[b]] #t4 ==m== #t5 [[a]]#t6 #t7

[[a]] #t1
#t2 [[b]] *x #t3* [[a]] #t4 `[[a]] #t5` [[b]] #t6/x-y [[a]] #1a [[b]] #t7: [[a]]

- [[a]] #t1 [[b]] #t2 `c` [[a]]
- #t1 [[a]] #t2

## Head [[a]] #t1 `c` [[b]] #t2
"""


def test_runs_across_tags_and_code_render_as_one_by_one(
        project: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Text between two links that holds a tag or a code span (issue 32) lets them be
    one run: the page is the one Python-Markdown makes match by match."""
    project.write("index.md", SENTENCES, dedent=False)
    project.write("a.md", "# A\n")
    project.write("b.md", "# B\n")
    monkeypatch.setattr(markdown_ext, "_LONG_TEXT", 0)  # (a long line's runs, here too)
    together = project.build().article("")
    monkeypatch.setattr(markdown_ext, "_RUN_MAX", 1)  # every match on its own
    assert project.build().article("") == together


def test_a_thousand_sentences_on_a_line_are_a_few_matches(
        project: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link, a tag and code in each sentence of one long line (issue 32's 800 KB
    line): the links are handed over in runs, and each tag in the short text between
    two links, so no match is handed the whole line (the text it copies)."""
    handed: list[int] = []
    original = markdown_ext.RenderedPattern.handleMatch

    def counted(self: Any, m: Any, data: str) -> Any:
        handed.append(len(data))
        return original(self, m, data)

    monkeypatch.setattr(markdown_ext.RenderedPattern, "handleMatch", counted)
    line = " ".join(f"A sentence with [[n{i}]] and #t{i} and `c{i}`." for i in range(1_000))
    project.write("index.md", "# Home\n\n" + line + "\n", dedent=False)
    result = project.build()
    assert result.error is None
    assert result.article("").count("bb-tag") >= 1_000
    whole = [n for n in handed if n > len(line) // 2]
    assert len(whole) <= 2 * (1_000 // markdown_ext._RUN_MAX + 4), len(whole)

"""``speedups.inline_literals``: an inline pattern skipped on a text lacking what its
expression needs converts every text as Python-Markdown does.

What is named as needed must be in every string the expression matches (hypothesis
makes matching strings of generated expressions); whole conversions with many
extensions' patterns give the same HTML with the loop swapped and without; a site
is the same.
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import markdown
import pytest
from beliefbase.speedups import inline_literals
from beliefbase.speedups.inline_literals import needs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown import treeprocessors

from tests.conftest import differing

DOTALL = re.DOTALL | re.UNICODE


@pytest.mark.parametrize(("source", "flags", "expected"), [
    (r"\[\[(?P<inner>[^\[\]\n]+)\]\]", DOTALL, (("[[",), ("]]",))),
    (r"(?<!\!)\[", DOTALL, (("[",),)),
    (r"\*|_", DOTALL, (("*", "_"),)),
    (r"(\*{3})(.+?)\1", DOTALL, (("*",),)),
    (r"[*_]{2}x", DOTALL, (("*", "_"), ("x",))),
    (r"  \n", DOTALL, (("  \n",),)),
    (r"a?b*c{0,2}", DOTALL, None),  # nothing is sure to be there
    (r"[a-z]+\d", DOTALL, None),  # ranges and categories name nothing
    (r"[^#]#", DOTALL, (("#",),)),  # a negated class names nothing, the literal does
    (r"(?:ab|c)d", DOTALL, (("ab", "c"), ("d",))),
    (r"ab|.", DOTALL, None),  # an alternative needing nothing
    (r"abc", DOTALL | re.IGNORECASE, None),  # case-insensitive: never skipped
    (r"(?i)abc", DOTALL, None),
    (r"x(?i:abc)", DOTALL, (("x",),)),
    (r"(?=\$)\$\$", DOTALL, (("$$",),)),
    (r"(?<=a)b", DOTALL, (("b",),)),
])
def test_what_an_expression_needs(source: str, flags: int, expected: Any) -> None:
    assert needs(source, flags) == expected


#: pieces of generated expressions
_ATOMS = st.sampled_from(["a", "b", r"\*", r"\[", "_", "#", "=", "~", ":", " ", r"\n",
                          ".", r"\w", r"\d", "[ab]", "[*_]", "[^a]", "[a-c]", r"\b", "^", "$",
                          r"(?=a)", r"(?!b)", r"(?<=a)", r"(?<!\*)"])


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        quantified = st.tuples(inner, st.sampled_from(["", "*", "+", "?", "{2}", "{0,2}",
                                                       "{1,3}", "+?", "*?", "*+", "++"]))
        return st.one_of(
            st.lists(inner, min_size=1, max_size=4).map("".join),
            st.tuples(inner, inner).map(lambda pair: f"(?:{pair[0]}|{pair[1]})"),
            quantified.map(lambda pair: f"(?:{pair[0]}){pair[1]}"),
            inner.map(lambda part: f"({part})"),
            inner.map(lambda part: f"(?>{part})"),
            inner.map(lambda part: f"(?i:{part})"))
    return st.recursive(_ATOMS, extend, max_leaves=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.filter_too_much])
@given(data=st.data(), source=_expressions())
def test_every_match_holds_what_is_needed(data: st.DataObject, source: str) -> None:
    try:
        compiled = re.compile(source, DOTALL)
    except re.error:
        return
    wanted = needs(source, DOTALL)
    if wanted is None:
        return
    # a string the expression matches somewhere, with text around it
    text = data.draw(st.from_regex(compiled))
    match = compiled.search(text)
    assert match is not None
    for group in wanted:
        assert any(needle in text[match.start():match.end()] for needle in group), (
            source, text, group)


#: extensions with many inline patterns (each its own expression)
EXTENSIONS = ["abbr", "attr_list", "footnotes", "md_in_html", "tables", "toc", "smarty",
              "pymdownx.betterem", "pymdownx.caret", "pymdownx.mark", "pymdownx.tilde",
              "pymdownx.keys", "pymdownx.critic", "pymdownx.inlinehilite",
              "pymdownx.magiclink", "pymdownx.smartsymbols", "pymdownx.superfences",
              "pymdownx.emoji", "pymdownx.escapeall", "pymdownx.arithmatex"]

_TOKENS = st.sampled_from([
    "word", "more words", " ", "  \n", "\n", "*", "**", "_", "__", "`code`", "``", "\\*",
    "\\", "[link](u)", "![img](i.png)", "[ref][r]", "[r]", "[^1]", "<b>", "</b>", "<!-- c -->",
    "&amp;", "&#35;", "&", "==mark==", "~~del~~", "^^ins^^", "^sup^", "~sub~", "++ctrl+a++",
    "{++add++}", "{--del--}", "{~~a~>b~~}", ":smile:", ":", "https://x.org", "<https://y.org>",
    "a@b.org", "(c)", "(tm)", "+/-", "-->", "$x$", "$$y$$", "\\(z\\)", "\"quoted\"", "'s",
    "...", "--", "HTML", "{: .cls }", "#", "[", "]", "(", ")", "~", "^", "+", "=", "{", "}",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_TOKENS, min_size=1, max_size=25).map("".join), min_size=1,
                max_size=4))
def test_conversions_are_the_same_with_the_loop_swapped(paragraphs: list[str]) -> None:
    text = ("*[HTML]: Hyper Text\n\n[r]: https://r.org\n[^1]: A note.\n\n"
            + "\n\n".join(paragraphs) + "\n\n# Head *one* `two`\n\n| a | b |\n|---|---|\n| "
            + paragraphs[0].replace("\n", " ").replace("|", "") + " | x |\n")
    md = markdown.Markdown(extensions=EXTENSIONS)
    plain = md.convert(text)
    inline_literals.install()
    try:
        md.reset()
        swapped = md.convert(text)
    finally:
        inline_literals.uninstall()
    assert swapped == plain


def test_installed_once_and_put_back() -> None:
    cls = treeprocessors.InlineProcessor
    own = (cls._InlineProcessor__handleInline, cls.run)  # type: ignore[attr-defined]
    inline_literals.install()
    inline_literals.install()
    try:
        assert cls.run is not own[1]
    finally:
        inline_literals.uninstall()
    assert (cls._InlineProcessor__handleInline, cls.run) == own  # type: ignore[attr-defined]


def test_a_run_of_its_own_leaves_the_loop_as_it_was() -> None:
    """An extension's processor replacing ``run`` without calling it: no table, Python-
    Markdown's loop."""

    own_run = treeprocessors.InlineProcessor.run

    class OwnRun(treeprocessors.InlineProcessor):
        def run(self, tree: Any, ancestors: list[str] | None = None) -> Any:
            return own_run(self, tree, ancestors)

    md = markdown.Markdown()
    expected = md.convert("a *b* [c](d) `e`")
    inline_literals.install()
    try:
        md.treeprocessors.register(OwnRun(md), "inline", 20)
        md.reset()
        assert md.convert("a *b* [c](d) `e`") == expected
    finally:
        inline_literals.uninstall()


def test_the_same_site_with_and_without_it(project: Any, tmp_path: Any) -> None:
    project.write("index.md", "# Home\n\nSee [[Alpha]], [a](alpha.md#part), ==mark== #t "
                  "and `code` *em* __strong__ ![[Alpha#Part]]\n\n[key:: value] (other:: 2)\n\n"
                  "> [!note] A *callout* with [[Alpha|a link]]\n> and $x^2$ math\n",
                  dedent=False)
    project.write("alpha.md", "# Alpha\n\n## Part\n\nBack to [[Home]] <b>bold</b> &amp; "
                  "a\\*b ![img](pic.png)\n", dedent=False)
    results = []
    for on in (True, False):
        result = project.build(plugins=["search", {"beliefbase": {
            "speedups": {"inline_literals": on}}}])
        assert result.error is None
        results.append(result)
        if on:
            shutil.copytree(result.site, tmp_path / "on")
    assert not differing(tmp_path / "on", results[1].site)

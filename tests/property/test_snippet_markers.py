"""The one snippet maker (``codecs/snippet.py``): no Markdown syntax survives.

Notes are generated from every syntax a vault holds (wikilinks, embeds, callouts
with metadata, quotes, headings, rules, lists, tables, code spans and fences,
math inline and display, footnotes, tags, block ids, comments, HTML, inline
fields); every sentence quoted around a link, every rendered block and every
excerpt must show none of its markers outside code and math.
"""

from __future__ import annotations

import re

from beliefbase.codecs import snippet
from beliefbase.codecs.inline import snippet_parts
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.snippet_markers import raw_markers

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "e.g. this", "one", "Two", "x"])
INLINE = st.sampled_from([
    "[[Target]]", "[[Target|the alias]]", "[[Target#Part]]", "[[Target#^abc]]",
    "![[pic.png]]", "![[Target]]", "![[pic.png|300]]", "[text](https://example.org)",
    "![alt|200](p.png)", "**bold**", "*em*", "_em_", "==high==", "~~struck~~",
    "`code [[x]] $y$`", "``a ` b``", "$x^2$", "$\\frac{a}{b}$", "[^1]", "^[an inline note]",
    "#tag", "#nested/tag", "%%a comment%%", "<b>html</b>", "<!-- comment -->",
    "[key:: value]", "(hidden:: value)", "&amp;", "<br>", "\\*escaped\\*",
])


@st.composite
def sentences(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(WORDS, INLINE), min_size=1, max_size=8))
    end = draw(st.sampled_from([".", "!", "?", "", ". ^blockid"]))
    return " ".join(["Start", *parts, "[[Target]]"]) + end


@st.composite
def blocks(draw: st.DrawFn) -> str:
    text = draw(sentences())
    cell = text.replace("|", "\\|")
    kind = draw(st.sampled_from([
        "para", "heading", "setext", "quote", "callout", "callout-meta", "nested", "list",
        "olist", "task", "table", "fence", "display", "display-inline", "footnote",
        "field", "html", "rule", "blockid-line", "admonition",
    ]))
    return {
        "para": text,
        "heading": f"## {text} ##",
        "setext": f"{text}\n---",
        "quote": f"> {text}\n> {text}",
        "callout": f"> [!note] {text}\n> {text}",
        "callout-meta": f"> [!warning|clean no-icon]- {text}\n> {text}",
        "nested": f"> [!tip]+\n> > [!info|wide]\n> > {text}",
        "list": f"- {text}\n  - {text}\n- {text}",
        "olist": f"1. {text}\n2) {text}",
        "task": f"- [ ] {text}\n- [x] {text}",
        "table": f"| a | b |\n|:---|---:|\n| {cell} | [[Target\\|t]] |",
        "fence": f"Code:\n```python\nprint('[[x]]')\n```\n{text}",
        "display": f"$$\n\\sum_i x_i\n$$\n{text}",
        "display-inline": f"{text} $$a = b$$ {text}",
        "footnote": f"[^1]: {text}",
        "field": f"key:: {text}",
        "html": f"<div class=\"x\">an <em>HTML</em> block</div>\n\n{text}",
        "rule": f"{text}\n\n***\n\n---",
        "blockid-line": f"{text}\n^block-1",
        "admonition": f"!!! note \"Title\"\n    {text}",
    }[kind]


def visible(marked: str) -> str:
    """The text runs of a marked snippet (code and math shown as such are not text)."""
    return " ".join(p.text for p in snippet_parts(marked) if not (p.code or p.math))


def assert_clean(marked: str, where: str) -> None:
    found = raw_markers(visible(marked))
    assert not found, (found, where, marked)


@settings(max_examples=300, deadline=None)
@given(st.lists(blocks(), min_size=1, max_size=6))
def test_no_marker_survives_into_a_snippet(parts: list[str]) -> None:
    body = "\n\n".join(parts) + "\n"
    assert_clean(snippet.render_text(body), body)
    for m in re.finditer(r"(?<!!)\[\[Target\]\]", body):
        marked = snippet.sentence(body, m.start())
        assert_clean(marked, body)
        # found by its text in the unit rendered once: the same sentence
        found = snippet.sentence(body, m.start(), end=m.end(), shown="Target")
        if len(marked) < snippet.SENTENCE_MAX - 10:
            assert found == marked, (found, marked, body)
    shown = snippet.excerpt(snippet.first_paragraph(body))
    assert not raw_markers(shown) or "`" in body or "$" in body, (shown, body)


def test_every_block_syntax_renders_as_the_page_shows_it() -> None:
    cases = {
        "> [!warning|clean no-icon]- Watch **out**\n> Text `x` and $y$. ^abc":
            "Watch out Text x and y.",
        "## A heading ##": "A heading",
        "- [ ] a task with ==mark== and ~~gone~~ #tag": "a task with mark and gone #tag",
        "| a | [[b\\|c]] |\n|---|---|\n| d | e |": "a · c d · e",
        "key:: value, [k:: v] and (h:: hidden)": "key: value, k: v and hidden",
        "Note[^1] and^[inline] <b>bold</b> &amp; %%c%% ![[e.png]]": "Note and bold & e.png",
        "[^1]: the definition": "the definition",
        "Setext\n---": "Setext",
    }
    for source, shown in cases.items():
        assert "".join(p.text for p in snippet.render(source)) == shown, source


def test_code_stays_code_and_math_stays_math() -> None:
    runs = snippet.render("Use `a [[b]]` then $x^2$ and\n$$\n\\frac12\n$$")
    assert [(p.text, p.code, p.math) for p in runs] == [
        ("Use ", False, False), ("a [[b]]", True, False), (" then ", False, False),
        ("x^2", False, True), (" and ", False, False), ("\\frac12", False, True)]


def test_a_sentence_at_a_word_just_after_a_list_marker() -> None:
    # mentions are found inside emphasis at a list item's start: the marker stays
    body = "Intro.\n\n- **Embedding** is allowed. More\n> - #Smaug:CREATURE sleeps.\n"
    assert snippet.sentence(body, body.index("Embedding")) == "Embedding is allowed."
    assert snippet.sentence(body, body.index("#Smaug")) == "Smaug sleeps."


def test_one_sentence_rule_everywhere() -> None:
    body = "First one. Then [[Target]] is named, e.g. here! Last [[Other]].\n\n- item [[X]]. Two"
    assert snippet.parts_text(snippet.sentence(body, body.index("[[Target"))) == (
        "Then Target is named, e.g. here!")
    assert snippet.parts_text(snippet.sentence(body, body.index("[[Other"))) == "Last Other."
    assert snippet.parts_text(snippet.sentence(body, body.index("[[X"))) == "item X."
    assert snippet.first_sentence(snippet.excerpt(body)) == "First one."


@settings(max_examples=200, deadline=None)
@given(st.lists(sentences(), min_size=3, max_size=10))
def test_the_window_cuts_the_sentence_the_whole_unit_does(said: list[str]) -> None:
    """A long paragraph is rendered from its source sentence ends nearest the link
    (``_window``): the sentence is the one cut from the whole paragraph rendered."""
    body = " ".join(said) + "\n"
    whole = snippet._window
    for m in re.finditer(r"(?<!!)\[\[Target\]\]", body):
        windowed = snippet.sentence(body, m.start())
        snippet._window = lambda body, a, b, start, end: (a, b)  # type: ignore[assignment]
        try:
            reference = snippet.sentence(body, m.start())
        finally:
            snippet._window = whole
        if len(reference) < snippet.SENTENCE_MAX - 10:
            assert windowed == reference, (windowed, reference, body)

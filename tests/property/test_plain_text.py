"""``plain_text`` skips the patterns whose markup is absent: same text as running them all."""

from __future__ import annotations

import html
import re

from beliefbase.codecs import inline
from beliefbase.codecs.grammar import WIKILINK_INLINE, split_wikilink
from beliefbase.codecs.inline import default_wikitext, plain_text
from hypothesis import given
from hypothesis import strategies as st


def every_pattern(text: str) -> str:
    """The oracle: every substitution in order, as ``plain_text`` did before it skipped any."""
    if not inline._MARKUP.search(text):
        return " ".join(text.split())
    stash: list[str] = []

    def keep(kept: str) -> str:
        stash.append(kept)
        return inline._STASH.format(len(stash) - 1)

    text = inline._CODE_SPAN.sub(lambda m: keep(m.group(2).strip()), text)
    text = WIKILINK_INLINE.sub(
        lambda m: "" if m.group(1) else keep(default_wikitext(*split_wikilink(m.group(2)))),
        text)
    text = inline._ESCAPE.sub(lambda m: keep(m.group(1)), text)
    text = inline._IMAGE.sub("", text)
    text = inline._FOOTNOTE_REF.sub("", text)
    text = inline._LINK.sub(r"\1", text)
    text = inline._REF_LINK.sub(r"\1", text)
    text = inline._TAG.sub("", text)
    for pattern in (inline._STRONG, inline._STRONG, inline._EM_STAR, inline._EM_UNDERSCORE):
        text = pattern.sub(lambda m: m.group(m.lastindex or 1), text)
    text = html.unescape(text)
    if stash:
        text = re.sub("\x02(\\d+)\x03", lambda m: stash[int(m.group(1))], text)
    return " ".join(text.split())


# every character some pattern starts or ends with, and a few words
PIECES = st.sampled_from(["[", "]", "(", ")", "!", "^", "`", "``", "*", "**", "_", "__",
                          "<", ">", "<b>", "</b>", "<!--", "-->", "\\", "&", "&amp;",
                          "&lt;", "|", "#", " ", "\n", "a", "bc", "x y", "[[", "]]"])
MARKDOWN = st.lists(PIECES, max_size=24).map("".join)


@given(MARKDOWN)
def test_same_text_as_every_pattern(text: str) -> None:
    assert plain_text(text) == every_pattern(text)


def test_each_kind_of_markup() -> None:
    text = ("**Bold** and _em_ with `code`, [[Note#Part|shown]], [a link](x.md), "
            "![img](i.png), [ref][r], note[^1], <b>tag</b>, \\*escaped\\*, &amp;.")
    assert plain_text(text) == every_pattern(text) == (
        "Bold and em with code, shown, a link, , ref, note, tag, *escaped*, &.")

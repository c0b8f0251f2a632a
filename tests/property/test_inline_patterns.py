"""Property tests: the wikilink and tag patterns find what their first, slower forms found.

The patterns were rewritten to start with a literal (``[[``, ``#``) so that
the regex engine skips ahead in C; the ``!`` of an embed and the mark of a
line-start tag moved from the pattern into ``handleMatch``.  The old forms
are kept here as the specification: scanning any text the way Python-Markdown
does (each search from the end of the previous match) must give the same
spans, targets and embed flags.
"""

from __future__ import annotations

import re

from beliefbase.codecs.grammar import LINE_TAG_MARK, TAG_BODY, TAG_RE, WIKILINK_RE
from beliefbase.site.markdown.markdown_ext import is_embed
from hypothesis import example, given
from hypothesis import strategies as st

OLD_WIKILINK = re.compile(r"(?<!\\)(?P<bang>!?)\[\[(?P<inner>[^\[\]\n]+)\]\]", re.DOTALL)
OLD_TAG = re.compile(r"(?:(?<=[ \t\n])|^|" + LINE_TAG_MARK + r")" + TAG_BODY, re.DOTALL)
NEW_WIKILINK = re.compile(WIKILINK_RE, re.DOTALL)
NEW_TAG = re.compile(TAG_RE, re.DOTALL)

ALPHABET = st.sampled_from(
    list("[]!\\#\n \t-/:_aZ1é") + [LINE_TAG_MARK, "[[", "]]", "![[", "\\![[", "\\[[", "#x", "A:B"]
)
text = st.lists(ALPHABET, max_size=60).map("".join)


def _scan(pattern: re.Pattern[str], data: str, span: object) -> list[tuple[object, ...]]:
    found, pos = [], 0
    while (m := pattern.search(data, pos)) is not None:
        found.append(span(m, data))  # type: ignore[operator]
        pos = m.end(0)
    return found


def _old_link(m: re.Match[str], data: str) -> tuple[object, ...]:
    return m.start(0), m.end(0), m.group("inner"), bool(m.group("bang"))


def _new_link(m: re.Match[str], data: str) -> tuple[object, ...]:
    embed = is_embed(data, m.start(0))
    return m.start(0) - embed, m.end(0), m.group("inner"), embed


def _old_tag(m: re.Match[str], data: str) -> tuple[object, ...]:
    return m.start(0), m.end(0), m.group("tag")


def _new_tag(m: re.Match[str], data: str) -> tuple[object, ...]:
    start = m.start(0)
    if start > 0 and data[start - 1] == LINE_TAG_MARK:
        start -= 1
    return start, m.end(0), m.group("tag")


@given(text)
@example("![[a]] \\![[b]] \\[[c]] [[[d]]] !![[e]]")
@example("\\\\![[a]]")
def test_wikilinks_and_embeds_as_before(data: str) -> None:
    assert _scan(NEW_WIKILINK, data, _new_link) == _scan(OLD_WIKILINK, data, _old_link)


@given(text)
@example(f"#a b#c {LINE_TAG_MARK}#d\n#e\t#1 #1a #f:G #h:IJ_2")
def test_tags_as_before(data: str) -> None:
    assert _scan(NEW_TAG, data, _new_tag) == _scan(OLD_TAG, data, _old_tag)

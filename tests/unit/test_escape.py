"""The escaping helpers of site/escape.py."""

from __future__ import annotations

import html
import json

from beliefbase.site.escape import (
    UserText,
    ascii_html,
    compact_json_for_html,
    finalize,
    json_for_html,
)
from hypothesis import given
from hypothesis import strategies as st


def test_ascii_html_keeps_text_and_stores_one_byte_per_character() -> None:
    source = '<p class="x">“Quoted” … naïve ☃ 𝄞 &amp; <b>bold</b></p>'
    out = ascii_html(source)
    assert out.isascii()
    assert html.unescape(out) == html.unescape(source)  # the reader sees the same text
    assert ascii_html("plain") == "plain"


def test_finalize_escapes_user_text_only() -> None:
    fin = finalize()
    assert fin(UserText("<script>")) == "&lt;script&gt;"
    assert fin("<b>theme markup</b>") == "<b>theme markup</b>"
    chained = finalize(lambda v: v.upper() if isinstance(v, str) else v)
    assert chained("<i>") == "<I>"


def test_json_for_html_cannot_close_a_script() -> None:
    text = json_for_html({"t": "</script><!-- \u2028"})
    assert "</" not in text and "<!--" not in text and "\u2028" not in text


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20))
def test_json_for_html_is_the_same_data_with_no_markup_characters(data: object) -> None:
    for text in (json_for_html(data), compact_json_for_html(data)):
        assert json.loads(text) == data
        assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}

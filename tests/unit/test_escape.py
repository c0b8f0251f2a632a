"""The escaping helpers of site/escape.py."""

from __future__ import annotations

import html

from beliefbase.site.escape import UserText, ascii_html, finalize, json_for_html


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

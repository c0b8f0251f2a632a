"""Backlink and mention snippets show text as the page renders it (issue 16, point 12)."""

from __future__ import annotations

import pytest
from beliefbase.codecs.inline import (
    CODE_CLOSE,
    CODE_OPEN,
    SnippetPart,
    plain_text,
    snippet_parts,
)


def titles(target: str, fragment: str, display: str | None) -> str:
    return display or {"x": "Auto Title"}.get(target, target)


def parts(text: str) -> list[tuple[str, bool]]:
    return [(p.text, p.code) for p in snippet_parts(plain_text(text, titles, snippet=True))]


def test_links_embeds_and_code() -> None:
    assert parts("See [[x]], [[y|the alias]] and ![[pic.png]] with `a < b`.") == [
        ("See Auto Title, the alias and pic.png with ", False), ("a < b", True), (".", False)]


@pytest.mark.parametrize("raw", [
    "==marked== words", "%%hidden%% words", "words ^block-id", "> [!tip]- words",
    "words^[an inline note]", "**words**", "![alt|375](p.png) words",
])
def test_no_raw_syntax(raw: str) -> None:
    text = "".join(t for t, _ in parts(raw))
    for mark in ("[[", "]]", "==", "%%", "^", "[!", "**", "|375", "$"):
        assert mark not in text, (raw, text)
    assert "words" in text


def test_math_is_math_without_dollars() -> None:
    runs = snippet_parts(plain_text("so $x^2$ holds, costs $5 and $10", titles, snippet=True))
    assert [(p.text, p.code, p.math) for p in runs] == [
        ("so ", False, False), ("x^2", False, True), (" holds, costs $5 and $10", False, False)]
    assert runs[1].mathml.startswith("<math")  # shown as MathML, as on the page


def test_code_keeps_obsidian_syntax_inside() -> None:
    assert parts("`==a== [[b]] %%c%%`") == [("==a== [[b]] %%c%%", True)]


def test_hostile_text_stays_text() -> None:
    hostile = "<script>alert(1)</script> `<img src=x onerror=alert(2)>` \x0eforged\x0f"
    got = parts(hostile)
    assert ("<img src=x onerror=alert(2)>", True) in got  # text: the template escapes it
    assert all("forged" not in t or not code for t, code in got)


def test_pieces_cut_out_of_a_snippet() -> None:
    assert snippet_parts(f"a{CODE_CLOSE} b") == [SnippetPart("a", True), SnippetPart(" b")]
    assert snippet_parts(f"a {CODE_OPEN}b") == [SnippetPart("a "), SnippetPart("b", True)]
    assert snippet_parts("") == []


def test_plain_text_without_snippet_is_unchanged() -> None:
    assert plain_text("![[pic.png]] ==a== `b`") == "==a== b"


def test_inline_fields_read_as_reading_view_shows_them() -> None:
    """``[key:: value]`` is "key: value", ``(key:: value)`` the value; code stays code."""
    assert parts("Read [mood:: *calm*] on (due:: 2022-01-02) by [owner:: [[x]]] `[k:: v]`") \
        == [("Read mood: calm on 2022-01-02 by owner: Auto Title ", False), ("[k:: v]", True)]
    assert plain_text("Plan [due:: 2022]") == "Plan [due:: 2022]"  # a heading: as written


def test_preview_excerpts_show_inline_fields_as_text() -> None:
    from beliefbase.site.previews import excerpt

    assert excerpt("A [mood:: calm] day (hidden:: 3).", titles) == "A mood: calm day 3."

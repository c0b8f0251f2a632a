"""A note may give the site at most MAX_TAGS_PER_NOTE different tags (each gets a page)."""

from __future__ import annotations

from beliefbase.codecs.markdown import MAX_TAGS_PER_NOTE, parse_markdown
from beliefbase.ids import SrcPath


def test_tags_beyond_the_limit_are_text_and_reported() -> None:
    words = " ".join(f"#t{i}" for i in range(MAX_TAGS_PER_NOTE + 50))
    parsed = parse_markdown(SrcPath("a.md"), f"#t0 {words} #T1\n".encode(), "docs/a.md")
    names = {t.name.lower() for t in parsed.tags}
    assert len(names) == MAX_TAGS_PER_NOTE
    assert "t1" in names and f"t{MAX_TAGS_PER_NOTE}" not in names
    assert [(d.code, d.line) for d in parsed.diagnostics] == [("too-many-tags", 1)]
    assert f"#t{MAX_TAGS_PER_NOTE} on" in parsed.diagnostics[0].message


def test_a_note_under_the_limit_keeps_every_tag() -> None:
    parsed = parse_markdown(SrcPath("a.md"), b"#a #b #a/c #A\n", "docs/a.md")
    assert [t.name for t in parsed.tags] == ["a", "b", "a/c", "A"]
    assert parsed.diagnostics == ()

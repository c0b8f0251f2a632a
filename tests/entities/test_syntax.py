"""The manual entity grammar (codecs/entity_syntax.py, SPEC §7)."""

from __future__ import annotations

import re

from beliefbase.codecs.entity_syntax import entity_key, find_manual, render_text, tag_text
from beliefbase.codecs.markdown import parse_markdown
from hypothesis import given
from hypothesis import strategies as st


def kinds(text: str) -> list[tuple[str, str, str | None, str | None]]:
    return [(m.kind, m.name, m.type, m.canonical) for m in find_manual(text)]


def test_the_four_forms() -> None:
    text = ("The #Smaug:CREATURE flew to #[Mount Doom]:ORG with "
            "Cory:ALIAS_OF_CORY_GILFORD:PERSON, not Boromir:REJECT_ENTITY.")
    assert kinds(text) == [
        ("tag", "Smaug", "CREATURE", None), ("tag", "Mount Doom", "ORG", None),
        ("alias", "Cory", "PERSON", "CORY_GILFORD"), ("reject", "Boromir", None, None)]
    assert render_text(text) == "The Smaug flew to Mount Doom with Cory, not Boromir."


def test_bracket_forms_of_alias_and_reject() -> None:
    text = "[Minas Tirith]:REJECT_ENTITY and [Old Toby]:ALIAS_OF_PIPEWEED:PLANT\n"
    assert kinds(text) == [("reject", "Minas Tirith", None, None),
                           ("alias", "Old Toby", "PLANT", "PIPEWEED")]
    assert render_text(text) == "Minas Tirith and Old Toby\n"


def test_unicode_hyphen_apostrophe_names() -> None:
    assert kinds("#Éowyn:PERSON #Gríma-Wormtongue:PERSON #Bilbo's:THING #東京:PLACE") == [
        ("tag", "Éowyn", "PERSON", None), ("tag", "Gríma-Wormtongue", "PERSON", None),
        ("tag", "Bilbo's", "THING", None), ("tag", "東京", "PLACE", None)]


def test_never_in_code_headings_urls_links_math_comments_or_escaped() -> None:
    text = "\n".join([
        "# #Head:PLACE", "Heading #Setext:PLACE", "=======", "",
        "`#Code:PLACE` and \\#Esc:PLACE and http://x.org/p#Frag:PLACE",
        "[a](#Link:PLACE) [#Text:PLACE](b.md) [[#Wiki:PLACE]] [[Note#Sec:PLACE]]",
        "$#Math:PLACE$ <!-- #Comment:PLACE --> <span title='#Attr:PLACE'>x</span>",
        "```", "#Fence:PLACE", "```", "a#Glued:PLACE", "#lower:type",
        "#Smaug:REJECT_ENTITY #Smaug:ALIAS_OF_X:PLACE",
    ])
    assert kinds(text) == []


def test_plain_tags_stay_tags_and_entity_tags_are_not_tags() -> None:
    parsed = parse_markdown("a.md", b"#plain and #Smaug:CREATURE and #[Mount Doom]:ORG\n", "a.md")
    assert [t.name for t in parsed.tags] == ["plain"]


def test_entity_key_and_written_form() -> None:
    assert entity_key("Mount Doom") == "MOUNT_DOOM"
    assert entity_key("CORY_GILFORD") == "CORY_GILFORD"
    assert tag_text("tag", "Mount Doom", "ORG") == "#[Mount Doom]:ORG"
    assert tag_text("tag", "Gondor", "PLACE") == "#Gondor:PLACE"
    assert tag_text("alias", "Cory", "PERSON", "CORY_GILFORD") == \
        "Cory:ALIAS_OF_CORY_GILFORD:PERSON"
    assert tag_text("reject", "St. Ives") == "[St. Ives]:REJECT_ENTITY"


_WORD = st.text(st.characters(categories=("Lu", "Ll", "Nd")), min_size=1, max_size=6)
_NAME = st.lists(_WORD, min_size=1, max_size=3).map(" ".join)
_TYPE = st.from_regex(r"[A-Z](?:[A-Z0-9]|_[A-Z0-9]){0,4}", fullmatch=True).filter(
    lambda t: not t.startswith("ALIAS_OF_") and t != "REJECT_ENTITY")
_FORM = st.one_of(
    st.tuples(st.just("tag"), _NAME, _TYPE),
    st.tuples(st.just("alias"), _NAME, _TYPE),
    st.tuples(st.just("reject"), _NAME, st.just(None)),
)
_GLUE = st.sampled_from([" ", ", ", ". ", " (", ") ", "\n", " *", "* ", " and "])


@given(st.lists(st.tuples(_FORM, _GLUE), max_size=6))
def test_syntax_round_trips(parts: list[tuple[tuple[str, str, str | None], str]]) -> None:
    """Written syntax reads back as the same mentions, and the render text is the
    text with only the wrappers removed."""
    raw, plain, expected = "x ", "x ", []
    for (kind, name, type_), glue in parts:
        canon = "CANON_1" if kind == "alias" else None
        raw += tag_text(kind, name, type_, canon) + glue  # type: ignore[arg-type]
        plain += name + glue
        expected.append((kind, name, type_, canon))
        if glue.endswith("*") or glue.endswith("("):
            raw += " "
            plain += " "
    assert kinds(raw) == expected
    assert render_text(raw) == plain
    assert not re.search(r"ALIAS_OF|REJECT_ENTITY|#\[", render_text(raw))

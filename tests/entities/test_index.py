"""The project index and the per-page pipeline (entities/index.py, detect.py)."""

from __future__ import annotations

from beliefbase.entities.detect import Names, detect
from beliefbase.entities.index import build_index, note_of


def index_of(**notes: str):  # type: ignore[no-untyped-def]
    return build_index([note_of(f"{k}.md", v) for k, v in notes.items()])


def names_in(index, path: str) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return [(s.name, s.key, s.source) for s in index.by_note.get(path, [])]


def test_auto_detection_is_project_wide_whole_word_and_case_sensitive() -> None:
    index, found = index_of(a="#Smaug:CREATURE sleeps.", b="Smaug, Smaug's, smaug, Smauger.")
    assert found == []
    assert names_in(index, "b.md") == [("Smaug", "SMAUG", "auto"), ("Smaug", "SMAUG", "auto")]


def test_longest_match_wins_and_aliases_resolve() -> None:
    index, _ = index_of(a="#Mount:PLACE #[Mount Doom]:PLACE Cory:ALIAS_OF_CORY_GILFORD:PERSON",
                        b="Mount Doom and Mount, Cory and Cory Gilford.")
    assert names_in(index, "b.md") == [
        ("Mount Doom", "MOUNT_DOOM", "auto"), ("Mount", "MOUNT", "auto"),
        ("Cory", "CORY_GILFORD", "auto"), ("Cory Gilford", "CORY_GILFORD", "auto")]
    entity = index.entities["CORY_GILFORD"]
    assert (entity.name, entity.type, entity.aliases) == ("Cory Gilford", "PERSON", ("Cory",))


def test_rejected_in_this_note_only_and_manual_beats_auto() -> None:
    index, _ = index_of(a="#Boromir:PERSON", b="Boromir:REJECT_ENTITY and Boromir again",
                        c="Boromir here")
    assert names_in(index, "b.md") == []
    assert names_in(index, "c.md") == [("Boromir", "BOROMIR", "auto")]
    assert [r.path for r in index.entities["BOROMIR"].rejections] == ["b.md"]


def test_blacklist_after_two_rejections_unless_tagged() -> None:
    index, _ = index_of(a="Will:ALIAS_OF_WILL_TURNER:PERSON", b="Will:REJECT_ENTITY",
                        c="Will:REJECT_ENTITY", d="Will he?")
    assert index.blacklist == {"will"}
    assert names_in(index, "d.md") == []
    index, _ = index_of(a="#Will:PERSON", b="Will:REJECT_ENTITY", c="Will:REJECT_ENTITY",
                        d="Will he?")
    assert index.blacklist == set()
    assert names_in(index, "d.md") == [("Will", "WILL", "auto")]


def test_type_conflict_names_both_places() -> None:
    index, found = index_of(a="x\n#Gondor:PLACE", b="#Gondor:PERSON")
    assert [(d.code, d.file, d.line) for d in found] == [("entity-type-conflict", "b.md", 1)]
    assert "a.md:2:2" in found[0].message and "PERSON" in found[0].message
    assert [(h.type, h.path) for h in index.entities["GONDOR"].history] == [
        ("PLACE", "a.md"), ("PERSON", "b.md")]


def test_nothing_detected_in_code_links_or_headings() -> None:
    names = Names([("Smaug", "SMAUG")])
    text = "# Smaug\n`Smaug` [[Smaug]] [Smaug](s.md) https://x/Smaug Smaug"
    assert [(s.start, s.name) for s in detect(text, names)] == [(len(text) - 5, "Smaug")]


def test_mentions_carry_position_and_sentence() -> None:
    index, _ = index_of(a="First line.\nThe #Smaug:CREATURE sleeps.", b="Smaug wakes.")
    m = index.entities["SMAUG"].mentions
    assert [(x.path, x.line, x.column, x.source, x.sentence) for x in m] == [
        ("a.md", 2, 6, "manual", "The Smaug sleeps."), ("b.md", 1, 1, "auto", "Smaug wakes.")]


def test_page_spans_reuse_only_the_same_text() -> None:
    body = "The #Smaug:CREATURE and Smaug.\n"
    index, _ = build_index([note_of("a.md", body)])
    found = index.page_spans("a.md", "\n" + body + "\n\n")
    assert found is not None
    spans, manual = found
    assert [(s.start, s.end, s.source) for s in spans] == [(5, 20, "manual"), (25, 30, "auto")]
    assert manual[0].start == 5
    assert index.page_spans("a.md", body.replace("and", "or")) is None
    assert index.page_spans("b.md", body) is None


def test_notes_without_mentions_keep_only_a_digest_of_their_body() -> None:
    """The index keeps the body of a note only when it has mentions (issue 20: 25 MB
    at 5,000 notes); ``page_spans`` answers as it would with the body."""
    quiet = "Nothing to see here.\n\nA second paragraph.\n"
    index, _ = index_of(a="The #Smaug:CREATURE sleeps.", b="Smaug wakes.", c=quiet)
    assert index.notes["c.md"].body == "" and index.notes["c.md"].released is not None
    assert index.notes["a.md"].body and index.notes["b.md"].body  # they have mentions
    assert index.page_spans("c.md", "\n" + quiet + "\n") == ([], [])
    assert index.page_spans("c.md", quiet) == ([], [])
    assert index.page_spans("c.md", quiet.replace("second", "third")) is None
    assert index.page_spans("x.md", quiet) is None
    found = index.page_spans("b.md", "\nSmaug wakes.\n")
    assert found is not None and [s.name for s in found[0]] == ["Smaug"]
    assert [m.sentence for m in index.entities["SMAUG"].mentions] == [
        "The Smaug sleeps.", "Smaug wakes."]

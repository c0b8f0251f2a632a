"""The ``entity`` commands' edits (SPEC §7, §10) and the seed's checklist."""

from __future__ import annotations

from pathlib import Path

import pytest
from beliefbase.entities.cli import register
from beliefbase.entities.edit import mention_edit
from beliefbase.writeback import EditError, edit_file
from click import Group
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st


def run(text: str, action: str, name: str, **kw: object) -> str:
    return mention_edit(action, name, **kw)(text)  # type: ignore[arg-type]


def test_retype_gives_one_tag_never_a_doubled_one() -> None:
    assert run("in #Gondor:PLACE now", "change-type", "Gondor", type_="PERSON") == \
        "in #Gondor:PERSON now"


def test_toggling_the_type_back_returns_the_original() -> None:
    text = "go to #Gondor:PLACE, then home"
    there = run(text, "change-type", "Gondor", type_="PERSON")
    assert run(there, "change-type", "Gondor", type_="PLACE") == text


def test_plain_text_becomes_a_tag_and_spaces_take_brackets() -> None:
    assert run("Mount Doom smokes", "change-type", "Mount Doom", type_="ORG") == \
        "#[Mount Doom]:ORG smokes"
    assert run("Smaug sleeps", "create", "Smaug", type_="CREATURE") == "#Smaug:CREATURE sleeps"


def test_several_tags_in_one_sentence_change_only_the_chosen_one() -> None:
    text = "#Gondor:PLACE, Rohan and #Gondor:PLACE met Rohan."
    assert run(text, "change-type", "Gondor", type_="PERSON", nth=2) == \
        "#Gondor:PLACE, Rohan and #Gondor:PERSON met Rohan."
    assert run(text, "create", "Rohan", type_="PLACE", nth=1) == \
        "#Gondor:PLACE, #Rohan:PLACE and #Gondor:PLACE met Rohan."
    with pytest.raises(EditError, match="--nth"):
        run(text, "reject", "Rohan")


def test_alias_and_reject() -> None:
    assert run("Cory came", "alias", "Cory", canonical="Cory Gilford", type_="PERSON") == \
        "Cory:ALIAS_OF_CORY_GILFORD:PERSON came"
    assert run("Boromir fell", "reject", "Boromir") == "Boromir:REJECT_ENTITY fell"
    assert run("Cory:ALIAS_OF_CG:PERSON", "change-type", "Cory", type_="ORG") == \
        "Cory:ALIAS_OF_CG:ORG"


def test_never_in_code_links_headings_or_frontmatter() -> None:
    text = "---\ntitle: Smaug\n---\n# Smaug\n`Smaug` [[Smaug]] [Smaug](s.md) Smaug\n"
    assert run(text, "create", "Smaug", type_="CREATURE") == \
        "---\ntitle: Smaug\n---\n# Smaug\n`Smaug` [[Smaug]] [Smaug](s.md) #Smaug:CREATURE\n"


def test_refuses_bad_types_and_unreadable_results() -> None:
    with pytest.raises(EditError, match="capitals"):
        mention_edit("create", "Smaug", type_="creature")
    with pytest.raises(EditError, match="read back"):
        run("x-Smaug", "create", "Smaug", type_="CREATURE")


@pytest.mark.parametrize("data", [
    b"\xef\xbb\xbfA\r\nGondor rules\r\nend\r\n",
    b"Gondor rules\nno newline at end",
    b"\xef\xbb\xbf---\r\nx: 1\r\n---\r\n\r\nsee Gondor",
])
def test_bom_crlf_and_missing_newline_are_kept(tmp_path: Path, data: bytes) -> None:
    note = tmp_path / "a.md"
    note.write_bytes(data)
    result = edit_file(note, mention_edit("change-type", "Gondor", type_="PLACE"),
                       root=tmp_path)
    assert result.written
    assert note.read_bytes() == data.replace(b"Gondor", b"#Gondor:PLACE")
    again = edit_file(note, mention_edit("change-type", "Gondor", type_="PLACE"),
                      root=tmp_path)
    assert not again.changed  # idempotent


def _cli(tmp_path: Path) -> tuple[CliRunner, Group]:
    group = Group("beliefbase")
    register(group, lambda _f: tmp_path / "docs")
    return CliRunner(), group


def test_cli_check_diff_and_symlink_escape(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Gondor\n")
    (tmp_path / "outside.md").write_text("Gondor\n")
    (docs / "link.md").symlink_to(tmp_path / "outside.md")
    runner, group = _cli(tmp_path)
    r = runner.invoke(group, ["entity", "change-type", "a.md", "Gondor", "PLACE", "--check"])
    assert r.exit_code == 1 and (docs / "a.md").read_text() == "Gondor\n"
    r = runner.invoke(group, ["entity", "change-type", "a.md", "Gondor", "PLACE", "--diff"])
    assert "+#Gondor:PLACE" in r.output and (docs / "a.md").read_text() == "Gondor\n"
    r = runner.invoke(group, ["entity", "change-type", "a.md", "Gondor", "PLACE"])
    assert r.exit_code == 0 and (docs / "a.md").read_text() == "#Gondor:PLACE\n"
    r = runner.invoke(group, ["entity", "change-type", "a.md", "Gondor", "PLACE", "--check"])
    assert r.exit_code == 0
    r = runner.invoke(group, ["entity", "reject", "link.md", "Gondor"])
    assert r.exit_code == 1 and "outside" in r.output
    assert (tmp_path / "outside.md").read_text() == "Gondor\n"


_TYPES = st.sampled_from(["PLACE", "PERSON", "ORG", "X_1"])
_NAMES = st.sampled_from(["Gondor", "Mount Doom", "Éowyn", "Bilbo's"])
_FILLER = st.sampled_from(["", "a ", "b, ", "\r\n", "\n", "(", " *"])


@given(st.lists(st.tuples(_FILLER, _NAMES), min_size=1, max_size=5), _NAMES, _TYPES, _TYPES,
       st.integers(1, 5), st.sampled_from(["\n", "\r\n", ""]))
def test_write_back_round_trips(parts: list[tuple[str, str]], name: str, first: str,
                                second: str, nth: int, end: str) -> None:
    """Typing a mention twice changes only its bytes, is idempotent, and typing it
    back returns the first result."""
    text = "".join(f + n + " " for f, n in parts) + end
    count = sum(1 for _f, n in parts if n == name)
    if count < nth:
        return
    try:
        one = run(text, "change-type", name, type_=first, nth=nth)
    except EditError:
        return  # glued to the previous word; refused, never mangled
    assert one.replace(f"#{name}:{first}" if " " not in name else
                       f"#[{name}]:{first}", name, 1) != one
    assert run(one, "change-type", name, type_=first, nth=nth) == one
    two = run(one, "change-type", name, type_=second, nth=nth)
    assert run(two, "change-type", name, type_=first, nth=nth) == one
    assert len(two) - len(one) == len(second) - len(first)
    assert one.count("\r\n") == text.count("\r\n")


def test_beliefbase_entity_command(project) -> None:  # type: ignore[no-untyped-def]
    """Through the ``beliefbase`` group: FILE relative to docs_dir works too."""
    from beliefbase.cli import main

    project.write("notes/a.md", "# A\n\nGondor and Mount Doom.\n")
    config = str(project.write_config())
    runner = CliRunner()
    r = runner.invoke(main, ["entity", "change-type", "-f", config, "notes/a.md", "Gondor",
                             "PLACE"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["entity", "alias", "-f", config, "notes/a.md", "Mount Doom",
                             "Orodruin", "PLACE"])
    assert r.exit_code == 0, r.output
    assert (project.docs / "notes/a.md").read_text() == \
        "# A\n\n#Gondor:PLACE and [Mount Doom]:ALIAS_OF_ORODRUIN:PLACE.\n"

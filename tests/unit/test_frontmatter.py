"""Frontmatter splitting and parsing: YAML, TOML, TOML-in-dashes, errors."""

from __future__ import annotations

import datetime as dt

import pytest
from beliefbase.codecs import frontmatter as fm


def test_yaml() -> None:
    text = "---\ntitle: Hello\ntags: [a, b]\n---\n# Body\n"
    front = fm.split(text)
    assert front.format == "yaml"
    assert front.data == {"title": "Hello", "tags": ["a", "b"]}
    assert text[front.body_offset:] == "# Body\n"
    assert front.body_line == 5
    assert front.error is None


def test_yaml_closed_by_dots() -> None:
    front = fm.split("---\na: 1\n...\nbody\n")
    assert front.data == {"a": 1} and front.body_line == 4


def test_toml_plus() -> None:
    front = fm.split('+++\ntitle = "T"\n[extra]\nx = 1\n+++\nbody')
    assert front.format == "toml"
    assert front.data == {"title": "T", "extra": {"x": 1}}


def test_toml_in_dashes() -> None:
    front = fm.split('---\ntitle = "Seed doc"\nversion = "0.2"\n---\nbody\n')
    assert front.format == "toml-dashes"
    assert front.data == {"title": "Seed doc", "version": "0.2"}


def test_empty_block() -> None:
    front = fm.split("---\n---\nbody")
    assert front.format == "yaml" and front.data == {} and front.error is None


def test_no_frontmatter() -> None:
    assert fm.split("# Just a note\n").format is None
    assert fm.split("---\nnot closed\n").format is None  # a thematic break, not frontmatter
    assert fm.split(" ---\na: 1\n---\n").format is None


def test_mismatched_fences_are_not_frontmatter() -> None:
    assert fm.split("+++\na = 1\n---\nbody").format is None


def test_bad_yaml_reports_file_line_and_column() -> None:
    front = fm.split("---\ntitle: ok\ntags: [a, b\nother: 1\n---\nbody\n")
    assert front.error is not None
    assert (front.error.line, front.error.column) == (3, 7)  # where the `[` opened
    assert front.error.message.startswith("YAML: ")
    assert front.data == {} and front.body_offset == 0  # nothing dropped
    assert front.block_end > 0


def test_bad_toml_reports_line() -> None:
    front = fm.split('+++\ntitle = "ok"\nbroken = \n+++\n')
    assert front.error is not None and front.error.line == 3
    assert front.error.message.startswith("TOML: ")


def test_yaml_scalar_is_not_a_mapping() -> None:
    front = fm.split("---\njust a sentence: with: colons: [\n---\n")
    assert front.error is not None


def test_non_string_keys_become_strings() -> None:
    assert fm.split("---\n1: one\nnull: x\n---\n").data == {"1": "one", "None": "x"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (dt.date(2026, 1, 2), "2026-01-02"),
        (float("nan"), None),
        ({1: [dt.datetime(2026, 1, 2, 3, 4)]}, {"1": ["2026-01-02T03:04:00"]}),
        ({"a"}, ["a"]),
    ],
)
def test_jsonable(value: object, expected: object) -> None:
    assert fm.jsonable(value) == expected


def test_key_lines() -> None:
    raw = "title: x\naliases:\n  - a\ndepends_on: '[[A]]'\n"
    assert fm.key_lines(raw, first_line=2) == {"title": 2, "aliases": 3, "depends_on": 5}


def test_billion_laughs_does_not_hang() -> None:
    lol = "---\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9)
    ) + "---\n"
    front = fm.split(lol)
    assert front.format == "yaml"
    assert fm.jsonable(front.data) is not None  # depth-limited, returns


@pytest.mark.parametrize("text", [
    "---\ntitle: x\n\n# Body\n",  # YAML never closed
    "---\ntitle: x\ntags: [a]\n",
    "---\nfoo: 1\nbar: 2\n\nText.\n",  # two keys, none known
    "+++\ntitle = \"x\"\n\n# Body\n",  # TOML never closed
    "+++\n[extra]\nk = 1\n",
])
def test_an_unclosed_fence_before_fields_is_reported_and_nothing_is_split(text: str) -> None:
    front = fm.split(text)
    assert front.unclosed is not None and (front.unclosed.line, front.unclosed.column) == (1, 1)
    assert "never closed" in front.unclosed.message
    assert front.error is None and front.data == {} and front.body_offset == 0  # all text


@pytest.mark.parametrize("text", [
    "---\n\nA rule above a paragraph.\n",  # Obsidian: a horizontal rule
    "---\nSome prose right under the rule.\n",
    "---\nNote: remember this.\n",  # prose with a colon, not a field Obsidian knows
    "---\n",
    "---",
    "---\n- a list\n",
    "+++\n\nplus signs\n",
    "+++ not a fence\ntitle = 1\n",
    "---\ntitle: x\n---\n# Closed\n",
    "Text\n---\ntitle: x\n",  # not on the first line
])
def test_a_rule_or_closed_block_is_not_unclosed_frontmatter(text: str) -> None:
    assert fm.split(text).unclosed is None


def test_an_unclosed_fence_is_a_bad_frontmatter_at_line_1() -> None:
    from beliefbase.codecs.markdown import parse_markdown

    parsed = parse_markdown("u.md", b"---\ntitle: x\n\n# U\n", "docs/u.md")  # type: ignore[arg-type]
    found = [d for d in parsed.diagnostics if d.code == "bad-frontmatter"]
    assert [(d.file, d.line, d.column) for d in found] == [("docs/u.md", 1, 1)]
    assert parsed.meta == {} and parsed.body_offset == 0 and not parsed.bad_frontmatter

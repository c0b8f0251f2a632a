"""Bad input never raises and never loses the good beliefs next to it (SPEC 12)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from beliefbase.beliefs.emit import beliefs_document, dumps
from beliefbase.beliefs.facts import ProjectContext
from beliefbase.beliefs.jsontext import MAX_DEPTH, JsonProblem, loads_strict
from beliefbase.beliefs.verify import verify_context

MakeProject = Callable[[dict[str, str | bytes]], ProjectContext]
QUOTE = "The sky is blue."
PAGE = "# Sky\n\n## Colour\n\nThe sky is blue.[^1]\n\n[^1]: Observation.\n"


def belief(belief_id: str = "b-sky", **extra: Any) -> dict[str, Any]:
    return {"belief_id": belief_id, "statement": "The sky is blue.", "topic": "sky",
            "wiki_section_anchor": "#colour", "footnote_ids": ["1"],
            "provenance_ids": ["p-sky"], "asserted_at": "2026-01-01", **extra}


def provenance(**extra: Any) -> dict[str, Any]:
    return {"id": "p-sky", "raw_path": "sky.md", "quote": QUOTE,
            "quote_hash": hashlib.sha256(QUOTE.encode()).hexdigest(), **extra}


def sidecar(*beliefs: dict[str, Any], prov: list[dict[str, Any]] | None = None) -> str:
    return json.dumps({"beliefs": list(beliefs or (belief(),)),
                       "provenance": [provenance()] if prov is None else prov}, indent=2)


def good_files() -> dict[str, str | bytes]:
    return {"docs/sky.md": PAGE, "docs/sky.beliefs.json": sidecar(), "raw/sky.md": QUOTE + "\n",
            "docs/other.md": PAGE}


def messages(project: ProjectContext) -> list[str]:
    return [str(d) for d in verify_context(project).diagnostics]


@pytest.mark.parametrize(("content", "expected"), [
    ('{"beliefs": [}', "1:14: bad-sidecar: invalid JSON: Expecting value"),
    ("", "1:1: bad-sidecar: invalid JSON: Expecting value"),
    ('{"beliefs": []}\n{}', "2:1: bad-sidecar: invalid JSON: Extra data"),
    ('{"beliefs": [], "provenance": [{"id": "p", "page_hint": NaN}]}',
     "1:57: bad-sidecar: NaN is not valid JSON; write a number or null at "
     "$.provenance[0].page_hint"),
    ('{"beliefs": [{"page_hint": -Infinity}]}',
     "1:28: bad-sidecar: -Infinity is not valid JSON; write a number or null at "
     "$.beliefs[0].page_hint"),
    ('{"beliefs": [\n  {"topic": "a",\n   "topic": "b"}]}',
     '3:4: bad-sidecar: duplicate key "topic" at $.beliefs[0]'),
    ('{"beliefs": [], "x-big": 1e999}', '1:26: bad-sidecar: number 1e999 is too large at $.x-big'),
    (b'{"beliefs": ["caf\xe9"]}',
     "1:18: bad-sidecar: invalid UTF-8 (byte 0xe9); save the file as UTF-8"),
])
def test_unparseable_sidecar_is_one_diagnostic_and_skipped(
    make_project: MakeProject, content: str | bytes, expected: str
) -> None:
    project = make_project({**good_files(), "docs/other.beliefs.json": content})
    found = messages(project)
    skipped = "; the sidecar is skipped until it is fixed"
    assert found == [f"docs/other.beliefs.json:{expected}{skipped}"]
    assert list(verify_context(project).beliefs) == ["b-sky"]  # nothing else lost


def test_json_nested_100000_deep_is_a_diagnostic_not_a_recursion_error(
    make_project: MakeProject
) -> None:
    deep = '{"beliefs": ' + "[" * 100_000 + "]" * 100_000 + "}"
    project = make_project({**good_files(), "docs/other.beliefs.json": deep})
    assert messages(project) == [
        f"docs/other.beliefs.json:1:{13 + MAX_DEPTH - 1}: bad-sidecar: JSON nested deeper than "
        f"{MAX_DEPTH} levels; the sidecar is skipped until it is fixed"
    ]


def test_deep_nesting_inside_strings_is_not_nesting() -> None:
    text = json.dumps({"beliefs": [], "x-s": "[" * 1000})
    assert loads_strict(text)["x-s"] == "[" * 1000


def test_nesting_just_under_the_limit_parses() -> None:
    depth = MAX_DEPTH - 1
    assert loads_strict("[" * depth + "]" * depth) is not None
    with pytest.raises(JsonProblem):
        loads_strict("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_bom_is_accepted(make_project: MakeProject) -> None:
    files = good_files()
    files["docs/sky.beliefs.json"] = b"\xef\xbb\xbf" + sidecar().encode()
    assert messages(make_project(files)) == []


def test_sidecar_for_a_missing_page(make_project: MakeProject) -> None:
    project = make_project({**good_files(), "docs/skye.beliefs.json": sidecar(belief("b-2"))})
    assert messages(project) == [
        "docs/skye.beliefs.json:1:1: bad-sidecar: no page skye.md for this sidecar (did you mean "
        "'sky.md'?); its 1 belief(s) are skipped (create the page, or rename or delete the "
        "sidecar)"
    ]


def test_unreadable_sidecar(make_project: MakeProject) -> None:
    project = make_project(good_files())
    folder = project.docs_dir / "other.beliefs.json"
    folder.mkdir()
    project = dataclasses.replace(project, sidecars=(project.docs_dir / "sky.beliefs.json", folder))
    assert messages(project) == [
        "docs/other.beliefs.json:1:1: bad-sidecar: cannot read the sidecar (Is a directory); "
        "skipped"
    ]


def test_missing_raw_file(make_project: MakeProject) -> None:
    files = good_files()
    files["docs/sky.beliefs.json"] = sidecar(belief(), prov=[provenance(raw_path="gone.md")])
    found = messages(make_project(files))
    assert found == [
        "docs/sky.beliefs.json:20:7: quote-drift: provenance 'p-sky': raw file raw/gone.md not "
        "found; verified_against_source is false"
    ]


@pytest.mark.parametrize("raw", [
    b"Notes\r\nThe sky\r\n   is blue.\r\n",
    "Caf\xe9 notes: The sky is blue.\n".encode("latin-1"),
    "\u201cSmart\u201d \u2014 The sky is blue.\r\n".encode("cp1252"),
    b"\xef\xbb\xbfThe sky is blue.",
])
def test_raw_files_in_other_encodings_and_line_endings_verify(
    make_project: MakeProject, raw: bytes
) -> None:
    project = make_project({**good_files(), "raw/sky.md": raw})
    result = verify_context(project)
    assert result.diagnostics == ()
    assert result.beliefs["b-sky"].verified_against_source


HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "{{ config }}",
           "{% include 'x' %}", "\u202eevil", "a\u0000b"]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_strings_are_kept_verbatim_and_escaped_in_json(
    make_project: MakeProject, text: str
) -> None:
    files = good_files()
    files["docs/sky.beliefs.json"] = sidecar(belief(statement=text, topic=text, subject=text))
    result = verify_context(make_project(files))
    assert result.diagnostics == ()
    assert result.beliefs["b-sky"].belief.statement == text
    out = dumps(beliefs_document(result))
    assert "<" not in out and ">" not in out
    assert json.loads(out)["beliefs"][0]["statement"] == text

"""The sidecar JSON Schema, its fast-path mirror, and the wording of schema errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from beliefbase.beliefs import dates, quick
from beliefbase.beliefs.load import _validators, get_schema, load_sidecar
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import FIXTURES

GOOD_BELIEF: dict[str, Any] = {
    "belief_id": "b-1",
    "statement": "Acme's endpoint is /v2.",
    "topic": "auth",
    "footnote_ids": ["1"],
    "provenance_ids": ["p-1"],
    "asserted_at": "2026-04-15",
}
GOOD_PROVENANCE: dict[str, Any] = {
    "id": "p-1", "raw_path": "a.md", "quote": "q", "quote_hash": "a" * 64,
}


def test_schema_is_valid_draft_2020_12() -> None:
    schema = get_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_schema_date_pattern_is_the_one_dates_uses() -> None:
    assert get_schema()["$defs"]["isoDateOrDateTime"]["pattern"] == dates.ISO_PATTERN


@pytest.mark.parametrize("name", ["topics/auth", "topics/billing", "drafts/secret"])
def test_fixture_sidecars_are_valid(name: str) -> None:
    path = FIXTURES / "acme" / "docs" / f"{name}.beliefs.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(get_schema(),
                                                format_checker=jsonschema.FormatChecker())
    assert list(validator.iter_errors(data)) == []


def _sidecar(tmp_path: Path, beliefs: list[Any], provenance: list[Any] | None = None,
             **top: Any) -> Path:
    path = tmp_path / "x.beliefs.json"
    body = {"beliefs": beliefs, **top}
    if provenance is not None:
        body["provenance"] = provenance
    path.write_text(json.dumps(body, indent=2), encoding="utf-8")
    return path


def _messages(path: Path) -> list[str]:
    sidecar, found = load_sidecar(path, "x.beliefs.json", "docs/x.beliefs.json")
    return [str(d) for d in found]


BAD_BELIEFS = [
    ({"statement": None}, "$.beliefs[0].statement: null is not of type string"),
    ({"statement": "x" * 281}, "$.beliefs[0].statement: 281 characters, at most 280"),
    ({"asserted_at": "2026/04/15"}, "$.beliefs[0].asserted_at: \"2026/04/15\" is not an ISO date"),
    ({"asserted_at": "2026-02-30"}, "$.beliefs[0].asserted_at: \"2026-02-30\" is not an ISO date"),
    ({"superseded_at": "yesterday"}, "$.beliefs[0].superseded_at: \"yesterday\" is not an ISO"),
    ({"supersession_reason": "elaborated"},
     "$.beliefs[0]: supersession_reason requires superseded_at"),
    ({"supersession_reason": "because", "superseded_at": "2026-05-01"},
     "$.beliefs[0].supersession_reason: \"because\" is not one of \"contradicted_by_new_source\""),
    ({"confidence_hint": "sure"}, "$.beliefs[0].confidence_hint: \"sure\" is not one of"),
    ({"asserted_on": "2026-01-01"},
     "$.beliefs[0].asserted_on: unknown field 'asserted_on' (did you mean 'asserted_at' or "
     "'asserted_in_run'?) (prefix extensions with 'x-')"),
    ({"belief_id": "has space"}, "$.beliefs[0].belief_id: \"has space\" is not a valid id"),
    ({"footnote_ids": "1"}, "$.beliefs[0].footnote_ids: \"1\" is not of type array"),
]


@pytest.mark.parametrize(("change", "expected"), BAD_BELIEFS)
def test_bad_belief_is_a_located_diagnostic_and_only_it_is_skipped(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    bad = {**GOOD_BELIEF, **change, "belief_id": change.get("belief_id", "b-bad")}
    path = _sidecar(tmp_path, [bad, {**GOOD_BELIEF, "belief_id": "b-good"}])
    sidecar, found = load_sidecar(path, "x.beliefs.json", "docs/x.beliefs.json")
    assert sidecar is not None and [b.belief_id for b in sidecar.beliefs] == ["b-good"]
    assert len(found) == 1
    message = str(found[0])
    assert message.startswith("docs/x.beliefs.json:"), message
    assert expected in message, message
    assert message.endswith("; this entry is skipped")
    assert found[0].code == "bad-sidecar"


def test_missing_required_field_points_at_the_belief(tmp_path: Path) -> None:
    belief = {k: v for k, v in GOOD_BELIEF.items() if k != "topic"}
    path = _sidecar(tmp_path, [belief])
    assert _messages(path) == [
        "docs/x.beliefs.json:3:5: bad-sidecar: $.beliefs[0]: 'topic' is required; "
        "this entry is skipped"
    ]


def test_error_line_is_the_field_line(tmp_path: Path) -> None:
    beliefs = [dict(GOOD_BELIEF, belief_id=f"b-{i}") for i in range(4)]
    beliefs[3]["asserted_at"] = "not a date"
    path = _sidecar(tmp_path, beliefs)
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "not a date" in text)
    [message] = _messages(path)
    assert message.startswith(f"docs/x.beliefs.json:{line}:7: bad-sidecar: "
                              "$.beliefs[3].asserted_at: ")


def test_bad_provenance_hash(tmp_path: Path) -> None:
    path = _sidecar(tmp_path, [GOOD_BELIEF], [dict(GOOD_PROVENANCE, quote_hash="abc")])
    [message] = _messages(path)
    assert "$.provenance[0].quote_hash: \"abc\" is not 64 hex digits" in message


def test_top_level_problems_skip_the_whole_sidecar(tmp_path: Path) -> None:
    path = tmp_path / "x.beliefs.json"
    path.write_text('[{"belief_id": "b"}]', encoding="utf-8")
    sidecar, found = load_sidecar(path, "x.beliefs.json", "docs/x.beliefs.json")
    assert sidecar is None
    assert [str(d) for d in found] == [
        "docs/x.beliefs.json:1:1: bad-sidecar: $: [{\"belief_id\": \"b\"}] is not of type "
        "object; the sidecar is skipped"
    ]


def test_extension_fields_are_allowed(tmp_path: Path) -> None:
    path = _sidecar(tmp_path, [dict(GOOD_BELIEF, **{"x-note": 1})], [], **{"x-tool": "me"})
    assert _messages(path) == []


def test_many_errors_are_summarised(tmp_path: Path) -> None:
    path = _sidecar(tmp_path, [{"belief_id": f"b{i}"} for i in range(30)])
    found = _messages(path)
    assert len(found) == 21
    assert found[-1].endswith("more schema errors in this file not shown")


# -- the fast path agrees with jsonschema --------------------------------------------

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, width=16),
    st.sampled_from(["", "x", "b 1", "2026-04-15", "2026-02-30", "2026-04-15T10:00:00Z",
                     "2026-04-15T10:00", "elaborated", "contested", "a" * 64, "A" * 64,
                     "x" * 281, "x" * 280, "#h"]),
)
_values = st.one_of(_scalars, st.lists(_scalars, max_size=3))


def _entries(template: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    keys = [*template, *quick._BELIEF, *quick._PROVENANCE, "x-ext", "other"]
    changes = st.dictionaries(st.sampled_from(keys), _values, max_size=4)
    drops = st.sets(st.sampled_from(list(template)), max_size=2)
    return st.builds(
        lambda c, d: {k: v for k, v in {**template, **c}.items() if k not in d}, changes, drops
    )


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_entries(GOOD_BELIEF))
def test_quick_belief_check_agrees_with_schema(entry: dict[str, Any]) -> None:
    assert quick.belief_ok(entry) == _validators()["beliefs"].is_valid(entry)


@settings(max_examples=300)
@given(_entries(GOOD_PROVENANCE))
def test_quick_provenance_check_agrees_with_schema(entry: dict[str, Any]) -> None:
    assert quick.provenance_ok(entry) == _validators()["provenance"].is_valid(entry)

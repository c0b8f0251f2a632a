"""Surgical sidecar edits: ``set_members`` keeps every byte and style it does not change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from beliefbase.beliefs.edit import set_members, supersede_transform
from beliefbase.writeback import EditError
from hypothesis import given, settings
from hypothesis import strategies as st

DOC = '{\n  "beliefs": [\n    {\n      "belief_id": "b-1",\n      "topic": "a"\n    }\n  ]\n}\n'


def test_insert_copies_indentation_and_colon_style() -> None:
    out = set_members(DOC, ("beliefs", 0), {"superseded_at": "2026-01-02"})
    assert out == ('{\n  "beliefs": [\n    {\n      "belief_id": "b-1",\n      "topic": "a",\n'
                   '      "superseded_at": "2026-01-02"\n    }\n  ]\n}\n')


def test_replace_keeps_the_rest() -> None:
    out = set_members(DOC, ("beliefs", 0), {"topic": "b"})
    assert out == DOC.replace('"a"', '"b"')


@pytest.mark.parametrize(("doc", "expected"), [
    ('{"beliefs":[{"belief_id":"b-1"}]}', '{"beliefs":[{"belief_id":"b-1","k":1}]}'),
    ('{"beliefs": [{"belief_id": "b-1"}]}', '{"beliefs": [{"belief_id": "b-1", "k": 1}]}'),
    ('{"beliefs":[{\r\n\t"belief_id" : "b-1"\r\n}]}',
     '{"beliefs":[{\r\n\t"belief_id" : "b-1",\r\n\t"k" : 1\r\n}]}'),
    ('{"beliefs": [{ }]}', '{"beliefs": [{"k": 1}]}'),
])
def test_styles(doc: str, expected: str) -> None:
    assert set_members(doc, ("beliefs", 0), {"k": 1}) == expected


def test_missing_object() -> None:
    with pytest.raises(EditError, match=r"no JSON object at \$.beliefs\[3\]"):
        set_members(DOC, ("beliefs", 3), {"k": 1})


VALUES = {"superseded_at": "2026-05-01", "superseded_by_belief_id": "b-2",
          "supersession_reason": "elaborated"}


def test_supersede_transform_is_idempotent_and_semantic() -> None:
    transform = supersede_transform("b-1", VALUES)
    once = transform(DOC)
    assert json.loads(once)["beliefs"][0] == {"belief_id": "b-1", "topic": "a", **VALUES}
    assert transform(once) == once
    # the same instant written another way counts as already set
    other = once.replace('"2026-05-01"', '"2026-05-01"')
    assert transform(other) == other


def test_supersede_transform_refuses_another_successor_and_lost_beliefs() -> None:
    taken = set_members(DOC, ("beliefs", 0), {"superseded_by_belief_id": "b-9"})
    with pytest.raises(EditError, match="already superseded by b-9"):
        supersede_transform("b-1", VALUES)(taken)
    with pytest.raises(EditError, match="no longer in the sidecar"):
        supersede_transform("b-7", VALUES)(DOC)
    with pytest.raises(EditError, match="not valid JSON"):
        supersede_transform("b-1", VALUES)("{")


# -- property: any formatting, any content ---------------------------------------------

_keys = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8)
_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10))
_json = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)), max_leaves=8)
_objects = st.dictionaries(_keys, _json, max_size=5)


@settings(max_examples=150, deadline=None)
@given(objects=st.lists(_objects, min_size=1, max_size=3), data=st.data(),
       indent=st.sampled_from([None, 0, 1, 2, 4, "\t"]),
       separators=st.sampled_from([(",", ":"), (", ", ": "), (",", " : ")]),
       crlf=st.booleans(), ascii_only=st.booleans())
def test_set_members_changes_exactly_the_members(
    objects: list[dict[str, Any]], data: st.DataObject, indent: int | str | None,
    separators: tuple[str, str], crlf: bool, ascii_only: bool,
) -> None:
    document = {"x-before": [1, 2], "beliefs": objects, "x-after": {"k": "v"}}
    text = json.dumps(document, indent=indent, separators=separators, ensure_ascii=ascii_only)
    if crlf:
        text = text.replace("\n", "\r\n")
    index = data.draw(st.integers(0, len(objects) - 1))
    values = data.draw(st.dictionaries(_keys, _json, min_size=1, max_size=3))
    out = set_members(text, ("beliefs", index), values)
    expected = json.loads(text)
    expected["beliefs"][index].update(values)
    assert json.loads(out) == expected
    # everything outside the edited object is byte-identical
    start = text.index('"beliefs"')
    tail = text[text.index('"x-after"') - 2:]
    assert out.startswith(text[:start]) and out.endswith(tail)
    if crlf and indent is not None:
        assert "\n" not in out.replace("\r\n", "")  # no bare LF was introduced
    assert set_members(out, ("beliefs", index), values) == out  # idempotent

"""The sidecar schema's belief and provenance rules as plain Python: the fast path.

``load.py`` asks these first and runs ``jsonschema`` only on entries they
refuse (to word the errors).  They must accept exactly what ``schema.json``
accepts: ``tests/beliefs/test_schema.py`` checks both against generated
entries with hypothesis.  Change the two together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from . import dates

_ID_RE = re.compile(r"^\S+$")
_HASH_RE = re.compile(r"^[0-9a-fA-F]{64}$")
_REASONS = frozenset({"contradicted_by_new_source", "elaborated", "manual_correction",
                      "source_drifted"})
_HINTS = frozenset({"single_source", "multi_source", "authoritative", "contested"})

Check = Callable[[Any], bool]


def _is_id(value: Any) -> bool:
    return type(value) is str and 0 < len(value) <= 200 and _ID_RE.search(value) is not None


def _is_text(value: Any) -> bool:
    return type(value) is str and len(value) > 0


def _is_optional_text(value: Any) -> bool:
    return value is None or type(value) is str


def _is_date(value: Any) -> bool:
    return type(value) is str and dates.is_iso(value)


def _is_optional_date(value: Any) -> bool:
    return value is None or _is_date(value)


def _is_ids(value: Any) -> bool:
    return type(value) is list and all(_is_id(v) for v in value)


def _is_integer(value: Any) -> bool:
    # JSON Schema counts 3.0 as an integer, and never a boolean.
    return type(value) is int or (type(value) is float and value.is_integer())


_BELIEF: dict[str, Check] = {
    "belief_id": _is_id,
    "statement": lambda v: type(v) is str and 0 < len(v) <= 280,
    "topic": _is_text,
    "subject": _is_optional_text,
    "predicate": _is_optional_text,
    "object": _is_optional_text,
    "wiki_section_anchor": _is_optional_text,
    "footnote_ids": _is_ids,
    "provenance_ids": _is_ids,
    "asserted_at": _is_date,
    "asserted_in_run": _is_optional_text,
    "superseded_at": _is_optional_date,
    "superseded_by_belief_id": lambda v: v is None or _is_id(v),
    "superseded_in_run": _is_optional_text,
    "supersession_reason": lambda v: v is None or (type(v) is str and v in _REASONS),
    "source_valid_from": _is_optional_date,
    "source_valid_to": _is_optional_date,
    "contradicting_belief_ids": lambda v: v is None or _is_ids(v),
    "confidence_hint": lambda v: v is None or (type(v) is str and v in _HINTS),
}
_BELIEF_REQUIRED = frozenset({"belief_id", "statement", "topic", "footnote_ids",
                              "provenance_ids", "asserted_at"})

_PROVENANCE: dict[str, Check] = {
    "id": _is_id,
    "raw_path": _is_text,
    "page_hint": lambda v: v is None or type(v) is str or (_is_integer(v) and 0 <= v <= 10**9),
    "quote": _is_text,
    "quote_hash": lambda v: type(v) is str and _HASH_RE.search(v) is not None,
}
_PROVENANCE_REQUIRED = frozenset({"id", "raw_path", "quote", "quote_hash"})


def _object_ok(value: Any, checks: dict[str, Check], required: frozenset[str]) -> bool:
    if type(value) is not dict or not required <= value.keys():
        return False
    for key, item in value.items():
        check = checks.get(key)
        if check is None:
            if not key.startswith("x-"):
                return False
        elif not check(item):
            return False
    return True


_TOP: dict[str, Check] = {
    "$schema": lambda v: type(v) is str,
    "page": _is_text,
    "page_anchor_root": lambda v: type(v) is str,
    "beliefs": lambda v: type(v) is list,
    "provenance": lambda v: type(v) is list,
}


def top_ok(value: Any) -> bool:
    """True when ``value`` is valid against the schema's top level (entries not checked)."""
    return _object_ok(value, _TOP, frozenset({"beliefs"}))


def belief_ok(value: Any) -> bool:
    """True when ``value`` is valid against ``#/$defs/belief``."""
    if not _object_ok(value, _BELIEF, _BELIEF_REQUIRED):
        return False
    # dependentSchemas: a string supersession_reason needs a string superseded_at.
    return not (
        type(value.get("supersession_reason")) is str
        and type(value.get("superseded_at")) is not str
    )


def provenance_ok(value: Any) -> bool:
    """True when ``value`` is valid against ``#/$defs/provenance``."""
    return _object_ok(value, _PROVENANCE, _PROVENANCE_REQUIRED)

"""A note's Dataview inline fields as properties of its graph node (Cypher's
``n.rating`` for ``rating:: 4``).

Typed as Dataview types them, then kept as JSON like a frontmatter value:
numbers, booleans and text as they are; a date as ISO text (``2022-01-02``, with
the time when it has one), as a YAML date is; a link as its wikilink text
(``[[Alpha]]``, as a frontmatter link is written); a duration as written; a list
as a list.  A key given twice holds a list of its values (as in Dataview); a key
with capitals, spaces or formatting also gives its sanitised twin
(``Basic Field`` → ``basic-field``).  The frontmatter wins a clash: a field whose
key (or twin) the frontmatter has, in any case, is not a property.  Only the
first ``MAX_PROPERTY_KEYS`` different keys of a note are properties (the codec
reports the rest: ``too-many-fields``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from typing import Any

from ..codecs.field_values import Duration, Link
from ..codecs.inline_fields import MAX_PROPERTY_KEYS, InlineField


def field_json(field: InlineField) -> Any:
    """A field's typed value as the graph keeps it (JSON); None when empty."""
    return _json(field.value, field.raw)


def _json(value: Any, raw: str) -> Any:
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, dt.datetime):
        if value.time() == dt.time():
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, Link):
        return value.markdown()
    if isinstance(value, Duration):
        return raw
    if isinstance(value, tuple):
        return tuple(_json(v, str(v)) for v in value)
    return str(value)


def inline_properties(fields: Iterable[InlineField], taken: Collection[str]) -> dict[str, Any]:
    """Every key of ``fields`` (and its sanitised twin) to its value, a list of
    values when the key is given twice; keys in ``taken`` (lowercase: the
    frontmatter's and the node's own fields) are left out."""
    values: dict[str, list[Any]] = {}
    spelling: dict[str, str] = {}  # lowercase -> the first spelling seen
    seen: set[str] = set()
    for f in fields:
        seen.add(f.key.lower())
        if len(seen) > MAX_PROPERTY_KEYS:
            break
        value = field_json(f)
        if value is None:
            continue
        keys = {f.key.lower(): f.key, f.sanitized.lower(): f.sanitized}
        for low, key in keys.items():
            if key and low not in taken:
                values.setdefault(spelling.setdefault(low, key), []).append(value)
    return {k: v[0] if len(v) == 1 else tuple(v) for k, v in values.items()}

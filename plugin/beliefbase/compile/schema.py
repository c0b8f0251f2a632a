"""User types (SPEC §8): ``schema: NodeType`` pages and the nodes that claim them.

A NodeType page declares ``name`` (its title when absent) and ``properties``, a
list of ``{name, type, required}``.  Every published document whose ``schema``
is that name is checked, open world (extra fields are fine):

* a required property missing (or empty) -> ``schema-violation`` at the note's
  first line;
* a property of the wrong type -> ``schema-violation`` at the field's line.

Types: ``string``/``text``, ``number``, ``integer``, ``boolean``, ``date``
(a YAML date or ISO text), ``list``, ``link`` (a ``[[wikilink]]``, or a list of
them).  Any other type name is not checked.  Violations are warnings, never
blockers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import diagnostics as diag
from ..builder.documents import Document
from ..ids import SrcPath

#: The schema of a type declaration.
NODE_TYPE = "NodeType"


@dataclass(frozen=True)
class Property:
    name: str
    type: str | None
    required: bool


@dataclass(frozen=True)
class NodeType:
    name: str
    doc: Document
    properties: tuple[Property, ...]


def node_types(published: Mapping[SrcPath, Document]) -> dict[str, NodeType]:
    """Every declared type by name (the first declaration by path wins)."""
    types: dict[str, NodeType] = {}
    for doc in published.values():
        if doc.schema != NODE_TYPE:
            continue
        name = doc.meta.get("name")
        name = name.strip() if isinstance(name, str) and name.strip() else doc.title
        types.setdefault(name, NodeType(name, doc, _properties(doc.meta.get("properties"))))
    return types


def _properties(value: Any) -> tuple[Property, ...]:
    found = []
    for item in value if isinstance(value, list | tuple) else []:
        if isinstance(item, str):
            found.append(Property(item, None, False))
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            kind = item.get("type")
            found.append(Property(item["name"], kind.lower() if isinstance(kind, str) else None,
                                  item.get("required") is True))
    return tuple(found)


def check_schemas(published: Mapping[SrcPath, Document], display: Callable[[str], str]
                  ) -> list[diag.Diagnostic]:
    """``schema-violation`` for every published node that breaks its declared type
    (``display``: a source path as diagnostics show it)."""
    types = node_types(published)
    if not types:
        return []
    found: list[diag.Diagnostic] = []
    for doc in published.values():
        node_type = types.get(doc.schema) if doc.schema else None
        if node_type is None:
            continue
        meta = doc.meta
        for prop in node_type.properties:
            value = meta.get(prop.name)
            if value is None or value == "" or value == () or value == []:
                if prop.required:
                    found.append(diag.make(
                        "schema-violation", display(doc.path), 1, 1,
                        f"a {node_type.name} needs `{prop.name}` (declared required in "
                        f"{display(node_type.doc.path)}): add it to the frontmatter"))
                continue
            check = _CHECKS.get(prop.type or "")
            if check is not None and not check(value):
                line = doc.parsed.meta_lines.get(prop.name, 1)
                found.append(diag.make(
                    "schema-violation", display(doc.path), line, 1,
                    f"`{prop.name}` of a {node_type.name} is a {prop.type} (declared in "
                    f"{display(node_type.doc.path)}), not {_describe(value)}: fix the value"))
    return found


def _is_date(value: Any) -> bool:
    if isinstance(value, dt.date):
        return True
    if not isinstance(value, str):
        return False
    try:
        dt.date.fromisoformat(value[:10])
    except ValueError:
        return False
    return True


def _is_link(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return all(_is_link(v) for v in value)
    return isinstance(value, str) and value.strip().startswith("[[") and value.strip().endswith(
        "]]")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "text": lambda v: isinstance(v, str),
    "number": _is_number,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "date": _is_date,
    "list": lambda v: isinstance(v, list | tuple),  # a YAML list, frozen: a tuple
    "link": _is_link,
}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, dt.date):
        return f"the date {value.isoformat()}"
    text = str(value)
    return f"the text {text[:40]!r}"

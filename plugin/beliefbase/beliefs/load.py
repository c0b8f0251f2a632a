"""Reading one sidecar: strict JSON, the JSON Schema, and the ``Sidecar`` record.

``schema.json`` is the contract (published for editors).  Validating every
belief with ``jsonschema`` is too slow for thousands of beliefs per build,
so ``quick.py`` mirrors the schema with plain checks; only an entry the
quick check refuses goes through ``jsonschema``, whose errors become
``bad-sidecar`` diagnostics naming the JSON path and line.  A test holds the
two to the same verdict.  An invalid belief or provenance entry is skipped on
its own; a file that is not JSON, or not a sidecar at the top level, is
skipped whole.  Nothing here raises.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import Any

from .. import diagnostics as diag
from ..diagnostics import Diagnostic
from . import dates, quick
from .jsontext import JsonPath, JsonProblem, JsonText, decode_utf8, format_path, loads_strict
from .model import Belief, Provenance, Sidecar

SCHEMA_FILE = Path(__file__).with_name("schema.json")
#: More schema errors than this in one file are summarised in one line.
MAX_ERRORS_PER_FILE = 20


@functools.cache
def get_schema() -> dict[str, Any]:
    """The sidecar JSON Schema (draft 2020-12), as shipped in ``schema.json``."""
    with SCHEMA_FILE.open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


@functools.cache
def _validators() -> dict[str, Any]:
    # jsonschema (heavy to import) only when a sidecar fails the fast path.
    import jsonschema

    schema = get_schema()
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("iso-date-or-date-time")(dates.is_iso)
    top = json.loads(json.dumps(schema))
    top["properties"]["beliefs"]["items"] = {}
    top["properties"]["provenance"]["items"] = {}
    defs = {"$defs": schema["$defs"]}
    cls = jsonschema.Draft202012Validator
    return {
        "top": cls(top, format_checker=checker),
        "beliefs": cls({"$ref": "#/$defs/belief", **defs}, format_checker=checker),
        "provenance": cls({"$ref": "#/$defs/provenance", **defs}, format_checker=checker),
    }


#: Loaded sidecars by (path, names, content hash): ``mkdocs serve`` rebuilds re-read
#: every sidecar, but only parse and validate the ones whose bytes changed.
_LOADED: dict[tuple[Path, str, str, str], tuple[Sidecar | None, list[Diagnostic]]] = {}
_LOADED_MAX = 20_000


def load_sidecar(path: Path, rel: str, display: str) -> tuple[Sidecar | None, list[Diagnostic]]:
    """Read, parse and validate one sidecar; None when nothing of it is usable."""
    try:
        mode = os.stat(path).st_mode
        if not S_ISREG(mode) and not S_ISDIR(mode):  # a pipe would wait forever for a writer
            return None, [_bad(display, 1, 1, "not a regular file (a named pipe, a device); "
                               "skipped (remove it)")]
        data = path.read_bytes()
    except OSError as exc:
        return None, [_bad(display, 1, 1, f"cannot read the sidecar ({exc.strerror}); skipped")]
    key = (path, rel, display, hashlib.sha256(data).hexdigest())
    if key not in _LOADED:
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.clear()
        _LOADED[key] = _parse(path, rel, display, data, key[3])
    sidecar, problems = _LOADED[key]
    return sidecar, list(problems)


def _parse(
    path: Path, rel: str, display: str, data: bytes, digest: str
) -> tuple[Sidecar | None, list[Diagnostic]]:
    try:
        text = decode_utf8(data)
        value = loads_strict(text)
    except JsonProblem as exc:
        where = f" at {format_path(exc.path)}" if exc.path else ""
        message = f"{exc.message}{where}; the sidecar is skipped until it is fixed"
        return None, [_bad(display, exc.line, exc.column, message)]
    located = JsonText(text)
    problems = [] if quick.top_ok(value) else list(_errors("top", value, ()))
    lone = list(_lone_surrogates(value, ())) if "\\u" in text else []
    problems += [(path, message) for path, message in lone if len(path) < 2
                 or path[0] not in ("beliefs", "provenance")]
    if problems:
        return None, _report(problems, located, display, "the sidecar is skipped")
    bad_entries = {path[:2] for path, _ in lone}
    beliefs, provenance, skipped = _entries(value, located, display, dict(lone), bad_entries)
    sidecar = Sidecar(
        path=path,
        display=display,
        rel=rel,
        digest=digest,
        declared_page=value.get("page"),
        beliefs=tuple(beliefs),
        provenance=tuple(provenance),
        text=located,
    )
    return sidecar, skipped


def _entries(
    value: dict[str, Any], located: JsonText, display: str,
    lone: dict[_Path, str], bad: set[_Path],
) -> tuple[list[Belief], list[Provenance], list[Diagnostic]]:
    beliefs: list[Belief] = []
    provenance: list[Provenance] = []
    problems: list[tuple[JsonPath, str]] = [(path, message) for path, message in lone.items()
                                            if path[:2] in bad and len(path) >= 2]
    for index, item in enumerate(value["beliefs"]):
        if ("beliefs", index) in bad:
            continue
        if quick.belief_ok(item):
            beliefs.append(_belief(item, display, index))
        else:
            problems.extend(_errors("beliefs", item, ("beliefs", index)))
    for index, item in enumerate(value.get("provenance", ())):
        if ("provenance", index) in bad:
            continue
        if quick.provenance_ok(item):
            provenance.append(_provenance(item, display, index))
        else:
            problems.extend(_errors("provenance", item, ("provenance", index)))
    return beliefs, provenance, _report(problems, located, display, "this entry is skipped")


def _belief(item: dict[str, Any], display: str, index: int) -> Belief:
    def date_or_none(key: str) -> str | None:
        raw = item.get(key)
        return dates.normalize(raw) if raw is not None else None

    contradicting = item.get("contradicting_belief_ids")
    return Belief(
        belief_id=item["belief_id"],
        statement=item["statement"],
        topic=item["topic"],
        footnote_ids=tuple(normalize_footnote(f) for f in item["footnote_ids"]),
        provenance_ids=tuple(item["provenance_ids"]),
        asserted_at=dates.normalize(item["asserted_at"]),
        sidecar=display,
        index=index,
        subject=item.get("subject"),
        predicate=item.get("predicate"),
        object=item.get("object"),
        wiki_section_anchor=normalize_anchor(item.get("wiki_section_anchor")),
        asserted_in_run=item.get("asserted_in_run"),
        superseded_at=date_or_none("superseded_at"),
        superseded_by_belief_id=item.get("superseded_by_belief_id"),
        superseded_in_run=item.get("superseded_in_run"),
        supersession_reason=item.get("supersession_reason"),
        source_valid_from=date_or_none("source_valid_from"),
        source_valid_to=date_or_none("source_valid_to"),
        contradicting_belief_ids=tuple(contradicting) if contradicting is not None else None,
        confidence_hint=item.get("confidence_hint"),
    )


def _provenance(item: dict[str, Any], display: str, index: int) -> Provenance:
    hint = item.get("page_hint")
    return Provenance(
        id=item["id"],
        raw_path=item["raw_path"],
        quote=item["quote"],
        quote_hash=item["quote_hash"].lower(),
        page_hint=int(hint) if isinstance(hint, float) else hint,
        sidecar=display,
        index=index,
    )


def _lone_surrogates(value: Any, path: _Path) -> Iterator[tuple[_Path, str]]:
    """Where a string (or a key) holds a lone UTF-16 surrogate (a ``"\\ud800"`` escape
    JSON allows and no text can hold: UTF-8, SQLite and the page refuse it)."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            yield path, ("holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape not in "
                         "a pair), which is not text")
    elif isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                yield (*path, key), "the key holds a lone UTF-16 surrogate, which is not text"
            else:
                yield from _lone_surrogates(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _lone_surrogates(item, (*path, index))


_Path = tuple["str | int", ...]
_SURROGATE = re.compile("[\ud800-\udfff]")


def normalize_footnote(text: str) -> str:
    """``"[^2]"``, ``"^2"`` and ``"2"`` all name footnote ``2``."""
    if text.startswith("[^") and text.endswith("]"):
        return text[2:-1]
    return text[1:] if text.startswith("^") and len(text) > 1 else text


def normalize_anchor(text: str | None) -> str | None:
    """``"token-refresh"`` / ``"#token-refresh"`` -> ``"#token-refresh"``; empty -> None."""
    if text is None or not text.strip("#").strip():
        return None
    return "#" + text.strip().lstrip("#")


def _errors(kind: str, instance: Any, prefix: JsonPath) -> Iterator[tuple[JsonPath, str]]:
    errors = sorted(_validators()[kind].iter_errors(instance), key=lambda e: list(map(str, e.path)))
    seen: set[tuple[tuple[str | int, ...], str]] = set()
    for error in errors:
        path: tuple[str | int, ...] = (*prefix, *error.absolute_path)
        if error.validator == "additionalProperties":  # point at the first unknown key
            known = error.schema.get("properties", {})
            path += tuple(sorted(k for k in error.instance if k not in known
                                 and not k.startswith("x-")))[:1]
        found = (path, describe(error))
        if found not in seen:  # a bad date fails both its pattern and its format
            seen.add(found)
            yield found


def _report(
    problems: list[tuple[JsonPath, str]], located: JsonText, display: str, consequence: str
) -> list[Diagnostic]:
    found = []
    for path, message in problems[:MAX_ERRORS_PER_FILE]:
        line, column = located.locate(path)
        text = f"{format_path(path)}: {message}; {consequence}"
        found.append(_bad(display, line, column, text))
    if len(problems) > MAX_ERRORS_PER_FILE:
        more = len(problems) - MAX_ERRORS_PER_FILE
        found.append(_bad(display, 1, 1, f"{more} more schema errors in this file not shown"))
    return found


def describe(error: Any) -> str:
    """A schema error in words an author can act on."""
    if error.validator == "anyOf" and error.context:
        # "null or X": the value is not null, so what X says is the useful part.
        useful = [e for e in error.context if e.schema != {"type": "null"}] or error.context
        from jsonschema.exceptions import best_match

        return describe(best_match(useful))
    if "dependentSchemas" in error.schema_path:
        return "supersession_reason requires superseded_at (the date the belief was superseded)"
    value = error.instance
    shown = json.dumps(value, ensure_ascii=False)[:80] if _jsonable(value) else repr(value)[:80]
    if error.validator == "required":
        return str(error.message).replace("is a required property", "is required")
    if error.validator == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = sorted(k for k in value if k not in known and not k.startswith("x-"))
        hint = diag.did_you_mean(extra[0], known) if extra else ""
        return f"unknown field {', '.join(map(repr, extra))}{hint} (prefix extensions with 'x-')"
    if error.validator == "maxLength":
        return f"{len(value)} characters, at most {error.validator_value} (split the belief)"
    if error.validator in ("pattern", "format") and error.schema.get("format"):
        return f"{shown} is not an ISO date (2026-04-15) or date-time (2026-04-15T14:23:00Z)"
    if error.validator == "pattern" and "a-fA-F" in str(error.validator_value):
        return f"{shown} is not 64 hex digits (the SHA-256 of the quote's UTF-8)"
    if error.validator == "pattern":
        return f"{shown} is not a valid id (non-empty, no whitespace)"
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(v) for v in error.validator_value if v is not None)
        return f"{shown} is not one of {allowed}"
    if error.validator == "type":
        return f"{shown} is not of type {error.validator_value}"
    return str(error.message)


def _jsonable(value: Any) -> bool:
    return isinstance(value, str | int | float | bool | list | dict) or value is None


def _bad(display: str, line: int, column: int, message: str) -> Diagnostic:
    return diag.make("bad-sidecar", display, line, column, message)

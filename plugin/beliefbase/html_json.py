"""JSON that is safe inside HTML: ``<``, ``>``, ``&`` and U+2028/9 as ``\\uXXXX``
escapes, so no ``</script>`` can close a tag.  Used by the graph's files and the
site's data alike (a lower layer, so ``graph/`` needs nothing of ``site/``).
"""

from __future__ import annotations

import functools
import json
from typing import Any

_JSON_HTML = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
              ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


def _safe_json(text: str) -> str:
    """JSON text with what HTML or a ``<script>`` could read as markup escaped.

    ``str.replace`` per character, each only when present: much faster than
    ``str.translate`` on a large graph file.
    """
    for char, escaped in _JSON_HTML:
        if char in text:
            text = text.replace(char, escaped)
    return text


def html_safe(json_text: str) -> str:
    """JSON text someone else made (Material's search index), made HTML-safe: the same
    value, with ``<``, ``>``, ``&`` and U+2028/9 as ``\\uXXXX`` escapes.  Only for JSON
    text: those characters may appear in its strings alone."""
    return _safe_json(json_text)


def json_for_html(data: Any, **kwargs: Any) -> str:
    """JSON that is safe inside ``<script>`` and HTML attributes."""
    return _safe_json(json.dumps(data, ensure_ascii=False, **kwargs))


#: one encoder for the many small compact records (``json.dumps`` with options
#: builds a new encoder per call)
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def compact_json_for_html(data: Any) -> str:
    """``json_for_html(data, separators=(",", ":"))``, faster."""
    return _safe_json(_COMPACT.encode(data))


#: strings and numbers alone, through the C encoder (``indent`` makes ``json.dumps``
#: use the pure-Python one, for every record)
_SCALAR = json.JSONEncoder(ensure_ascii=False)


def flat_json_for_html(record: dict[str, Any]) -> str:
    """``json_for_html(record, indent=1, sort_keys=True)`` for a record of strings and
    integers (a diagnostic), without the pure-Python encoder that ``indent`` needs:
    twenty thousand diagnostics took a second.  Any other value: ``json_for_html``."""
    if not all(type(v) in (str, int) for v in record.values()):
        return json_for_html(record, indent=1, sort_keys=True)
    if not record:
        return "{}"
    encode = _SCALAR.encode
    return _safe_json("{\n" + ",\n".join(
        f" {_key(k)}: {encode(v) if type(v) is str else int.__repr__(v)}"
        for k, v in sorted(record.items())) + "\n}")


@functools.lru_cache(maxsize=256)
def _key(name: str) -> str:
    """A record's key as JSON (the same few keys in every record)."""
    return _SCALAR.encode(name)

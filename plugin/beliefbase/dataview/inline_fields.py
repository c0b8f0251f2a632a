"""Dataview's inline fields: the reader is the codec's (``codecs.inline_fields``,
one reader for the compile and the engine); here is how reading view renders one.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from ..codecs.inline_fields import (
    InlineField,
    clean_key,
    extract_inline_fields,
    parse_inline_value,
    sanitize_key,
)

__all__ = ["InlineField", "clean_key", "extract_inline_fields", "parse_inline_value",
           "render_inline_field", "sanitize_key"]


def render_inline_field(field: InlineField, value_html: Callable[[Any], str]) -> str | None:
    """The HTML Dataview's reading view puts in place of a bracketed field: key
    and value in spans (``(key:: value)`` shows the value alone), each carrying
    ``data-dv-key`` and ``data-dv-norm-key`` as Dataview's do, for CSS snippets.
    None for a ``Key:: value`` line, which reading view leaves as written.
    ``value_html`` formats the value (``display.format_html``); keys are escaped
    here."""
    if field.style == "line":
        return None
    attrs = f'data-dv-key="{escape(field.key)}" data-dv-norm-key="{escape(field.sanitized)}"'
    if field.style == "paren":
        return ('<span class="dataview inline-field"><span class="dataview '
                f'inline-field-standalone-value" {attrs}>{value_html(field.value)}</span></span>')
    return (f'<span class="dataview inline-field"><span class="dataview inline-field-key" '
            f'{attrs}>{escape(field.key)}</span><span class="dataview inline-field-value" '
            f"{attrs}>{value_html(field.value)}</span></span>")

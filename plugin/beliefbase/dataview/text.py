"""Values as plain text: ``string()``, string concatenation, ``join``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from .dates import display_date
from .values import Duration, ExternalLink, Lambda, Link, number_text

#: what a null shows as (Dataview's "Render Null As" default, ``\-`` in Markdown)
NULL_TEXT = "-"


def to_text(value: Any) -> str:
    """A value as Dataview's ``Values.toString`` writes it."""
    if value is None:
        return NULL_TEXT
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return number_text(value)
    if isinstance(value, dt.datetime):
        return display_date(value)
    if isinstance(value, Duration):
        return value.human()
    if isinstance(value, Link):
        return value.markdown()
    if isinstance(value, ExternalLink):
        return value.url if value.display is None else f"[{value.display}]({value.url})"
    if isinstance(value, tuple | list):
        return ", ".join(to_text(v) for v in value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k}: {to_text(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Lambda):
        return "<function>"
    return str(value)

"""Entities (SPEC §7): the model, the per-page pipeline, the project index, the commands.

``compile_entities(compiled) -> (EntityIndex, diagnostics)`` is the one entry
point for a compile; no module here imports MkDocs or ``site/``.
"""

from __future__ import annotations

from .index import EntityIndex
from .source import compile_entities

__all__ = ["EntityIndex", "compile_entities"]

"""Entities (SPEC §7): the model, the per-page pipeline, the project index, the commands.

``EntityStage().run(documents, texts, options) -> (EntityIndex, diagnostics)`` is the
compile's stage (``Compiled.entities``); no module here imports MkDocs or ``site/``.
"""

from __future__ import annotations

from .index import EntityIndex
from .source import EntityStage

__all__ = ["EntityIndex", "EntityStage"]

"""Beliefs: sidecar model and JSON Schema, deterministic verifier, SQLite index, ``why``.

The stages, each a module:

* ``facts``    – ``PageFacts`` / ``ProjectContext``: what the compiler tells us about pages.
* ``load``     – one ``*.beliefs.json``: strict JSON (``jsontext``), schema (``schema.json``,
  fast path in ``quick``), ``Sidecar`` records (``model``); dates via ``dates``.
* ``verify``   – ``verify_project(...) -> BeliefSet``: every SPEC 6.2 check with
  diagnostics; quote anchors in ``quotes``, supersession/contradictions in ``revision``.
* ``store``    – ``BeliefStore``: ``cache_dir/beliefs.sqlite`` (``wiki_beliefs`` + FTS5).
* ``why``      – ``why(store, query, ...)`` answers; ``whytext`` prints them as a tree.
* ``emit``     – ``beliefs.json`` and ``beliefs.schema.json`` for ``site/_beliefbase/``.
* ``edit``/``cli`` – the ``why`` / ``beliefs …`` / ``reindex`` commands and the surgical
  sidecar edit behind ``beliefs supersede`` (through ``beliefbase.writeback``).

Nothing in this package imports MkDocs.
"""

from __future__ import annotations

from .facts import PageFacts, ProjectContext, discover_sidecars
from .model import Belief, BeliefSet, Provenance, Sidecar, VerifiedBelief, VerifiedProvenance
from .store import BeliefStore, open_store
from .verify import verify_context, verify_project
from .why import why

__all__ = [
    "Belief",
    "BeliefSet",
    "BeliefStore",
    "PageFacts",
    "ProjectContext",
    "Provenance",
    "Sidecar",
    "VerifiedBelief",
    "VerifiedProvenance",
    "discover_sidecars",
    "open_store",
    "verify_context",
    "verify_project",
    "why",
]

"""Machine-readable belief outputs for ``site/_beliefbase/``: ``beliefs.json`` and the schema.

``beliefs.json`` is public API, version 1::

    {
      "version": 1,
      "counts": {"beliefs": N, "current": N, "superseded": N, "contested": N, "drifted": N},
      "beliefs": [            # sorted by belief_id; beliefs of draft pages never appear
        {"belief_id", "statement", "topic", "subject", "predicate", "object", "network",
         "status": "current" | "superseded",
         "asserted_at", "asserted_in_run", "superseded_at", "superseded_by_belief_id",
         "superseded_in_run", "supersession_reason", "source_valid_from", "source_valid_to",
         "confidence_hint", "supporting_count", "contradicting_belief_ids", "footnote_ids",
         "page": docs-relative path, "wiki_page": page URL + "#anchor" (site-relative),
         "supersession_chain": [ids, oldest first],
         "verified_against_source": bool,
         "supporting_sources": [{"id", "raw_path", "page_hint", "quote", "quote_hash",
                                 "verified_against_source", "verification", "verified_at"}]}
      ],
      "topics": {"topic": [belief ids]},
      "pages": {"page URL": [belief ids in sidecar order]}
    }

Dates are canonical (``dates.py``): ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM:SSZ``.
``<``, ``>`` and ``&`` are written as ``\\u003c`` … so the file can also be
inlined in a ``<script>`` element safely.  Output is deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .load import SCHEMA_FILE
from .model import BeliefSet, VerifiedBelief, VerifiedProvenance

VERSION = 1
BELIEFS_JSON = "beliefs.json"
SCHEMA_JSON = "beliefs.schema.json"


def source_record(p: VerifiedProvenance) -> dict[str, Any]:
    entry = p.provenance
    return {
        "id": entry.id,
        "raw_path": entry.raw_path,
        "page_hint": entry.page_hint,
        "quote": entry.quote,
        "quote_hash": entry.quote_hash,
        "verified_against_source": p.check.verified,
        "verification": p.check.reason,
        "verified_at": p.check.verified_at,
    }


def belief_record(vb: VerifiedBelief, belief_set: BeliefSet) -> dict[str, Any]:
    """One belief as ``beliefs.json`` (and ``beliefs export``) write it."""
    b = vb.belief
    return {
        "belief_id": b.belief_id,
        "statement": b.statement,
        "topic": b.topic,
        "subject": b.subject,
        "predicate": b.predicate,
        "object": b.object,
        "network": vb.network,
        "status": "current" if vb.is_current else "superseded",
        "asserted_at": b.asserted_at,
        "asserted_in_run": b.asserted_in_run,
        "superseded_at": vb.superseded_at,
        # a successor on a draft page is not in the set: its id says nothing public
        "superseded_by_belief_id": b.superseded_by_belief_id
        if b.superseded_by_belief_id in belief_set.beliefs else None,
        "superseded_in_run": b.superseded_in_run,
        "supersession_reason": b.supersession_reason,
        "source_valid_from": b.source_valid_from,
        "source_valid_to": b.source_valid_to,
        "confidence_hint": vb.confidence_hint,
        "supporting_count": vb.supporting_count,
        "contradicting_belief_ids": list(vb.contradicting_belief_ids),
        "footnote_ids": list(b.footnote_ids),
        "page": vb.page,
        "wiki_page": vb.wiki_page,
        "supersession_chain": list(belief_set.chain(b.belief_id)),
        "verified_against_source": vb.verified_against_source,
        "supporting_sources": [source_record(p) for p in vb.sources],
    }


def counts(belief_set: BeliefSet) -> dict[str, int]:
    """Current / superseded / contested / drifted counts (the belief index page shows them)."""
    beliefs = list(belief_set.beliefs.values())
    return {
        "beliefs": len(beliefs),
        "current": sum(vb.is_current for vb in beliefs),
        "superseded": sum(not vb.is_current for vb in beliefs),
        "contested": sum(vb.is_current and vb.confidence_hint == "contested" for vb in beliefs),
        "drifted": sum(any(not s.check.verified for s in vb.sources) for vb in beliefs),
    }


def beliefs_document(belief_set: BeliefSet) -> dict[str, Any]:
    """The content of ``beliefs.json`` (see the module doc)."""
    pages: dict[str, list[str]] = {}
    for ids in belief_set.pages.values():
        url = belief_set.beliefs[ids[0]].page_url if ids else None
        if url is not None:
            pages[url] = list(ids)
    return {
        "version": VERSION,
        "counts": counts(belief_set),
        "beliefs": [belief_record(vb, belief_set) for vb in belief_set.beliefs.values()],
        "topics": {topic: list(ids) for topic, ids in belief_set.topics.items()},
        "pages": dict(sorted(pages.items())),
    }


def dumps(document: Any) -> str:
    """JSON text, stable and safe to inline in HTML (``<>&`` escaped as ``\\uXXXX``)."""
    text = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            + "\n")


def write_beliefs_json(belief_set: BeliefSet, out_dir: Path) -> Path:
    """Write ``out_dir/beliefs.json`` (``out_dir`` is ``site/_beliefbase``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / BELIEFS_JSON
    target.write_text(dumps(beliefs_document(belief_set)), encoding="utf-8")
    return target


def write_schema(out_dir: Path) -> Path:
    """Copy the sidecar JSON Schema to ``out_dir/beliefs.schema.json``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / SCHEMA_JSON
    target.write_bytes(SCHEMA_FILE.read_bytes())
    return target

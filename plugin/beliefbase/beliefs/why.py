"""``why``: what do we believe about X, why, and since when — answered from the index.

Resolution (SPEC 6.4): exact ``belief_id`` -> exact subject (``subject::predicate``
narrows by predicate; case- and whitespace-insensitive) -> topic -> FTS over
statement/topic/subject/predicate/object, ranked by bm25.  The first step that
matches wins; when several exact steps match, all their beliefs are returned
and each carries its own ``match_type``.  Matches are widened to their whole
supersession chains (``match_type: "supersession_chain"``), so the history of
a belief comes with it.  Time filters use ``dates.query_bound``: ``as_of`` D
keeps what was current at D; ``since``/``until`` keep what was current at some
time on or after / on or before D.  The answer is a JSON-ready dict in the
seed's shape; ``render_text`` (in ``whytext.py``) prints it as a tree.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from ..ids import normalize_name
from . import dates
from .model import Provenance
from .quotes import RawSources
from .store import BeliefStore

#: A belief row as a dict; the JSON array columns below are decoded lists.
Row = dict[str, Any]
_JSON_COLUMNS = ("footnote_ids", "provenance_ids", "contradicting_belief_ids", "chain")
#: At most this many beliefs come from the full-text step.
FTS_LIMIT = 50
_WORD = re.compile(r"\w", re.UNICODE)


def fts_match(text: str, operator: str = " ") -> str | None:
    """User text as an FTS5 query that cannot be a syntax error: every token a quoted string.

    ``don't`` -> ``"don't"``, ``"x`` -> ``\"\"\"x\"``, ``AND`` -> ``"AND"``; tokens without a
    letter or digit (``*``, ``(``) are dropped; None when nothing is left.
    """
    tokens = [t for t in text.split() if _WORD.search(t)]
    if not tokens:
        return None
    return operator.join('"' + t.replace('"', '""') + '"' for t in tokens)


def _scope(network: str | None, column: str = "workspace") -> tuple[str, tuple[str, ...]]:
    return (f" AND {column} = ?", (network,)) if network is not None else ("", ())


def resolve(store: BeliefStore, query: str, network: str | None) -> tuple[str, dict[str, str]]:
    """(match_type, {belief_id: match_type}) for ``query``; ``("none", {})`` if nothing."""
    scope, params = _scope(network)
    subject, _, predicate = query.partition("::")
    steps: list[tuple[str, str, tuple[str, ...]]] = [
        ("belief_id", "SELECT belief_id FROM wiki_beliefs WHERE belief_id = ?", (query.strip(),)),
    ]
    if predicate.strip():
        keys = (normalize_name(subject), normalize_name(predicate))
        steps.append(("subject", "SELECT belief_id FROM belief_keys WHERE subject_key = ? "
                      "AND predicate_key = ?", keys))
    else:
        steps.append(("subject", "SELECT belief_id FROM belief_keys WHERE subject_key = ?",
                      (normalize_name(query),)))
    steps.append(("topic", "SELECT belief_id FROM belief_keys WHERE topic_key = ?",
                  (normalize_name(query),)))
    matched: dict[str, str] = {}
    first = "none"
    for name, sql, args in steps:
        for row in store.query(sql + scope + " ORDER BY belief_id", (*args, *params)):
            matched.setdefault(row[0], name)
            first = name if first == "none" else first
    if matched:
        return first, matched
    ranked = _fts(store, query.replace("::", " "), network)
    return ("fts" if ranked else "none"), {b: "fts" for b in ranked}


def _fts(store: BeliefStore, query: str, network: str | None) -> list[str]:
    scope, params = _scope(network, "b.workspace")
    sql = ("SELECT b.belief_id FROM wiki_beliefs_fts f JOIN wiki_beliefs b ON b.rowid = f.rowid "
           f"WHERE wiki_beliefs_fts MATCH ?{scope} ORDER BY bm25(wiki_beliefs_fts), b.belief_id "
           f"LIMIT {FTS_LIMIT}")
    for operator in (" ", " OR "):
        match = fts_match(query, operator)
        if match is None:
            return []
        try:
            found = [row[0] for row in store.query(sql, (match, *params))]
        except sqlite3.OperationalError:  # not expected: every token is a quoted string
            return []
        if found:
            return found
    return []


def why(
    store: BeliefStore,
    query: str,
    network: str | None = None,
    since: str | None = None,
    until: str | None = None,
    as_of: str | None = None,
    history: bool = True,
    *,
    raw: RawSources | None = None,
    checked_at: str | None = None,
) -> dict[str, Any]:
    """Answer ``query`` from the index (SPEC 6.4); see the module doc for the rules.

    Args:
        raw: when given, every returned quote is re-checked against the live raw
            file (``verified_at`` = ``checked_at``, default now).  ``RawSources``
            reads each file once: pass a new one per question.

    Raises:
        ValueError: a date argument is not an ISO date or date-time.
    """
    bounds = {k: dates.query_bound(v) for k, v in
              (("since", since), ("until", until), ("as_of", as_of)) if v is not None}
    match_type, matched = resolve(store, query, network)
    rows = _rows(store, _widen(store, matched))
    rank = {b: i for i, b in enumerate(matched)}
    kept = [r for r in rows.values() if _in_window(r, bounds)]
    if "as_of" in bounds:
        bound = bounds["as_of"]
        current = [r for r in kept if r["superseded_at"] is None or r["superseded_at"] > bound]
        past = [r for r in kept if r["superseded_at"] is not None and r["superseded_at"] <= bound]
    else:
        current = [r for r in kept if r["superseded_at"] is None]
        past = [r for r in kept if r["superseded_at"] is not None]
    current.sort(key=lambda r: (rank.get(r["belief_id"], len(rank)), r["belief_id"]))
    past.sort(key=lambda r: (r["superseded_at"], r["belief_id"]), reverse=True)
    contra_ids = sorted({c for r in current for c in r["contradicting_belief_ids"]})
    contra = [r for r in _rows(store, contra_ids).values() if _in_window(r, bounds)
              and (r["superseded_at"] is None or r["superseded_at"] > bounds.get("as_of", ""))]
    sources = _Sources(store, raw, checked_at, [*current, *past, *contra])
    chains = _chains([*current, *past])
    return {
        "query": query,
        "match_type": match_type,
        "current_beliefs": [_belief(r, matched, sources) for r in current],
        "history": [_belief(r, matched, sources) for r in past] if history else [],
        "contradicting_beliefs": [_belief(r, matched, sources) for r in contra],
        "supersession_chain": chains[0] if chains else [],
        "supersession_chains": [c for c in chains if len(c) > 1],
    }


def _in_window(row: Row, bounds: dict[str, str]) -> bool:
    upto = min(bounds.get("until", "\uffff"), bounds.get("as_of", "\uffff"))
    if row["asserted_at"] > upto:
        return False
    since = bounds.get("since")
    return since is None or row["superseded_at"] is None or row["superseded_at"] > since


def _widen(store: BeliefStore, matched: dict[str, str]) -> list[str]:
    ids = dict.fromkeys(matched)
    for chunk in _chunks(list(matched)):
        sql = f"SELECT chain FROM belief_keys WHERE belief_id IN ({_marks(chunk)})"
        for row in store.query(sql, chunk):
            ids.update(dict.fromkeys(json.loads(row[0])))
    return list(ids)


def _rows(store: BeliefStore, ids: Iterable[str]) -> dict[str, Row]:
    """Belief rows (with page URL and chain) as dicts, JSON columns decoded once."""
    found: dict[str, Row] = {}
    for chunk in _chunks(list(ids)):
        sql = ("SELECT b.*, d.url AS page_url, k.chain AS chain FROM wiki_beliefs b "
               "LEFT JOIN documents d ON d.id = b.wiki_document_id "
               f"LEFT JOIN belief_keys k ON k.belief_id = b.belief_id "
               f"WHERE b.belief_id IN ({_marks(chunk)})")
        for row in store.query(sql, chunk):
            record = dict(zip(row.keys(), row, strict=True))
            for column in _JSON_COLUMNS:
                record[column] = json.loads(record[column] or "[]")
            found[record["belief_id"]] = record
    return found


def _chains(rows: list[Row]) -> list[list[str]]:
    """Distinct supersession chains of ``rows``, in the order their first member appears."""
    chains: list[list[str]] = []
    for row in rows:
        chain = row["chain"]
        if chain not in chains:
            chains.append(chain)
    return chains


def _chunks(items: list[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _marks(items: list[str]) -> str:
    return ", ".join("?" * len(items))


class _Sources:
    """Supporting sources of the answer's beliefs: fetched in one go, or re-checked live."""

    def __init__(self, store: BeliefStore, raw: RawSources | None, at: str | None,
                 rows: list[Row]) -> None:
        self.raw = raw
        self.at = at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        wanted = sorted({(r["workspace"], p) for r in rows
                         for p in r["provenance_ids"]})
        self.found: dict[tuple[str, str], sqlite3.Row] = {}
        for network in sorted({w for w, _ in wanted}):
            ids = [p for w, p in wanted if w == network]
            for chunk in _chunks(ids):
                sql = ("SELECT * FROM wiki_claim_provenance WHERE workspace = ? AND id IN "
                       f"({_marks(chunk)})")
                self.found.update(((network, r["id"]), r)
                                  for r in store.query(sql, (network, *chunk)))

    def of(self, row: Row) -> list[dict[str, Any]]:
        keys = [(row["workspace"], p) for p in dict.fromkeys(row["provenance_ids"])]
        return [self._source(self.found[k]) for k in keys if k in self.found]

    def _source(self, p: sqlite3.Row) -> dict[str, Any]:
        verified, reason, at = bool(p["verified_against_source"]), p["verification_reason"], \
            p["verified_at"]
        if self.raw is not None:
            entry = Provenance(p["id"], p["raw_path"], p["quote"], p["quote_hash"],
                               p["page_hint"], p["sidecar"], 0)
            check = self.raw.check(entry, self.at)
            verified, reason, at = check.verified, check.reason, check.verified_at
        return {"id": p["id"], "raw_path": p["raw_path"], "page_hint": p["page_hint"],
                "quote": p["quote"], "quote_hash": p["quote_hash"],
                "verified_against_source": verified, "verification": reason, "verified_at": at}


def _belief(row: Row, matched: dict[str, str], sources: _Sources) -> dict[str, Any]:
    url = row["page_url"]
    return {
        "belief_id": row["belief_id"],
        "statement": row["statement"],
        "topic": row["topic"],
        "subject": row["subject"],
        "predicate": row["predicate"],
        "object": row["object"],
        "network": row["workspace"],
        "asserted_at": row["asserted_at"],
        "asserted_in_run": row["asserted_in_run"],
        "superseded_at": row["superseded_at"],
        "superseded_by_belief_id": row["superseded_by_belief_id"],
        "superseded_in_run": row["superseded_in_run"],
        "supersession_reason": row["supersession_reason"],
        "source_valid_from": row["source_valid_from"],
        "source_valid_to": row["source_valid_to"],
        "confidence_hint": row["confidence_hint"],
        "supporting_count": row["supporting_count"],
        "contradicting_belief_ids": row["contradicting_belief_ids"],
        "footnote_ids": row["footnote_ids"],
        "wiki_page": None if url is None else url + (row["wiki_section_anchor"] or ""),
        "match_type": matched.get(row["belief_id"], "supersession_chain"),
        "supporting_sources": sources.of(row),
    }


def history(store: BeliefStore, belief_id: str) -> list[dict[str, Any]] | None:
    """The supersession chain through ``belief_id``, oldest first; None for an unknown id."""
    found = _rows(store, [belief_id]).get(belief_id)
    if found is None:
        return None
    chain = found["chain"] or [belief_id]
    rows = _rows(store, chain)
    sources = _Sources(store, None, None, list(rows.values()))
    return [_belief(rows[b], {belief_id: "belief_id"}, sources) for b in chain if b in rows]

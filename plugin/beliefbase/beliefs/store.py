"""The belief index: ``cache_dir/beliefs.sqlite``, a derived, rebuildable SQLite database.

Tables: ``wiki_beliefs`` (the seed's columns, CHECK constraints and indexes;
workspace = network id; ``asserted_in_run`` may be NULL because the spec makes
it optional, and there is no ``runs`` table), ``wiki_beliefs_fts`` (FTS5 over
statement/topic/subject/predicate/object, kept in sync by triggers),
``workspaces``, ``documents`` (page path -> URL), ``wiki_claim_provenance``
(quote anchors with their last check), ``belief_keys`` (normalised lookup keys
and supersession chains for ``why``).  Foreign keys are declared as in the
seed but not enforced: sidecars are the source of truth, and the verifier
reports dangling references rather than the index refusing them.

``PRAGMA user_version`` holds ``SCHEMA_VERSION``; a database of another
version (or an unreadable file) is discarded and rebuilt.  ``rebuild`` writes
a fresh file in a fixed order and replaces the old one atomically, so the
same sidecars give the same database content; ``sync`` applies only the
differences (through the FTS triggers) and ends with the same content.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..atomic import replaced
from ..ids import normalize_name
from .model import BeliefSet, VerifiedBelief

SCHEMA_VERSION = 1
FILENAME = "beliefs.sqlite"

#: Tables (and the FTS5 table).  A rebuild fills them first, then indexes the text in
#: bulk, then adds indexes and triggers: much faster than row-by-row triggers.
_TABLES = """
CREATE TABLE workspaces (slug TEXT PRIMARY KEY);
CREATE TABLE documents (
    id TEXT PRIMARY KEY,  -- page path relative to docs_dir
    workspace TEXT NOT NULL REFERENCES workspaces(slug) ON DELETE CASCADE,
    url TEXT,             -- site-relative page URL
    sidecar TEXT NOT NULL
);
CREATE TABLE wiki_beliefs (
    belief_id TEXT PRIMARY KEY,
    workspace TEXT NOT NULL REFERENCES workspaces(slug) ON DELETE CASCADE,
    statement TEXT NOT NULL,
    topic TEXT NOT NULL,
    subject TEXT,
    predicate TEXT,
    object TEXT,
    wiki_document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    wiki_section_anchor TEXT,
    footnote_ids TEXT NOT NULL,
    provenance_ids TEXT NOT NULL,
    asserted_at TEXT NOT NULL,
    asserted_in_run TEXT,
    superseded_at TEXT,
    superseded_by_belief_id TEXT REFERENCES wiki_beliefs(belief_id),
    superseded_in_run TEXT,
    supersession_reason TEXT,
    source_valid_from TEXT,
    source_valid_to TEXT,
    supporting_count INTEGER NOT NULL DEFAULT 1,
    contradicting_belief_ids TEXT,
    confidence_hint TEXT,
    created_at TEXT NOT NULL,
    CHECK (supersession_reason IS NULL OR superseded_at IS NOT NULL),
    CHECK (length(statement) <= 280),
    CHECK (supersession_reason IS NULL OR supersession_reason IN
           ('contradicted_by_new_source', 'elaborated', 'manual_correction', 'source_drifted')),
    CHECK (confidence_hint IS NULL OR confidence_hint IN
           ('single_source', 'multi_source', 'authoritative', 'contested'))
);
CREATE VIRTUAL TABLE wiki_beliefs_fts USING fts5(
    statement, topic, subject, predicate, object,
    content='wiki_beliefs', content_rowid='rowid',
    tokenize='unicode61 remove_diacritics 2'
);
CREATE TABLE wiki_claim_provenance (
    workspace TEXT NOT NULL REFERENCES workspaces(slug) ON DELETE CASCADE,
    id TEXT NOT NULL,
    raw_path TEXT NOT NULL,
    page_hint,  -- integer or text, as the sidecar wrote it
    quote TEXT NOT NULL,
    quote_hash TEXT NOT NULL,
    verified_against_source INTEGER NOT NULL CHECK (verified_against_source IN (0, 1)),
    verification_reason TEXT NOT NULL,
    verified_at TEXT NOT NULL,
    sidecar TEXT NOT NULL,
    PRIMARY KEY (workspace, id)
);
CREATE TABLE belief_keys (
    belief_id TEXT PRIMARY KEY REFERENCES wiki_beliefs(belief_id) ON DELETE CASCADE,
    workspace TEXT NOT NULL,
    subject_key TEXT,
    predicate_key TEXT,
    topic_key TEXT NOT NULL,
    chain TEXT NOT NULL,  -- JSON array: the supersession chain through it, oldest first
    sidecar TEXT NOT NULL
);
"""

_INDEXES = """
CREATE INDEX idx_beliefs_workspace_topic ON wiki_beliefs(workspace, topic);
CREATE INDEX idx_beliefs_workspace_current ON wiki_beliefs(workspace)
    WHERE superseded_at IS NULL;
CREATE INDEX idx_beliefs_subject_predicate ON wiki_beliefs(workspace, subject, predicate)
    WHERE subject IS NOT NULL;
CREATE INDEX idx_beliefs_wiki_doc ON wiki_beliefs(wiki_document_id);
CREATE INDEX idx_beliefs_asserted_at ON wiki_beliefs(workspace, asserted_at DESC);
CREATE INDEX idx_beliefs_superseded_at ON wiki_beliefs(workspace, superseded_at DESC)
    WHERE superseded_at IS NOT NULL;
CREATE INDEX idx_keys_subject ON belief_keys(subject_key, predicate_key);
CREATE INDEX idx_keys_topic ON belief_keys(topic_key);
"""

#: Keep wiki_beliefs_fts in sync with wiki_beliefs on every later change.
_TRIGGERS = """
CREATE TRIGGER wiki_beliefs_ai AFTER INSERT ON wiki_beliefs BEGIN
    INSERT INTO wiki_beliefs_fts(rowid, statement, topic, subject, predicate, object)
    VALUES (new.rowid, new.statement, new.topic, new.subject, new.predicate, new.object);
END;
CREATE TRIGGER wiki_beliefs_ad AFTER DELETE ON wiki_beliefs BEGIN
    INSERT INTO wiki_beliefs_fts(wiki_beliefs_fts, rowid, statement, topic, subject,
                                 predicate, object)
    VALUES ('delete', old.rowid, old.statement, old.topic, old.subject, old.predicate,
            old.object);
END;
CREATE TRIGGER wiki_beliefs_au AFTER UPDATE ON wiki_beliefs BEGIN
    INSERT INTO wiki_beliefs_fts(wiki_beliefs_fts, rowid, statement, topic, subject,
                                 predicate, object)
    VALUES ('delete', old.rowid, old.statement, old.topic, old.subject, old.predicate,
            old.object);
    INSERT INTO wiki_beliefs_fts(rowid, statement, topic, subject, predicate, object)
    VALUES (new.rowid, new.statement, new.topic, new.subject, new.predicate, new.object);
END;
"""

BELIEF_COLUMNS = (
    "belief_id", "workspace", "statement", "topic", "subject", "predicate", "object",
    "wiki_document_id", "wiki_section_anchor", "footnote_ids", "provenance_ids", "asserted_at",
    "asserted_in_run", "superseded_at", "superseded_by_belief_id", "superseded_in_run",
    "supersession_reason", "source_valid_from", "source_valid_to", "supporting_count",
    "contradicting_belief_ids", "confidence_hint", "created_at",
)
_SIDE_TABLES = ("workspaces", "documents", "wiki_claim_provenance", "belief_keys")


#: Reused: json.dumps(..., ensure_ascii=False) builds a new encoder on every call.
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def _dumps(value: Sequence[str]) -> str:
    return _ENCODER.encode(list(value))


def belief_row(vb: VerifiedBelief) -> tuple[Any, ...]:
    """The ``wiki_beliefs`` row of a verified belief, in ``BELIEF_COLUMNS`` order."""
    b = vb.belief
    return (
        b.belief_id, vb.network, b.statement, b.topic, b.subject, b.predicate, b.object,
        vb.page, b.wiki_section_anchor, _dumps(b.footnote_ids), _dumps(b.provenance_ids),
        b.asserted_at, b.asserted_in_run, vb.superseded_at, b.superseded_by_belief_id,
        b.superseded_in_run, b.supersession_reason, b.source_valid_from, b.source_valid_to,
        vb.supporting_count,
        _dumps(vb.contradicting_belief_ids) if vb.contradicting_belief_ids else None,
        vb.confidence_hint, b.asserted_at,
    )


def _side_rows(belief_set: BeliefSet) -> dict[str, list[tuple[Any, ...]]]:
    networks = sorted({vb.network for vb in belief_set.beliefs.values()}
                      | {k[0] for k in belief_set.provenance})
    documents = sorted({(vb.page, vb.network, vb.page_url, vb.belief.sidecar)
                        for vb in belief_set.beliefs.values()})
    provenance = [
        (net, p.provenance.id, p.provenance.raw_path, p.provenance.page_hint,
         p.provenance.quote, p.provenance.quote_hash, int(p.check.verified), p.check.reason,
         p.check.verified_at, p.provenance.sidecar)
        for (net, _), p in belief_set.provenance.items()
    ]
    keys = [
        (b, vb.network, _key(vb.belief.subject), _key(vb.belief.predicate),
         normalize_name(vb.belief.topic), _dumps(belief_set.chain(b)), vb.belief.sidecar)
        for b, vb in belief_set.beliefs.items()
    ]
    return {"workspaces": [(n,) for n in networks], "documents": documents,
            "wiki_claim_provenance": provenance, "belief_keys": keys}


def _key(text: str | None) -> str | None:
    return normalize_name(text) if text else None


class BeliefStore:
    """An open belief index.  Use ``sync`` after every verification."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(self.path)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:
                conn.row_factory = sqlite3.Row
                return conn
            conn.close()
        except sqlite3.DatabaseError:
            pass
        self._create(self.path)
        conn = sqlite3.connect(self.path)
        conn.row_factory = sqlite3.Row
        return conn

    @staticmethod
    def _create(path: Path, belief_set: BeliefSet | None = None) -> None:
        """Write a new database at ``path`` atomically: schema (+ ``belief_set``) in one
        transaction."""
        with replaced(path) as temp:
            conn = sqlite3.connect(temp, isolation_level=None)
            try:
                # Explicit transactions: each DDL statement on its own would cost an
                # fsync.  (executescript commits whatever is pending, hence two.)
                conn.executescript(f"PRAGMA journal_mode = OFF; BEGIN; {_TABLES}")
                if belief_set is not None:
                    BeliefStore._fill(conn, belief_set)
                    conn.execute(
                        "INSERT INTO wiki_beliefs_fts(wiki_beliefs_fts) VALUES ('rebuild')")
                conn.executescript(f"BEGIN; {_INDEXES} {_TRIGGERS} "
                                   f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
            finally:
                conn.close()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> BeliefStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def rebuild(self, belief_set: BeliefSet) -> None:
        """Throw the index away and write it again from ``belief_set`` (deterministic)."""
        self.conn.close()
        self._create(self.path, belief_set)
        self.conn = self._connect()

    @staticmethod
    def _fill(conn: sqlite3.Connection, belief_set: BeliefSet) -> None:
        marks = ", ".join("?" * len(BELIEF_COLUMNS))
        conn.executemany(f"INSERT INTO wiki_beliefs VALUES ({marks})",
                         (belief_row(vb) for vb in belief_set.beliefs.values()))
        for table, rows in _side_rows(belief_set).items():
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)

    def sync(self, belief_set: BeliefSet) -> None:
        """Bring the index to ``belief_set`` by applying only what changed (one transaction)."""
        wanted = {vb.belief_id: belief_row(vb) for vb in belief_set.beliefs.values()}
        have = {row[0]: tuple(row) for row in self.conn.execute(
            f"SELECT {', '.join(BELIEF_COLUMNS)} FROM wiki_beliefs")}
        if not have and wanted:  # a first fill: one bulk write (an empty set keeps the file)
            self.rebuild(belief_set)
            return
        sets = ", ".join(f"{c} = ?" for c in BELIEF_COLUMNS[1:])
        marks = ", ".join("?" * len(BELIEF_COLUMNS))
        with self.conn:
            gone = [(b,) for b in sorted(have.keys() - wanted.keys())]
            self.conn.executemany("DELETE FROM wiki_beliefs WHERE belief_id = ?", gone)
            for belief_id in sorted(wanted):
                row = wanted[belief_id]
                if belief_id not in have:
                    self.conn.execute(f"INSERT INTO wiki_beliefs VALUES ({marks})", row)
                elif have[belief_id] != row:
                    self.conn.execute(f"UPDATE wiki_beliefs SET {sets} WHERE belief_id = ?",
                                      (*row[1:], belief_id))
            for table, rows in _side_rows(belief_set).items():
                if {tuple(r) for r in self.query(f"SELECT * FROM {table}")} == set(rows):
                    continue
                self.conn.execute(f"DELETE FROM {table}")
                if rows:
                    marks = ", ".join("?" * len(rows[0]))
                    self.conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)

    # -- reading -------------------------------------------------------------------

    def query(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, tuple(params)).fetchall()

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, ordered (for equality checks and debugging)."""
        found = {}
        for table in ("wiki_beliefs", *_SIDE_TABLES):
            width = len(self.query(f"PRAGMA table_info({table})"))
            order = ", ".join(str(i) for i in range(1, width + 1))
            found[table] = [tuple(r) for r in self.query(f"SELECT * FROM {table} ORDER BY {order}")]
        return found

    def iter_beliefs(self, network: str | None = None) -> Iterator[sqlite3.Row]:
        """Every belief row with its page URL, ordered by topic, asserted_at, id."""
        sql = ("SELECT b.*, d.url AS page_url FROM wiki_beliefs b "
               "LEFT JOIN documents d ON d.id = b.wiki_document_id")
        params: tuple[str, ...] = ()
        if network is not None:
            sql += " WHERE b.workspace = ?"
            params = (network,)
        yield from self.conn.execute(sql + " ORDER BY b.topic, b.asserted_at, b.belief_id",
                                     params)


def open_store(cache_dir: Path) -> BeliefStore:
    """The index in ``cache_dir`` (created empty, or reset when its version differs)."""
    return BeliefStore(cache_dir / FILENAME)

"""Queries (SPEC §8): the compiled graph in an embedded Cypher database, read-only."""

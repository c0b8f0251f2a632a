"""Scanning notes for names in several processes finds what one process finds.

A cold build scans every note (``MentionCache.scan_ahead``, in worker processes
above ``SCAN_POOL_THRESHOLD`` notes); the mentions, the kept scans and a later
incremental rebuild must be those of a scan in this process.
"""

from __future__ import annotations

import pytest
from beliefbase.builder import parallel
from beliefbase.compile import Compiler
from beliefbase.site.reader.mentions import (
    MENTIONS_SHOWN,
    SCAN_POOL_THRESHOLD,
    MentionCache,
    find_mentions,
)

from ..property.vault_edits import edited_vault

TOPICS = ["Red Planet", "Blue Moon", "Gamma Ray", "DRF", "Delta Wing", "Echo Chamber"]


def _notes(count: int) -> dict[str, str]:
    notes = {}
    for i in range(count):
        topic = TOPICS[i % len(TOPICS)]
        other = TOPICS[(i * 7 + 3) % len(TOPICS)]
        front = f"---\ntitle: {topic} {i}\naliases: [{topic}]\n---\n" if i < len(TOPICS) else ""
        notes[f"n{i:04d}"] = (f"{front}# Note {i}\n\nThe {other} meets the red planet "
                              f"and {topic.lower()}. See [[n{(i + 1) % count:04d}]].\n\n"
                              f"`{other}` in code. Note {i + 2} and DRF again.\n")
    return notes


@pytest.mark.parametrize("keep_words", [False, True])
def test_scans_in_workers_equal_scans_here(keep_words: bool,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pooled: list[int] = []

    def counted(func, items, processes):  # type: ignore[no-untyped-def]
        pooled.append(len(items))
        return shared_map(func, items, processes)

    shared_map = parallel.shared_map
    with edited_vault(_notes(SCAN_POOL_THRESHOLD + 25)) as vault:
        compiled = Compiler(vault.options).compile(vault.sources)
        monkeypatch.setattr(parallel, "shared_map", counted)  # the scans' only, not the parse's

        def body(doc):  # type: ignore[no-untyped-def]
            return (vault.docs / doc.path).read_text(encoding="utf-8")[doc.parsed.body_offset:]

        here, ahead = MentionCache(keep_words=keep_words), MentionCache(keep_words=keep_words)
        serial = find_mentions(compiled, body, here, workers=1)
        assert sum(found.total for found in serial.values()) > SCAN_POOL_THRESHOLD
        assert not pooled
        assert find_mentions(compiled, body, ahead, workers=2) == serial
        assert pooled == [SCAN_POOL_THRESHOLD + 25]
        assert ahead.notes.keys() == here.notes.keys()
        for digest, seen in here.notes.items():
            kept = ahead.notes[digest]
            assert kept.hits == seen.hits
            assert kept.names is seen.names or kept.names == seen.names
            assert (kept.words is None) == (not keep_words)
            if keep_words:
                assert kept.words._hashes == seen.words._hashes  # type: ignore[union-attr]

        # a rename afterwards: the kept scans are updated, not redone, alike
        sources = vault.edit("n0003", False, "---\ntitle: Moon River\n---\n# Moon\n\nRed planet.\n")
        compiled = Compiler(vault.options).compile(sources)
        assert find_mentions(compiled, body, ahead, workers=2) == find_mentions(
            compiled, body, MentionCache(), workers=1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_build_with_none_after_it_finds_the_same_without_keeping_sources(
        workers: int) -> None:
    """``keep=False`` (``mkdocs build``): the same panels, and neither each source's
    findings nor each target's full list of sources is made (only the shown ones)."""
    with edited_vault(_notes(SCAN_POOL_THRESHOLD + 25)) as vault:
        compiled = Compiler(vault.options).compile(vault.sources)

        def body(doc):  # type: ignore[no-untyped-def]
            return (vault.docs / doc.path).read_text(encoding="utf-8")[doc.parsed.body_offset:]

        once = MentionCache(keep_words=False)
        found = find_mentions(compiled, body, once, workers=workers, keep=False)
        kept = find_mentions(compiled, body, MentionCache(keep_words=False), workers=workers)
        assert found == kept
        assert max(m.total for m in found.values()) > MENTIONS_SHOWN  # some counted only
        assert not once.sources and not once.by_target and not once.result

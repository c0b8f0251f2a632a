"""The parse cache written by a forked child while the build goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from beliefbase.builder.cache import BACKGROUND_THRESHOLD, CACHE_FILE, ParseCache
from beliefbase.builder.parse import parse_many
from beliefbase.ids import SrcPath

DIGEST = "options-digest"


def _store(cache: ParseCache, names: list[str]) -> None:
    jobs = [(SrcPath(f"{name}.md"), "markdown", f"# {name}\n\nSee [[{name}x]].\n".encode(),
             f"docs/{name}.md") for name in names]
    for i, doc in enumerate(parse_many(jobs, workers=1)):
        cache.store(doc, (i, 10 + i))


def _filled(cache_dir: Path, count: int) -> ParseCache:
    cache = ParseCache(DIGEST, cache_dir)
    _store(cache, [f"n{i}" for i in range(count)])
    return cache


@pytest.mark.skipif(not hasattr(os, "fork"), reason="background saves need fork")
def test_a_background_save_writes_what_a_save_writes(tmp_path: Path) -> None:
    cache = _filled(tmp_path / "bg", BACKGROUND_THRESHOLD)
    cache.save(background=True)
    assert cache._saving is not None, "a cache this large is written by a child"
    cache.wait()
    assert cache._saving is None and not cache._dirty

    serial = _filled(tmp_path / "fg", BACKGROUND_THRESHOLD)
    serial.save()
    assert serial._saving is None
    again = ParseCache(DIGEST, tmp_path / "bg")
    assert again._entries.keys() == serial._entries.keys()
    assert {p: e.parsed for p, e in again._entries.items()} == {
        p: e.parsed for p, e in serial._entries.items()}
    assert not list((tmp_path / "bg").glob(".*.tmp")), "no temporary file left"


def test_a_small_cache_is_written_here(tmp_path: Path) -> None:
    cache = _filled(tmp_path, 3)
    cache.save(background=True)
    assert cache._saving is None
    assert (tmp_path / CACHE_FILE).exists()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="background saves need fork")
def test_a_child_that_cannot_write_leaves_the_cache_unsaved(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    cache = _filled(blocked, BACKGROUND_THRESHOLD)
    blocked.write_text("a file where the cache folder should be")  # mkdir fails
    cache.save(background=True)
    assert cache._saving is not None
    cache.wait()
    assert cache._dirty, "the next save must try again"
    blocked.unlink()
    cache.save()
    assert (blocked / CACHE_FILE).exists()
    assert len(ParseCache(DIGEST, blocked)._entries) == BACKGROUND_THRESHOLD


@pytest.mark.skipif(not hasattr(os, "fork"), reason="background saves need fork")
def test_a_second_save_waits_for_the_first(tmp_path: Path) -> None:
    cache = _filled(tmp_path, BACKGROUND_THRESHOLD)
    cache.save(background=True)
    first = cache._saving
    assert first is not None
    _store(cache, ["extra"])
    cache.save(background=True)
    assert first.exitcode == 0, "the older snapshot landed before the newer one started"
    cache.wait()
    assert SrcPath("extra.md") in ParseCache(DIGEST, tmp_path)._entries

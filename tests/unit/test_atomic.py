"""``atomic``: a file is replaced whole or not at all, readable like any other file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from beliefbase import atomic


def test_a_file_is_written_whole_and_its_folder_made(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "graph.json"
    atomic.write_text(target, "é" * 3)
    assert target.read_text(encoding="utf-8") == "ééé"
    atomic.write_chunks(target, iter(["x", "y"]))
    assert target.read_bytes() == b"xy"
    atomic.write_bytes(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in target.parent.iterdir()) == ["graph.json"]


def test_a_failed_write_keeps_the_old_file_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "index.json"
    target.write_text("old", encoding="utf-8")

    def chunks() -> Iterator[str]:
        yield "half"
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        atomic.write_chunks(target, chunks())
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["index.json"]


def test_written_files_have_the_usual_permissions(tmp_path: Path) -> None:
    """Not owner-only as ``mkstemp`` makes them: a web server must read the site."""
    mask = os.umask(0o022)
    try:
        atomic.write_text(tmp_path / "page.html", "<p>")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "page.html").stat().st_mode) == 0o644

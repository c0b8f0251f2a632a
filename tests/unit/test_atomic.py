"""``atomic``: a file is replaced whole or not at all, readable like any other file."""

from __future__ import annotations

import os
import stat
import threading
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


def test_replaced_moves_what_the_block_created_or_removes_it(tmp_path: Path) -> None:
    """``replaced`` (writers that create the file themselves: SQLite, write-back)."""
    target = tmp_path / "index.sqlite"
    target.write_bytes(b"old")
    with atomic.replaced(target) as temp:
        assert temp.parent == tmp_path and temp.name.startswith(".index.sqlite.")
        temp.write_bytes(b"new")
    assert target.read_bytes() == b"new"
    with pytest.raises(RuntimeError), atomic.replaced(target) as temp:
        temp.write_bytes(b"half")
        raise RuntimeError("interrupted")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["index.sqlite"]


def test_a_temporary_file_a_dead_process_left_is_not_in_the_way(tmp_path: Path) -> None:
    """Write-back creates its temporary file exclusively (as ``mkstemp`` did): one left
    at this process's name by a crash is removed, not a reason to refuse the edit."""
    from beliefbase.writeback import edit_file

    note = tmp_path / "note.md"
    note.write_bytes(b"body\n")
    stale = tmp_path / f".note.md.{os.getpid()}-{threading.get_ident()}.tmp"
    stale.write_bytes(b"left by a crash")
    result = edit_file(note, str.upper, root=tmp_path)
    assert result.written and result.refused is None
    assert note.read_bytes() == b"BODY\n"
    assert [p.name for p in tmp_path.iterdir()] == ["note.md"]


def test_a_stale_temporary_file_is_replaced_and_a_file_for_a_folder_refused(
        tmp_path: Path) -> None:
    """``write_text`` creates its temporary file exclusively and makes the folder only
    when that fails: a file a dead process left at this process's temporary name is
    removed, not written through, and a file where the folder would be is an error that
    leaves nothing behind."""
    target = tmp_path / "page.html"
    stale = tmp_path / f".page.html.{os.getpid()}-{threading.get_ident()}.tmp"
    stale.write_bytes(b"left by a crash, longer than what is written next")
    atomic.write_text(target, "new")
    assert target.read_bytes() == b"new"
    with atomic.replacing(target) as handle:
        handle.write("text é")
    assert target.read_text(encoding="utf-8") == "text é"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]
    with pytest.raises(OSError):
        atomic.write_text(target / "index.html", "x")  # its folder would be a file
    with pytest.raises(OSError):
        atomic.write_bytes(tmp_path / "page.html" / "sub" / "a.bin", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_a_large_text_is_written_whole(tmp_path: Path) -> None:
    """``write_bytes`` writes until every byte is out (``os.write`` may write part)."""
    text = "ü" * 300_000 + "\n" + "x" * 70_000
    atomic.write_text(tmp_path / "big.txt", text)
    assert (tmp_path / "big.txt").read_text(encoding="utf-8") == text
    atomic.write_chunks(tmp_path / "big.txt", [text[:100_000], text[100_000:]])
    assert (tmp_path / "big.txt").read_text(encoding="utf-8") == text

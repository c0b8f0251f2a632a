"""Fault injection for ``writeback.edit_file`` and ``beliefbase sync`` (SPEC 10).

A write can fail at every step of the atomic replace: the temp file's
creation, a write (disk full), the fsync, the chmod, the rename; and a file
can be read-only.  Each time the original file stays byte-identical, no temp
file is left behind, and the command says what failed (exit 2) without a
traceback.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from beliefbase import writeback
from beliefbase.writeback import edit_file

from tests.cli.test_check import run

ORIGINAL = b"\xef\xbb\xbf---\r\ntitle: T\r\n---\r\nbody without final newline"


def _failing(real: Callable[..., Any], code: int, after: int = 0) -> Callable[..., Any]:
    """``real`` that raises OSError(``code``) from its ``after``-th call on."""
    calls = [0]

    def fake(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] > after:
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    return fake


def _short_writes(real: Callable[..., Any]) -> Callable[..., Any]:
    """``os.write`` that writes one byte, then finds the disk full."""
    calls = [0]

    def fake(fd: int, data: Any) -> int:
        calls[0] += 1
        if calls[0] > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return int(real(fd, bytes(data[:1])))

    return fake


FAULTS: dict[str, tuple[str, Callable[[Callable[..., Any]], Callable[..., Any]], str]] = {
    "disk full at the first write": ("write", lambda r: _failing(r, errno.ENOSPC),
                                     "No space left on device"),
    "disk full after a short write": ("write", _short_writes, "No space left on device"),
    "I/O error at fsync": ("fsync", lambda r: _failing(r, errno.EIO), "Input/output error"),
    "disk full at fsync": ("fsync", lambda r: _failing(r, errno.ENOSPC),
                           "No space left on device"),
    "failed chmod": ("chmod", lambda r: _failing(r, errno.EPERM), "Operation not permitted"),
    "failed rename": ("replace", lambda r: _failing(r, errno.EXDEV), "Invalid cross-device link"),
    "no temp file (folder read-only)": ("open", lambda r: _failing(r, errno.EACCES),
                                        "Permission denied"),
}


def _upper(text: str) -> str:
    return text.replace("body", "BODY")


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_failed_step_keeps_the_file_and_leaves_no_temp(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    name, make, message = FAULTS[fault]
    note = tmp_path / "note.md"
    note.write_bytes(ORIGINAL)
    monkeypatch.setattr(writeback.os, name, make(getattr(os, name)))
    result = edit_file(note, _upper, root=tmp_path)
    monkeypatch.undo()
    assert result.changed and not result.written
    assert result.refused == f"cannot write {note}: {message}"
    assert note.read_bytes() == ORIGINAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["note.md"]
    assert edit_file(note, _upper, root=tmp_path).written  # nothing left in the way


def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(ORIGINAL)
    note.chmod(0o444)
    result = edit_file(note, _upper, root=tmp_path)
    assert result.refused == f"{note} is read-only; make it writable to let this command edit it"
    assert not result.written and note.read_bytes() == ORIGINAL
    assert edit_file(note, _upper, root=tmp_path, check=True).changed  # --check still tells
    assert sorted(p.name for p in tmp_path.iterdir()) == ["note.md"]


def _in(folder: Path, real: Callable[..., Any], code: int) -> Callable[..., Any]:
    """``real`` failing with ``code`` for files in ``folder`` only (the compile's cache
    writes go on as usual)."""
    by_fd = real is os.write  # os.write(fd, data); os.replace(src, dst)

    def fake(*args: Any, **kwargs: Any) -> Any:
        where = os.readlink(f"/proc/self/fd/{args[0]}") if by_fd else args[-1]
        if str(where).startswith(str(folder)):
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    return fake


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell fds apart")
@pytest.mark.parametrize("name", ["write", "replace"])
def test_sync_reports_a_full_disk_without_a_traceback(  # type: ignore[no-untyped-def]
        project, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    project.write("a.md", ORIGINAL)
    project.write("b.md", "# B\n")
    monkeypatch.setattr(os, name, _in(project.docs, getattr(os, name), errno.ENOSPC))
    result = run(project, "sync")
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert sorted(result.stderr.splitlines()) == [
        f"docs/{n}: not changed: cannot write {project.docs / n}: No space left on device"
        for n in ("a.md", "b.md")]
    assert (project.docs / "a.md").read_bytes() == ORIGINAL
    assert (project.docs / "b.md").read_bytes() == b"# B\n"
    assert sorted(p.name for p in project.docs.iterdir()) == ["a.md", "b.md"]
    assert run(project, "sync").exit_code == 0  # and once there is room, it writes

"""A note is read from disk and decoded once per build, also when a worker parses it.

The parse of a cold compile shares the notes with a worker process
(``builder.parallel``); the text a worker decodes comes back with its parse
(``builder.parse.parse_many``) into the compile's ``Compiled.texts``, where the
entities, the page, its embeds and the panels take it.  Every ``open`` of a note
and every ``decode`` of one, in any process of the build, is logged here (the
log is appended to with ``os.write``, which a forked worker shares).
"""

from __future__ import annotations

import builtins
import io
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import beliefbase.builder.parse as compiler_module
import beliefbase.codecs.markdown as codec
import pytest
from beliefbase.builder import parallel

from ..conftest import Project

NOTES = 48


def _vault(project: Project) -> None:
    for i in range(NOTES):
        # each note's first line names it in the decode log; some prose and links
        # so that the page, the panels, embeds and mentions all read notes
        prose = "\n\n".join(f"Paragraph {k} of note {i} mentions Note {(i + k) % NOTES}."
                            for k in range(20))
        project.write(f"n{i}.md", f"# Note {i}\n\nSee [[n{(i + 1) % NOTES}]] and "
                      f"[next](n{(i + 2) % NOTES}.md).\n\n![[n{(i + 3) % NOTES}#Part]]\n\n"
                      f"## Part\n\n{prose}\n", dedent=False)


def _logging(monkeypatch: pytest.MonkeyPatch, log: Path, docs: str) -> None:
    """Log every open of a note under ``docs`` and every decode, with the process's id."""
    real_open = io.open

    def write(line: str) -> None:
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, f"{os.getpid()} {line}\n".encode())
        finally:
            os.close(fd)

    def logged_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        name = os.fspath(file) if isinstance(file, (str, os.PathLike)) else ""
        if isinstance(name, str) and name.startswith(docs) and name.endswith(".md"):
            write(f"open {os.path.relpath(name, docs)}")
        return real_open(file, *args, **kwargs)

    real_decode: Callable[[bytes], tuple[str, bool]] = codec.decode

    def logged_decode(data: bytes) -> tuple[str, bool]:
        first_line = data.split(b"\n", 1)[0].decode()
        write(f"decode {first_line}")
        return real_decode(data)

    monkeypatch.setattr(builtins, "open", logged_open)
    monkeypatch.setattr(io, "open", logged_open)
    monkeypatch.setattr(codec, "decode", logged_decode)


def test_a_note_parsed_in_a_worker_is_read_and_decoded_once(
    project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    _vault(project)
    log = tmp_path / "reads.log"
    # the parse of these few notes in two processes (its own threshold is 300)
    monkeypatch.setattr(compiler_module, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    # this process claims no chunk: the worker parses every note, however fast each
    # process starts (before, a busy machine let this process take them all)
    monkeypatch.setattr(parallel.UnclaimedIndexes, "back", lambda self: None)
    _logging(monkeypatch, log, str(project.docs))
    result = project.build()
    monkeypatch.undo()
    assert result.error is None, result.error
    events, opens, decodes = _counted(log)
    assert opens == Counter({f"n{i}.md": 1 for i in range(NOTES)}), opens
    assert decodes == Counter({f"# Note {i}": 1 for i in range(NOTES)}), decodes
    # (and the worker did parse some of them: else this proves nothing)
    assert {pid for pid, kind, _name in events if kind == "decode"} - {str(os.getpid())}


def _counted(log: Path) -> tuple[list[list[str]], Counter[str], Counter[str]]:
    """The logged (pid, kind, name) events, and the opens and decodes by name."""
    events = [line.split(" ", 2) for line in log.read_text().splitlines()]
    opens = Counter(name for _pid, kind, name in events if kind == "open")
    decodes = Counter(name for _pid, kind, name in events if kind == "decode")
    return events, opens, decodes


@pytest.mark.parametrize("touched", [False, True])
def test_a_note_the_parse_cache_knew_is_read_and_decoded_once(
    project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, touched: bool,
) -> None:
    """Known by its modification time and size, the render reads the note; known by its
    content only (``touched``: a fresh checkout), the parse read it and decodes it."""
    for i in range(3):
        project.write(f"n{i}.md", f"# Note {i}\n\nSee [[n{(i + 1) % 3}]].\n")
    assert project.build().error is None  # the parse cache is on disk
    if touched:
        for i in range(3):
            os.utime(project.docs / f"n{i}.md", ns=(10**18, 10**18))
    log = tmp_path / "reads.log"
    _logging(monkeypatch, log, str(project.docs))
    result = project.build()
    monkeypatch.undo()
    assert result.error is None, result.error
    _events, opens, decodes = _counted(log)
    assert opens == Counter({f"n{i}.md": 1 for i in range(3)}), opens
    assert decodes == Counter({f"# Note {i}": 1 for i in range(3)}), decodes

"""A note is read and decoded once per build: the render takes the text the parse decoded."""

from __future__ import annotations

import builtins
import io
import os
import pathlib
from collections import Counter
from typing import Any

import pytest
from beliefbase.builder.parse import parse_many
from beliefbase.builder.texts import DecodedTexts, TextSpill
from beliefbase.codecs.markdown import digest
from beliefbase.ids import SrcPath

from ..conftest import Project


def test_kept_only_while_open() -> None:
    texts = DecodedTexts()
    texts.keep(SrcPath("a.md"), "x", "text")
    assert texts.peek(SrcPath("a.md"), "x") is None  # closed: nothing kept
    texts.open()
    texts.keep(SrcPath("a.md"), "x", "text")
    assert texts.peek(SrcPath("a.md"), "y") is None  # another version of the file
    assert texts.peek(SrcPath("a.md"), "x") == "text"
    assert texts.peek(SrcPath("a.md"), "x") == "text"  # as often as asked
    texts.keep(SrcPath("b.md"), "x", "text")
    texts.close()
    assert texts.peek(SrcPath("b.md"), "x") is None


def test_the_parse_keeps_the_text_it_decoded() -> None:
    data = "\ufeffA\r\nB %%hidden%% C\r\n".encode()
    texts = DecodedTexts()
    texts.open()
    [parsed] = parse_many([(SrcPath("a.md"), "markdown", data, "docs/a.md")], 1, texts)
    assert parsed.digest == digest(data)
    assert texts.peek(SrcPath("a.md"), parsed.digest) == "A\nB  C\n"
    closed = DecodedTexts()  # a compile that keeps no texts (the command line)
    parse_many([(SrcPath("a.md"), "markdown", data, "docs/a.md")], 1, closed)
    assert closed.peek(SrcPath("a.md"), parsed.digest) is None


def test_a_build_reads_each_note_once(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.write("index.md", "# Home\n\nSee [[a]] and ![[b]].\n")
    project.write("a.md", "# A\n\nText of a, [[b]].\n")
    project.write("b.md", "# B\n\nText of b.\n")
    reads: Counter[str] = Counter()
    real = io.open

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        # every open of a note, the parse's and the render's (``Path.read_bytes`` too)
        path = pathlib.Path(file) if isinstance(file, (str, os.PathLike)) else None
        if path is not None and path.suffix == ".md" and path.parent == project.docs:
            reads[path.name] += 1
        return real(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting_open)
    monkeypatch.setattr(builtins, "open", counting_open)
    result = project.build()
    monkeypatch.undo()
    assert result.error is None
    assert "Text of b." in result.page("b/")
    assert reads == {"index.md": 1, "a.md": 1, "b.md": 1}


def test_spilled_texts_come_back_as_they_went() -> None:
    spill = TextSpill()
    texts = {f"n{i}": f"# Note {i}\n\u00e9\u4e2d \ud83d\ude00 \udcff lone\n" * (i + 1)
             for i in range(20)}  # more than the few kept decoded
    for key, text in texts.items():
        spill.put(key, text)
    for _ in range(2):
        for key, text in texts.items():
            assert spill.get(key) == text
    assert spill.get("missing") is None
    spill.put("n0", "replaced")
    assert spill.get("n0") == "replaced"
    spill.close()
    assert spill.get("n1") is None and len(spill) == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_process_writes_a_file_of_its_own() -> None:
    """A worker forked from the build adds texts without overwriting the build's."""
    spill = TextSpill()
    spill.put("a", "the build's a")
    go_read, go_write = os.pipe()
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: once the build has added b, adds a text of its own
        os.read(go_read, 1)
        spill.put("w", "the worker's w, longer than b")
        ok = spill.get("a") == "the build's a" and spill.get("w") == "the worker's w, longer than b"
        os.write(done_write, b"1" if ok else b"0")
        os._exit(0)
    spill.put("b", "the build's b")  # at the end of the file both know
    os.write(go_write, b"1")
    assert os.read(done_read, 1) == b"1"
    os.waitpid(pid, 0)
    for fd in (go_read, go_write, done_read, done_write):
        os.close(fd)
    assert spill.get("a") == "the build's a" and spill.get("b") == "the build's b"
    assert spill.get("w") is None


def test_a_snapshot_reads_the_texts_without_touching_the_spill() -> None:
    """``TextSpill.snapshot`` (the panels' burst): the same texts, every one read from
    the spill's file through a table of its own, the spill's untouched (a forked
    process reading the spill wrote into its pages: its recent texts, the
    reference counts of its entries); texts put later are not in it."""
    spill = TextSpill()
    texts = {f"n{i}": f"# Note {i}\n\u00e9 \ud83d\ude00 \udcff\n" * (i + 1) for i in range(12)}
    for key, text in texts.items():
        spill.put(key, text)
    spill.get("n0")
    recent = dict(spill._recent)
    snapshot = spill.snapshot()
    for _ in range(2):
        for key, text in texts.items():
            assert snapshot.get(key) == text
    assert snapshot.get("missing") is None
    assert spill._recent == recent
    spill.put("later", "x")
    assert snapshot.get("later") is None and spill.get("later") == "x"
    spill.close()

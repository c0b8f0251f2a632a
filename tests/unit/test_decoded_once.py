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
from beliefbase.builder.texts import DecodedTexts
from beliefbase.codecs.markdown import digest
from beliefbase.ids import SrcPath

from ..conftest import Project


def test_kept_only_while_open_and_taken_once() -> None:
    texts = DecodedTexts()
    texts.keep(SrcPath("a.md"), "x", "text")
    assert texts.take(SrcPath("a.md"), "x") is None  # closed: nothing kept
    texts.open()
    texts.keep(SrcPath("a.md"), "x", "text")
    assert texts.take(SrcPath("a.md"), "y") is None  # another version of the file
    assert texts.take(SrcPath("a.md"), "x") == "text"
    assert texts.take(SrcPath("a.md"), "x") is None  # once
    texts.keep(SrcPath("b.md"), "x", "text")
    texts.close()
    assert texts.take(SrcPath("b.md"), "x") is None


def test_the_parse_keeps_the_text_it_decoded() -> None:
    data = "\ufeffA\r\nB %%hidden%% C\r\n".encode()
    texts = DecodedTexts()
    texts.open()
    [parsed] = parse_many([(SrcPath("a.md"), "markdown", data, "docs/a.md")], 1, texts)
    assert parsed.digest == digest(data)
    assert texts.take(SrcPath("a.md"), parsed.digest) == "A\nB  C\n"
    closed = DecodedTexts()  # a compile that keeps no texts (the command line)
    parse_many([(SrcPath("a.md"), "markdown", data, "docs/a.md")], 1, closed)
    assert closed.take(SrcPath("a.md"), parsed.digest) is None


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

"""A note is read and decoded once per build: the render takes the text the parse decoded."""

from __future__ import annotations

import pathlib
from collections import Counter

import pytest
from beliefbase.codecs.markdown import DECODED, DecodedTexts, digest, parse_markdown
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
    DECODED.open()
    try:
        parsed = parse_markdown(SrcPath("a.md"), data, "docs/a.md")
        assert parsed.digest == digest(data)
        assert DECODED.take(SrcPath("a.md"), parsed.digest) == "A\nB  C\n"
    finally:
        DECODED.close()


def test_a_build_reads_each_note_once(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.write("index.md", "# Home\n\nSee [[a]] and ![[b]].\n")
    project.write("a.md", "# A\n\nText of a, [[b]].\n")
    project.write("b.md", "# B\n\nText of b.\n")
    reads: Counter[str] = Counter()
    real = pathlib.Path.read_bytes

    def read_bytes(self: pathlib.Path) -> bytes:
        if self.suffix == ".md" and self.parent == project.docs:
            reads[self.name] += 1
        return real(self)

    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
    result = project.build()
    assert result.error is None
    assert "Text of b." in result.page("b/")
    assert reads == {"index.md": 1, "a.md": 1, "b.md": 1}

"""``beliefbase.writeback.edit_file``: the SPEC 10 rules, with property tests."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest
from beliefbase.writeback import EditError, edit_file, newline_of, unified_diff
from hypothesis import given, settings
from hypothesis import strategies as st


def upper_word(word: str):  # type: ignore[no-untyped-def]
    """A transform that upper-cases the first occurrence of ``word`` (idempotent)."""
    return lambda text: text.replace(word, word.upper(), 1)


def test_edit_changes_only_the_edited_bytes(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    data = b"\xef\xbb\xbfline one\r\nthe word\r\nlast line without newline"
    path.write_bytes(data)
    result = edit_file(path, upper_word("word"))
    assert (result.changed, result.written, result.refused) == (True, True, None)
    assert path.read_bytes() == data.replace(b"word", b"WORD")


def test_second_run_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("a word\n")
    edit_file(path, upper_word("word"))
    again = edit_file(path, upper_word("word"))
    assert (again.changed, again.written) == (False, False)


def test_check_and_diff_write_nothing(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"x\r\na word\r\ny\r\n")
    before = path.stat().st_mtime_ns
    checked = edit_file(path, upper_word("word"), check=True)
    assert (checked.changed, checked.written, checked.diff) == (True, False, "")
    shown = edit_file(path, upper_word("word"), diff=True, label="docs/a.md")
    assert shown.diff == ("--- a/docs/a.md\n+++ b/docs/a.md\n@@ -1,3 +1,3 @@\n x\n-a word\n"
                          "+a WORD\n y\n")
    assert path.read_bytes() == b"x\r\na word\r\ny\r\n" and path.stat().st_mtime_ns == before


def test_refuses_a_file_changed_since_read(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("a word\n")

    def sneaky(text: str) -> str:
        path.write_text("someone else's edit\n")  # lands between our read and our write
        return text.replace("word", "WORD")

    result = edit_file(path, sneaky)
    assert (result.written, result.refused) == (False, f"{path} changed since it was read")
    assert path.read_text() == "someone else's edit\n"


def test_refuses_when_the_expected_content_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("a word\n")
    stale = hashlib.sha256(b"older content").hexdigest()
    result = edit_file(path, upper_word("word"), expect_sha256=stale)
    assert result.refused == f"{path} changed since it was read"
    assert path.read_text() == "a word\n"


def test_refuses_outside_root_and_follows_symlinks_inside(tmp_path: Path) -> None:
    root, outside = tmp_path / "docs", tmp_path / "outside.md"
    root.mkdir()
    outside.write_text("a word\n")
    (root / "out.md").symlink_to(outside)
    refused = edit_file(root / "out.md", upper_word("word"), root=root)
    assert refused.refused is not None and "outside" in refused.refused
    assert outside.read_text() == "a word\n"
    (root / "real.md").write_text("a word\n")
    (root / "link.md").symlink_to(root / "real.md")
    done = edit_file(root / "link.md", upper_word("word"), root=root)
    assert done.written and (root / "link.md").is_symlink()
    assert (root / "real.md").read_text() == "a WORD\n"


def test_refuses_invalid_encoding_and_transform_errors(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"caf\xe9 word\n")
    assert "is not valid utf-8" in str(edit_file(path, upper_word("word")).refused)

    def impossible(text: str) -> str:
        raise EditError("no such mention")

    path.write_text("a word\n")
    assert edit_file(path, impossible).refused == "no such mention"

    def reject(text: str) -> None:
        raise EditError("would break the file")

    assert edit_file(path, upper_word("word"), validate=reject).refused == "would break the file"
    assert path.read_text() == "a word\n"


def test_keeps_the_file_mode_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("a word\n")
    os.chmod(path, 0o640)
    edit_file(path, upper_word("word"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md"]


def test_newline_of() -> None:
    assert newline_of("a\r\nb\r\n") == "\r\n"
    assert newline_of("a\nb\n") == newline_of("") == "\n"
    assert newline_of("a\r\nb\nc\r\n") == "\r\n"


def test_diff_marks_a_missing_final_newline() -> None:
    assert unified_diff("a", "b", "f").endswith("+b\n\\ No newline at end of file\n")


# -- properties ------------------------------------------------------------------------

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=200)


@settings(max_examples=200, deadline=None)
@given(before=_text, after=_text, old=st.text(min_size=1, max_size=10), new=_text,
       bom=st.booleans(), crlf=st.booleans())
def test_bytes_outside_the_edit_are_preserved(tmp_path_factory: pytest.TempPathFactory,
                                              before: str, after: str, old: str, new: str,
                                              bom: bool, crlf: bool) -> None:
    marker = "\x00EDIT\x00"
    text = before + marker + after
    if crlf:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    prefix = b"\xef\xbb\xbf" if bom else b""
    path = tmp_path_factory.mktemp("p") / "f.txt"
    path.write_bytes(prefix + text.encode())
    head, tail = text.split(marker)
    result = edit_file(path, lambda t: t.replace(marker, new, 1))
    assert path.read_bytes() == prefix + (head + new + tail).encode()
    assert result.changed == (new != marker)
    # idempotent once applied: the marker is gone, so a second run is a no-op
    assert not edit_file(path, lambda t: t.replace(marker, new, 1)).changed or marker in new


@settings(max_examples=100, deadline=None)
@given(content=_text, bom=st.booleans())
def test_check_mode_never_writes(tmp_path_factory: pytest.TempPathFactory, content: str,
                                 bom: bool) -> None:
    path = tmp_path_factory.mktemp("c") / "f.txt"
    data = (b"\xef\xbb\xbf" if bom else b"") + content.encode()
    path.write_bytes(data)
    result = edit_file(path, lambda t: t + "x", check=True)
    assert result.changed and not result.written and path.read_bytes() == data

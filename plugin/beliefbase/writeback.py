"""Writing to user files (SPEC 10): the one way every explicit command edits a file.

``edit_file(path, transform, check=..., diff=...)`` reads the file's bytes,
hands the decoded text to ``transform`` and, when the text changed, replaces
the file atomically (temp file in the same folder, fsync, rename, mode kept).
It keeps what ``transform`` does not touch byte for byte: the BOM is split off
and put back, line endings are never translated (the transform sees ``\\r\\n``
as written; ``newline_of`` tells it which to insert), the trailing newline is
the transform's to keep.  It refuses — writing nothing and saying why — when
the file changed since it was read (or since the caller's ``expect_sha256``),
when it is not valid in its encoding, when it lies (symlinks resolved) outside
``root``, when it is read-only, or when the transform or ``validate`` raises
``EditError``.  A write that fails (disk full, an I/O error at write, fsync or
rename) is reported the same way, and leaves the file as it was and no temp
file behind.
``check`` and ``diff`` compute the change and write nothing.  A transform that
returns its input unchanged makes the edit a no-op, so idempotent transforms
give idempotent commands.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .atomic import replaced

BOM = b"\xef\xbb\xbf"
# The temporary file's flags, as mkstemp opens it: a new file (not one planted at its
# name, not through a symbolic link), bytes as they are on Windows too.
_CREATE_NEW = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_BINARY", 0))


class EditError(ValueError):
    """A transform (or validation) that cannot be applied; the message says why."""


@dataclass(frozen=True, slots=True)
class EditResult:
    """What ``edit_file`` did.

    Attributes:
        path: the file edited (a symlink inside ``root`` is followed to its target).
        changed: the transform changes the file (what ``--check`` reports).
        written: the file was replaced.
        diff: unified diff of the change ("" when unchanged or not asked for).
        refused: why nothing was written although something would change, else None.
    """

    path: Path
    changed: bool
    written: bool
    diff: str = ""
    refused: str | None = None


def newline_of(text: str) -> str:
    """The line ending a file mostly uses: ``"\\r\\n"`` or ``"\\n"`` (``"\\n"`` if none)."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"


def unified_diff(old: str, new: str, label: str) -> str:
    """A unified diff for people: CRLF shown as LF, a missing final newline marked."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True),
        fromfile=f"a/{label}", tofile=f"b/{label}",
    )
    out = []
    for line in lines:
        if line.endswith("\r\n"):
            line = line[:-2] + "\n"
        elif not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


def edit_file(
    path: Path,
    transform: Callable[[str], str],
    *,
    check: bool = False,
    diff: bool = False,
    root: Path | None = None,
    expect_sha256: str | None = None,
    validate: Callable[[str], None] | None = None,
    encoding: str = "utf-8",
    label: str | None = None,
) -> EditResult:
    """Apply ``transform`` to the text of ``path`` under the SPEC 10 rules (module doc).

    Args:
        check, diff: compute the change, write nothing (``diff`` also fills ``.diff``).
        root: refuse files that are (or resolve to) outside this folder.
        expect_sha256: refuse unless the file still has this content (read earlier).
        validate: called with the new text before writing; raise ``EditError`` to refuse.
        label: the path shown in the diff header (default: ``path`` as given).
    """
    target, refused = _target(path, root)
    if refused:
        return EditResult(path, False, False, refused=refused)
    try:
        data = target.read_bytes()
    except OSError as exc:
        return EditResult(target, False, False, refused=f"cannot read {path}: {exc.strerror}")
    if expect_sha256 is not None and hashlib.sha256(data).hexdigest() != expect_sha256:
        return EditResult(target, False, False, refused=f"{path} changed since it was read")
    bom = BOM if encoding.replace("-", "").lower() == "utf8" and data.startswith(BOM) else b""
    try:
        text = data[len(bom):].decode(encoding)
    except UnicodeDecodeError as exc:
        return EditResult(target, False, False, refused=f"{path} is not valid {encoding}: {exc}")
    try:
        new_text = transform(text)
        if new_text != text and validate is not None:
            validate(new_text)
    except EditError as exc:
        return EditResult(target, False, False, refused=str(exc))
    if new_text == text:
        return EditResult(target, False, False)
    shown = unified_diff(text, new_text, label or path.as_posix()) if diff else ""
    if check or diff:
        return EditResult(target, True, False, shown)
    new_data = bom + new_text.encode(encoding)
    if not _writable(target):
        return EditResult(target, True, False, shown,
                          f"{path} is read-only; make it writable to let this command edit it")
    try:
        if target.read_bytes() != data:
            return EditResult(target, True, False, shown, f"{path} changed since it was read")
        _replace(target, new_data)
    except OSError as exc:
        return EditResult(target, True, False, shown, f"cannot write {path}: {exc.strerror or exc}")
    return EditResult(target, True, True, shown)


def _target(path: Path, root: Path | None) -> tuple[Path, str | None]:
    """The real file to edit (symlinks followed) or why it may not be edited."""
    real = Path(os.path.realpath(path))
    if root is not None:
        base = Path(os.path.realpath(root))
        if real != base and base not in real.parents:
            return path, f"{path} is outside {root}; refusing to write it"
    return real, None


def _replace(target: Path, data: bytes) -> None:
    """Atomic replace: temp file in the same folder, fsync, rename; keeps the file mode.

    Any failure (a short or failed write, fsync, chmod or rename: a full disk, a
    read-only folder) removes the temp file and leaves ``target`` as it was.
    Plain ``os`` calls, not a buffered file: nothing is written at ``close``,
    after the point where a failure could still be handled.
    """
    mode = stat.S_IMODE(target.stat().st_mode)
    with replaced(target) as temp:
        fd = os.open(temp, _CREATE_NEW, 0o600)  # its mode is set below, once it is whole
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, mode)
    _fsync_dir(target.parent)


def _writable(target: Path) -> bool:
    """May the file be replaced?  Its write permission bits, not just ``os.access``:
    the rename would replace a read-only file, and root may write to any."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) and os.access(
        target, os.W_OK)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open folders; the rename is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

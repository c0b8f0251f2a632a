"""Source discovery: which files the compiler reads, and what each one is.

The plugin builds the list from MkDocs' ``Files`` (so ``exclude_docs`` and
friends apply); the CLI and tests walk docs_dir with ``discover``.  Either way
every file is checked to lie inside docs_dir after resolving symlinks: a
symlink out of docs_dir is never read (``path-escape``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..ids import SrcPath

SourceKind = Literal["markdown", "toml", "network", "sidecar", "asset", "canvas", "base"]

NETWORK_FILE = "BeliefNetwork.toml"
SIDECAR_SUFFIX = ".beliefs.json"
CANVAS_SUFFIX = ".canvas"
BASE_SUFFIX = ".base"  # issue 27: an Obsidian Bases file (codecs/base.py)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file under docs_dir."""

    path: SrcPath  # relative to docs_dir, POSIX
    file: str  # absolute path (a str: a Path per file costs too much in a large compile)
    kind: SourceKind

    @property
    def abs_path(self) -> Path:
        return Path(self.file)

    def stat_key(self) -> tuple[int, int] | None:
        """(mtime_ns, size): a cheap "did it change?" before hashing."""
        try:
            st = os.stat(self.file)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def read_bytes(self) -> bytes:
        with open(self.file, "rb") as handle:
            return handle.read()


def classify(path: str) -> SourceKind:
    """What the compiler does with a file, from its name."""
    name = path.rsplit("/", 1)[-1]
    lower = name.lower()
    if lower.endswith((".md", ".markdown")):
        return "markdown"
    if name == NETWORK_FILE:
        return "network"
    if lower.endswith(SIDECAR_SUFFIX):
        return "sidecar"
    if lower.endswith(".toml"):
        return "toml"
    if lower.endswith(CANVAS_SUFFIX):  # issue 28: a JSON Canvas board (codecs/canvas.py)
        return "canvas"
    if lower.endswith(BASE_SUFFIX):  # issue 27: an Obsidian base, a page of its own
        return "base"
    return "asset"


def make_sources(docs_dir: Path, paths: Iterable[str]) -> list[SourceFile]:
    """SourceFiles for ``paths`` (relative to docs_dir), sorted by path."""
    root = str(docs_dir)
    out = [
        SourceFile(SrcPath(p.replace(os.sep, "/")), os.path.join(root, p), classify(p))
        for p in paths
    ]
    out.sort(key=lambda s: s.path)
    return out


def discover(docs_dir: Path, exclude_dirs: Iterable[str] = ()) -> list[SourceFile]:
    """Walk docs_dir like MkDocs does: dot-files and dot-folders are skipped.

    Symlinked folders are followed (as MkDocs does); the containment check in
    ``escapes`` decides what may be read.
    """
    skip = set(exclude_dirs)
    found: list[str] = []
    root = str(docs_dir)
    for folder, dirs, files in os.walk(root, followlinks=True):
        rel_folder = os.path.relpath(folder, root)
        rel_folder = "" if rel_folder == "." else rel_folder.replace(os.sep, "/")
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".") and (f"{rel_folder}/{d}".lstrip("/") not in skip)
        )
        for name in files:
            if name.startswith("."):
                continue
            found.append(f"{rel_folder}/{name}" if rel_folder else name)
    return make_sources(docs_dir, found)


def escapes(source: SourceFile, docs_real: Path) -> bool:
    """True when the file (after symlinks) lies outside docs_dir."""
    try:
        real = Path(os.path.realpath(source.file))
    except OSError:
        return True
    return real != docs_real and docs_real not in real.parents


@dataclass(frozen=True, slots=True)
class LinkScan:
    """What one walk of docs_dir found (POSIX paths relative to it)."""

    folders: set[str]  # folders reached through a symlink
    files: set[str]  # files that are symlinks
    #: folder symlinks pointing to a folder that holds them (``sub/loop -> ..``): MkDocs
    #: walks through them until the system refuses, listing every file dozens of times
    loops: set[str]
    #: entries that are no regular file: pipes (opening one waits forever), sockets,
    #: devices, symlinks to nothing
    special: set[str]


def unreadable(path: str, special: set[str], loops: tuple[str, ...]
               ) -> tuple[str, str] | None:
    """(path to report, why) if the file at ``path`` must not be opened, else None.

    ``special`` and ``loops`` come from a ``LinkScan`` (loops as ``"folder/"``).
    """
    if loops and path.startswith(loops):
        loop = next(f for f in loops if path.startswith(f)).rstrip("/")
        return (loop, "this folder symlink points to a folder that contains it, a loop; "
                "the files under it are read once, at their own place (remove the link)")
    if not path.isascii():
        try:
            path.encode("utf-8")
        except UnicodeEncodeError:  # undecodable bytes, kept by os as surrogates
            return (printable_path(path), "this file's name is not valid UTF-8, so it has "
                    "no URL; it is not read or published (rename it)")
    if path in special:
        return (path, "this is not a regular file (a named pipe, socket, device or a "
                "symlink to nothing); it is not read or published (remove it from the docs "
                "folder)")
    return None


def printable_path(path: str) -> str:
    """``path`` with bytes that are not UTF-8 shown as ``\\xff`` (loggable, JSON-safe)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


class Symlinks:
    """The ``LinkScan`` of ``root``: which files must be looked at more closely.

    One ``scandir`` walk that follows folder links (each real folder entered once,
    so a link loop ends); ``is_symlink`` and ``is_file`` come from the directory
    entry, so no file but a symlink is stat-ed.  A second call
    stats only the folders: if none changed (a new or removed link changes its
    folder's mtime), the previous answer stands.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._stamps: dict[str, tuple[int, int]] = {}  # folder -> (inode, mtime_ns)
        self._result = LinkScan(set(), set(), set(), set())

    def find(self) -> LinkScan:
        if not self._stamps or any(_stamp(f) != s for f, s in self._stamps.items()):
            self._stamps = {}
            self._result = _walk_links(self.root, self._stamps)
        return self._result


def _stamp(folder: str) -> tuple[int, int] | None:
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns)


def _walk_links(root: Path, stamps: dict[str, tuple[int, int]]) -> LinkScan:
    scan = LinkScan(set(), set(), set(), set())
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[str, str, bool]] = [(str(root), "", False)]
    while stack:
        folder, rel, inherited = stack.pop()
        try:
            st = os.stat(folder)
            stamps[folder] = (st.st_ino, st.st_mtime_ns)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            child = f"{rel}/{entry.name}" if rel else entry.name
            link = entry.is_symlink()
            try:
                is_dir = entry.is_dir()
                is_file = not is_dir and entry.is_file()
            except OSError:
                is_dir = is_file = False
            if is_dir:
                if link and _loops(entry.path, folder):
                    scan.loops.add(child)
                    continue
                if inherited or link:
                    scan.folders.add(child)
                stack.append((entry.path, child, inherited or link))
                continue
            if link:
                scan.files.add(child)
            if not is_file:
                scan.special.add(child)
    return scan


def _loops(link: str, folder: str) -> bool:
    """Does the folder symlink ``link`` (in ``folder``) point to ``folder`` or above?"""
    try:
        target = os.path.realpath(link)
        here = os.path.realpath(folder)
    except OSError:
        return True
    return here == target or here.startswith(target.rstrip(os.sep) + os.sep)

"""Quote anchors: is the quoted text still in the live raw file?

A provenance entry passes when its raw file lies inside raw_dir (no ``..``,
no absolute path, no symlink out — nothing outside raw_dir is ever opened),
``quote_hash`` is the SHA-256 of the quote's UTF-8 bytes, and the quote occurs
in the file with whitespace runs compared as one space (so re-wrapped lines
and CRLF files still match).  Raw files are decoded as UTF-8 (BOM allowed),
else cp1252, else Latin-1.  Each raw file is read and normalised once per
``RawSources``.
"""

from __future__ import annotations

import hashlib
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from .facts import display_path
from .model import Provenance, QuoteCheck


def quote_hash(quote: str) -> str:
    """The ``quote_hash`` a provenance entry must carry."""
    return hashlib.sha256(quote.encode("utf-8")).hexdigest()


def normalize_text(text: str) -> str:
    """NFC with every whitespace run as one space: the form quotes are compared in."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def decode_raw(data: bytes) -> str:
    """Raw source bytes as text: UTF-8 (optional BOM), else cp1252, else Latin-1."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


@dataclass(frozen=True, slots=True)
class RawPath:
    """Where a ``raw_path`` points, or why it may not be opened."""

    path: Path | None
    display: str
    escape: str | None = None  # why the path was refused (a path-escape)
    error: str | None = None  # why it cannot be opened at all (a quote-drift)


class RawSources:
    """The raw files under ``raw_dir``, read once each, and the quote checks against them."""

    def __init__(self, raw_dir: Path, display_root: Path) -> None:
        self.raw_dir = raw_dir
        self.display_root = display_root
        self._shown = display_path(raw_dir, display_root).rstrip("/") + "/"
        self._paths: dict[str, RawPath] = {}
        self._real_root: str | None = None
        self._texts: dict[Path, str | None] = {}
        self._checks: dict[tuple[str, str, str], QuoteCheck] = {}

    def resolve(self, raw_path: str) -> RawPath:
        """The file a ``raw_path`` names, refusing anything that leaves raw_dir (cached)."""
        found = self._paths.get(raw_path)
        if found is None:
            found = self._paths[raw_path] = self._resolve(raw_path)
        return found

    def _resolve(self, raw_path: str) -> RawPath:
        posix = raw_path.replace("\\", "/")
        shown = self._shown + posix
        if "\x00" in raw_path:
            return RawPath(None, shown, error=f"raw_path {raw_path!r} contains a NUL character")
        pure = PurePosixPath(posix)
        if pure.is_absolute() or PureWindowsPath(raw_path).drive or ".." in pure.parts:
            return RawPath(None, shown, f"raw_path {raw_path!r} leaves raw_dir")
        path = self.raw_dir.joinpath(*pure.parts)
        try:
            present = path.exists() or path.is_symlink()
        except OSError:  # e.g. a folder we may not list: reading will say "not found"
            present = False
        if present and not self._inside(path):
            return RawPath(None, shown, f"raw_path {raw_path!r} is a symlink out of raw_dir")
        return RawPath(path, shown)

    def _inside(self, path: Path) -> bool:
        """``path`` with every symlink resolved is inside raw_dir (itself resolved once)."""
        if self._real_root is None:
            self._real_root = os.path.realpath(self.raw_dir)
        real = os.path.realpath(path)
        return real == self._real_root or real.startswith(self._real_root.rstrip(os.sep) + os.sep)

    def check(self, provenance: Provenance, verified_at: str) -> QuoteCheck:
        """Check one quote anchor (cached by raw path, quote and hash)."""
        key = (provenance.raw_path, provenance.quote, provenance.quote_hash)
        found = self._checks.get(key)
        if found is None:
            problem, reason = self._verify(provenance)
            found = QuoteCheck(problem is None, reason, verified_at, problem)
            self._checks[key] = found
        return found

    def _verify(self, provenance: Provenance) -> tuple[str | None, str]:
        """(problem or None, reason) — see ``QuoteCheck.problem``."""
        where = self.resolve(provenance.raw_path)
        if where.path is None:
            if where.escape:
                return "escape", where.escape
            return "unreadable", str(where.error)
        text = self._text(where.path)
        if text is None:
            return "missing", f"raw file {where.display} not found"
        expected = quote_hash(provenance.quote)
        if provenance.quote_hash != expected:
            return "hash", f"quote_hash is not the SHA-256 of the quote (that is {expected})"
        needle = normalize_text(provenance.quote)
        if not needle or needle not in text:
            return "absent", f"quote not found in {where.display}"
        return None, f"quote found in {where.display}"

    def _text(self, path: Path) -> str | None:
        if path not in self._texts:
            try:
                data = path.read_bytes() if path.is_file() else None
            except OSError:
                data = None
            self._texts[path] = normalize_text(decode_raw(data)) if data is not None else None
        return self._texts[path]

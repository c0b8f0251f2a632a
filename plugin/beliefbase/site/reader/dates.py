"""When each published note was created and last modified (SPEC §9, issue 21).

One pass over a ``Compiled`` (``note_dates``) gives every published note a
``NoteDates``, each date taken from the first of:

1. its frontmatter: ``created`` (else ``date``) and ``modified`` (else
   ``updated``), as YAML or TOML dates or date-times, or strings in ISO form
   (``2026-03-03``, ``2026-03-03T10:00``, ``2026-03-03 10:00:00+02:00``); a
   value that is none of these is a ``bad-date`` diagnostic (info) at its line
   and the next source is used;
2. git, when docs_dir is inside a git work tree: the author dates of the
   note's first and last commits, from ONE ``git log`` for the whole vault,
   following renames;
3. the file's modification time (``modified`` only).

A missing git, a folder outside any repository or a failing ``git log`` is
silently step 3.  ``DatesCache`` keeps the git history between ``mkdocs
serve`` rebuilds: ``git log`` runs again only when HEAD or the set of notes
changed (one ``git rev-parse`` per rebuild tells).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal

from ... import diagnostics as diag
from ...compile.compiled import Compiled
from ...frozen import thaw
from ...ids import SrcPath

#: A date as the frontmatter or git gives it: a day, or a moment (naive or aware).
When = date | datetime
Source = Literal["frontmatter", "git", "file"]

#: Frontmatter keys, in order of preference, for each date.
CREATED_KEYS = ("created", "date")
MODIFIED_KEYS = ("modified", "updated")

#: git log's record separator: a byte no date or path holds.
_COMMIT = "\x01"
_GIT_TIMEOUT = 30.0  # seconds; a vault's whole history is read in well under one


@dataclass(frozen=True)
class NoteDates:
    """A note's dates; ``source`` says where the dates shown came from (``frontmatter``
    when either date did, else ``git`` or ``file``)."""

    created: date | datetime | None
    modified: date | datetime | None
    source: Source

    @property
    def latest(self) -> date | datetime | None:
        """The date that says how recent the note is: modified, else created."""
        return self.modified if self.modified is not None else self.created


@dataclass
class DatesCache:
    """What survives ``mkdocs serve`` rebuilds: the vault's git history."""

    key: tuple[str, frozenset[str]] | None = None  # (HEAD, the notes) it was read for
    history: dict[str, tuple[datetime, datetime]] = field(default_factory=dict)
    git_runs: int = 0  # ``git log`` runs so far (tests read it)


def sort_key(when: date | datetime | None) -> float:
    """A number ordering dates and date-times together (a day is its midnight UTC,
    a naive date-time is taken as UTC; no date sorts first)."""
    if when is None:
        return float("-inf")
    if not isinstance(when, datetime):
        when = datetime(when.year, when.month, when.day)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def parse_when(value: Any) -> date | datetime | None:
    """A frontmatter value as a date or date-time; None if it is not one."""
    if isinstance(value, datetime | date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        if len(text) == 10:  # "2026-03-03": a day, not its midnight
            return date.fromisoformat(text)
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def note_dates(compiled: Compiled, cache: DatesCache | None = None,
               use_git: bool = True) -> tuple[dict[SrcPath, NoteDates], list[diag.Diagnostic]]:
    """Every published note's dates, and a diagnostic per malformed frontmatter date."""
    cache = cache if cache is not None else DatesCache()
    docs = {p: d for p, d in compiled.published.items() if d.url is not None}
    history = git_history(compiled.options.docs_dir, frozenset(docs), cache) if use_git else {}
    found: list[diag.Diagnostic] = []
    dates: dict[SrcPath, NoteDates] = {}
    for path, doc in docs.items():
        created = _frontmatter(doc.meta, doc.parsed.meta_lines, CREATED_KEYS,
                               compiled.options.display(path), found)
        modified = _frontmatter(doc.meta, doc.parsed.meta_lines, MODIFIED_KEYS,
                                compiled.options.display(path), found)
        source: Source = "frontmatter" if created or modified else "git"
        in_git = history.get(path)
        if in_git is not None:
            created = created or in_git[0]
            modified = modified or in_git[1]
        elif modified is None:
            modified = _mtime(compiled.options.docs_dir / path)
            source = "file" if created is None else source
        elif source != "frontmatter":
            source = "file"
        dates[path] = NoteDates(created, modified, source)
    return dates, found


def _frontmatter(meta: Mapping[str, Any], lines: Mapping[str, int], keys: tuple[str, ...],
                 display: str, found: list[diag.Diagnostic]) -> date | datetime | None:
    for key in keys:
        value = meta.get(key)
        if value is None or value == "":
            continue
        when = parse_when(value)
        if when is not None:
            return when
        found.append(diag.make(
            "bad-date", display, lines.get(key, 1), 1,
            f"{key}: {str(thaw(value))[:60]!r} is not a date; write it as 2026-03-03 or "
            "2026-03-03T10:00 (the note's date is taken from git or the file instead)"))
    return None


def _mtime(path: Path) -> datetime | None:
    try:
        return datetime.fromtimestamp(int(path.stat().st_mtime), tz=UTC)
    except OSError:
        return None


# -- git ---------------------------------------------------------------------------------

def git_history(docs_dir: Path, notes: frozenset[str],
                cache: DatesCache) -> dict[str, tuple[datetime, datetime]]:
    """Path (relative to docs_dir) -> (first, last) author date of the commits that
    touched it, renames followed; {} when git or a repository is missing."""
    git = shutil.which("git")
    if git is None or not docs_dir.is_dir():
        return {}
    head = _run(git, docs_dir, "rev-parse", "HEAD")
    if head is None:  # not a work tree, or one without commits
        cache.key, cache.history = None, {}
        return {}
    key = (head.strip(), notes)
    if cache.key != key:
        log = _run(git, docs_dir, "log", f"--format={_COMMIT}%aI", "--name-status", "-M",
                   "-z", "--relative", "--", ".")
        cache.git_runs += 1
        cache.key, cache.history = key, parse_log(log or "")
    return cache.history


def _run(git: str, cwd: Path, *args: str) -> str | None:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0",
           "LC_ALL": "C"}
    try:
        done = subprocess.run([git, "-c", "core.quotepath=false", *args], cwd=cwd, env=env,
                              capture_output=True, timeout=_GIT_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape")


def parse_log(text: str) -> dict[str, tuple[datetime, datetime]]:
    """The output of ``git log --format=%x01%aI --name-status -M -z``, newest commit
    first, as path -> (first, last) commit date under the path's newest name."""
    first: dict[str, datetime] = {}
    last: dict[str, datetime] = {}
    renamed: dict[str, str] = {}  # an older name -> the name it has now
    for record in text.split(_COMMIT)[1:]:
        stamp, _, changes = record.partition("\0")
        try:
            when = datetime.fromisoformat(stamp.strip())
        except ValueError:
            continue
        fields = changes.lstrip("\n").split("\0")
        k = 0
        while k + 1 < len(fields):
            status = fields[k]
            if status[:1] in ("R", "C") and k + 2 < len(fields):
                old, new = fields[k + 1], fields[k + 2]
                k += 3
            else:
                old, new = "", fields[k + 1]
                k += 2
            if not status or status[0] == "D":
                continue
            now = renamed.get(new, new)
            last.setdefault(now, when)
            first[now] = when
            if status[0] == "R":
                renamed[old] = now
    return {path: (first[path], last[path]) for path in last}


__all__ = ["DatesCache", "NoteDates", "When", "git_history", "note_dates", "parse_log",
           "parse_when", "sort_key"]

"""A note's dates (site/reader/dates.py): frontmatter, then git, then the file's time."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from beliefbase.site.reader import dates as dates_mod
from beliefbase.site.reader.dates import DatesCache, note_dates, parse_log, parse_when

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.mark.parametrize(("value", "expected"), [
    (date(2026, 3, 3), date(2026, 3, 3)),
    (datetime(2026, 3, 3, 10, 0), datetime(2026, 3, 3, 10, 0)),
    ("2026-03-03", date(2026, 3, 3)),
    (" 2026-03-03 ", date(2026, 3, 3)),
    ("2026-03-03T10:00", datetime(2026, 3, 3, 10, 0)),
    ("2026-03-03 10:00:00", datetime(2026, 3, 3, 10, 0)),
    ("2026-03-03T10:00:00Z", datetime(2026, 3, 3, 10, 0, tzinfo=UTC)),
    ("2026-03-03T10:00:00+02:00",
     datetime(2026, 3, 3, 10, 0, tzinfo=timezone(timedelta(hours=2)))),
    ("yesterday", None), ("2026-13-01", None), ("", None), (2026, None), (["2026"], None),
])
def test_parse_when(value: object, expected: object) -> None:
    assert parse_when(value) == expected


def test_frontmatter_dates(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\ncreated: 2026-03-03\nmodified: 2026-05-05T10:00:00Z\n---\nA\n")
    project.write("b.md", "---\ndate: '2026-01-02'\nupdated: 2026-02-03 04:05:06\n---\nB\n")
    project.write("c.md", "---\ncreated: 2026-03-03\ndate: 2020-01-01\n---\nC\n")
    project.write("d.md", "---\ndraft: true\ncreated: 2026-03-03\n---\nD\n")
    found, diagnostics = note_dates(project.compile(), use_git=False)
    assert diagnostics == []
    a, b, c = found["a.md"], found["b.md"], found["c.md"]
    assert (a.created, a.modified, a.source) == (
        date(2026, 3, 3), datetime(2026, 5, 5, 10, tzinfo=UTC), "frontmatter")
    assert (b.created, b.modified) == (date(2026, 1, 2), datetime(2026, 2, 3, 4, 5, 6))
    assert c.created == date(2026, 3, 3)  # `created` before `date`
    assert c.modified is not None  # the file's time fills in what the frontmatter lacks
    assert "d.md" not in found  # drafts have no dates


def test_malformed_date_is_an_info_diagnostic(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\ntitle: A\ncreated: next tuesday\nupdated: 5 May 2026\n---\nA\n")
    found, diagnostics = note_dates(project.compile(), use_git=False)
    assert [(d.file, d.line, d.code, d.level.value) for d in diagnostics] == [
        ("docs/a.md", 3, "bad-date", "info"), ("docs/a.md", 4, "bad-date", "info")]
    assert "'next tuesday' is not a date" in diagnostics[0].message
    assert found["a.md"].created is None and found["a.md"].source == "file"


def test_file_time_without_git(project, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    path = project.write("a.md", "A\n")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    monkeypatch.setattr(dates_mod.shutil, "which", lambda name: None)
    found, _ = note_dates(project.compile())
    assert found["a.md"].modified == datetime.fromtimestamp(1_700_000_000, tz=UTC)
    assert (found["a.md"].created, found["a.md"].source) == (None, "file")


def _git(root: Path, *args: str, when: str | None = None) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org"}
    if when:
        env.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


@needs_git
def test_git_history(project) -> None:  # type: ignore[no-untyped-def]
    project.write_config()
    _git(project.root, "init", "-q")
    project.write("a.md", "A\n")
    project.write("old.md", "Renamed later\n")
    project.write("fm.md", "---\nmodified: 2030-01-01\n---\nF\n")
    _git(project.root, "add", "-A")
    _git(project.root, "commit", "-qm", "one", when="2026-03-03T10:00:00+01:00")
    project.write("a.md", "A, edited\n")
    _git(project.root, "mv", "docs/old.md", "docs/new.md")
    _git(project.root, "add", "-A")
    _git(project.root, "commit", "-qm", "two", when="2026-05-05T12:00:00+00:00")
    project.write("untracked.md", "U\n")
    cache = DatesCache()
    found, _ = note_dates(project.compile(), cache)
    first = datetime(2026, 3, 3, 10, tzinfo=timezone(timedelta(hours=1)))
    second = datetime(2026, 5, 5, 12, tzinfo=UTC)
    assert (found["a.md"].created, found["a.md"].modified, found["a.md"].source) == (
        first, second, "git")
    assert (found["new.md"].created, found["new.md"].modified) == (first, second)  # renamed
    assert found["fm.md"].created == first and found["fm.md"].modified == date(2030, 1, 1)
    assert found["fm.md"].source == "frontmatter"
    assert found["untracked.md"].source == "file" and found["untracked.md"].created is None
    # a rebuild with the same HEAD and notes reads no history again
    assert cache.git_runs == 1
    note_dates(project.compile(), cache)
    assert cache.git_runs == 1
    project.write("later.md", "L\n")  # a note more: the history is read again
    note_dates(project.compile(), cache)
    assert cache.git_runs == 2


def test_parse_log_follows_renames_and_skips_deletions() -> None:
    text = ("\x012026-05-05T00:00:00+00:00\0\nR090\0b.md\0c.md\0D\0gone.md\0"
            "\x012026-04-04T00:00:00+00:00\0\nR100\0a.md\0b.md\0"
            "\x012026-03-03T00:00:00+00:00\0\nA\0a.md\0A\0gone.md\0")
    history = parse_log(text)
    assert history["c.md"] == (datetime(2026, 3, 3, tzinfo=UTC), datetime(2026, 5, 5, tzinfo=UTC))
    assert set(history) == {"c.md", "gone.md"}


def test_not_a_repository_is_the_file_time(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "A\n")
    cache = DatesCache()
    found, _ = note_dates(project.compile(), cache)
    assert found["a.md"].source == "file" and cache.git_runs == 0

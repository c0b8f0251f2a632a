"""``speedups.page_writer``: the pages MkDocs renders are written by a forked child,
and the site is the same byte for byte; a page the child could not write, and every
page of a child that died, is written by the build itself; nothing is written late."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import mkdocs.utils
import pytest
from beliefbase.speedups import page_writer
from beliefbase.speedups.page_writer import PageWriter

from tests.conftest import differing

PAGES = 30


def _project(project: Any) -> None:
    for i in range(PAGES):
        written = project.write(f"notes/page-{i}.md",
                                f"# Page {i}\n\nSee [[page-{(i + 1) % PAGES}]].\n")
        os.utime(written, (1_700_000_000, 1_700_000_000))


def _build(project: Any, tmp_path: Path, name: str, on: bool) -> Path:
    result = project.build(plugins=["search", {"beliefbase": {"speedups": {"page_writer": on}}}])
    assert result.error is None, result.error
    copy = tmp_path / name
    shutil.copytree(result.site, copy)
    return copy


@pytest.fixture
def writers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[PageWriter]:
    """A child writes even these few pages; each writer started, and (in ``wrote``)
    the process that wrote each page."""
    monkeypatch.setattr(page_writer, "WRITER_THRESHOLD", 1)
    made: list[PageWriter] = []
    start = PageWriter.start.__func__  # type: ignore[attr-defined]

    def spy(cls: Any, pages: int) -> Any:
        writer = start(cls, pages)
        if writer is not None:
            made.append(writer)
        return writer

    monkeypatch.setattr(PageWriter, "start", classmethod(spy))
    return made


_WRAPPER = """\
import builtins, os, runpy
real_open, count = builtins.open, [0]
def opening(path, mode="r", *args, **kwargs):
    if "w" in mode:
        if {fail!r} is not None and str(path).endswith({fail!r}):
            raise OSError(28, "No space left on device")
        count[0] += 1
        if {die_after!r} is not None and count[0] > {die_after!r}:
            os._exit(3)
        with real_open({log!r}, "a", encoding="utf-8") as out:
            out.write(f"{{os.getpid()}} {{path}}\\n")
    return real_open(path, mode, *args, **kwargs)
builtins.open = opening
runpy.run_path({child!r}, run_name="__main__")
"""


def _who_wrote(monkeypatch: pytest.MonkeyPatch, log: Path, fail: str | None = None,
               die_after: int | None = None) -> None:
    """The child runs the real one with each page it writes in ``log`` with its pid;
    ``fail``: a path it cannot write; ``die_after``: it ends after that many pages."""
    wrapper = log.with_name("child.py")
    wrapper.write_text(_WRAPPER.format(fail=fail, die_after=die_after, log=str(log),
                                       child=str(page_writer.CHILD)), encoding="utf-8")
    monkeypatch.setattr(page_writer, "CHILD", wrapper)


def test_a_child_writes_the_pages_and_the_site_is_the_same(
        project: Any, tmp_path: Path, writers: list[PageWriter],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _project(project)
    log = tmp_path / "wrote"
    _who_wrote(monkeypatch, log)
    on = _build(project, tmp_path, "on", True)
    assert len(writers) == 1 and writers[0].handed >= PAGES
    lines = [line.split(" ", 1) for line in log.read_text(encoding="utf-8").splitlines()]
    assert {pid for pid, _ in lines} - {str(os.getpid())}  # another process wrote them
    assert sum(path.endswith("index.html") for _, path in lines) >= PAGES
    assert mkdocs.utils.write_file is not None and not hasattr(mkdocs.utils.write_file,
                                                                "__self__")  # put back
    off = _build(project, tmp_path, "off", False)
    assert len(writers) == 1  # the option turns it off
    assert differing(on, off) == []


def test_a_page_the_child_cannot_write_is_written_by_the_build(
        project: Any, tmp_path: Path, writers: list[PageWriter],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _project(project)
    _who_wrote(monkeypatch, tmp_path / "wrote", fail=os.path.join("page-7", "index.html"))
    on = _build(project, tmp_path, "on", True)
    assert len(writers) == 1 and writers[0].handed >= PAGES - 1
    off = _build(project, tmp_path, "off", False)
    assert differing(on, off) == []
    assert (on / "notes/page-7/index.html").is_file()


def test_the_pages_of_a_child_that_died_are_written_by_the_build(
        project: Any, tmp_path: Path, writers: list[PageWriter],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _project(project)
    _who_wrote(monkeypatch, tmp_path / "wrote", die_after=5)
    on = _build(project, tmp_path, "on", True)
    assert len(writers) == 1 and writers[0].handed == 5
    off = _build(project, tmp_path, "off", False)
    assert differing(on, off) == []


def test_a_page_nobody_can_write_is_an_error_and_the_rest_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(page_writer, "WRITER_THRESHOLD", 1)
    blocked = tmp_path / "site" / "blocked"
    blocked.parent.mkdir()
    blocked.write_text("a file where a folder should be")
    writer = PageWriter.start(2)
    assert writer is not None
    try:
        mkdocs.utils.write_file(b"one", str(tmp_path / "site/a/index.html"))
        mkdocs.utils.write_file(b"two", str(blocked / "index.html"))
        mkdocs.utils.write_file(b"three", str(tmp_path / "site/b/index.html"))
    finally:
        writer.finish()
    assert (tmp_path / "site/a/index.html").read_bytes() == b"one"
    assert (tmp_path / "site/b/index.html").read_bytes() == b"three"
    assert writer.handed == 2 and not writer.pending
    assert any("could not write" in r.getMessage() and "blocked" in r.getMessage()
               for r in caplog.records)
    assert not hasattr(mkdocs.utils.write_file, "__self__")


def test_the_build_never_waits_for_a_child_behind_and_keeps_only_what_is_in_flight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that reads nothing yet (waiting for a file this test makes after the
    pages): the pipe and the bytes not yet in it fill, then the build writes the
    pages itself instead of waiting; what it keeps for the child is bounded by them."""
    monkeypatch.setattr(page_writer, "WRITER_THRESHOLD", 1)
    go = tmp_path / "go"
    wrapper = tmp_path / "child.py"
    wrapper.write_text(f"import os, runpy, time\nwhile not os.path.exists({str(go)!r}): "
                       f"time.sleep(0.01)\nrunpy.run_path({str(page_writer.CHILD)!r}, "
                       "run_name='__main__')\n", encoding="utf-8")
    monkeypatch.setattr(page_writer, "CHILD", wrapper)
    writer = PageWriter.start(400)
    assert writer is not None
    kept = 0
    try:
        for i in range(400):
            mkdocs.utils.write_file(b"x" * 20_000, str(tmp_path / f"p{i}/index.html"))
            kept = max(kept, len(writer.pending))
        assert writer.here > 0 and writer.handed == 0  # (the child has read nothing)
    finally:
        go.touch()
        writer.finish()
    assert writer.handed + writer.here == 400 and not writer.pending
    in_flight = (page_writer.PIPE_SIZE + page_writer.UNSENT_MAX) // 20_000 + 2
    assert kept <= in_flight  # 8 MB written, at most about a pipe's worth kept
    assert all((tmp_path / f"p{i}/index.html").stat().st_size == 20_000 for i in range(400))


def test_no_child_for_a_few_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    assert PageWriter.start(page_writer.WRITER_THRESHOLD - 1) is None

"""Pages converted by a second process (``markdown_offload``): the same site and log, byte for byte."""

from __future__ import annotations

import logging
import multiprocessing
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from beliefbase.speedups import render_ahead

from tests.conftest import differing

PAGES = 24


def page(i: int) -> str:
    """A page with what ``Page.render`` reads back from a conversion, and what logs."""
    nxt = (i + 1) % PAGES
    title = f"# Page {i}\n\n" if i % 3 else ""  # every third takes its title from the file
    return (
        f"---\naliases: [Other name {i}]\n---\n{title}Also about Page {(i + 5) % PAGES}.\n\n"
        f"Intro of {i} linking [[page-{nxt}]] and [[page-{nxt}#Part {nxt}|its part]]"
        f" and [next](page-{nxt}.md#part-{nxt}), [a bad anchor](page-{nxt}.md#nowhere),"
        f" [a missing page](missing-{i}.md).[^1]\n\n"
        f"## Part {i}\n\nText <a id=\"raw-{i}\"></a> of part {i}.\n\n"
        f"### Custom {{#custom-{i}}}\n\n![[page-{nxt}#Part {nxt}]]\n\n"
        f"[^1]: A footnote of {i}.\n"
    )


def build(project: Any, tmp_path: Path, flag: bool,
          option: str = "markdown_offload", **options: Any) -> tuple[Path, list[str]]:
    """The pages built with the speed-up ``option`` set to ``flag`` (and the speed-ups
    ``options``: ``speedups: {option: flag, ...}``): a copy of the site and the log."""
    for i in range(PAGES):
        written = project.write(f"page-{i}.md", page(i), dedent=False)
        # the same file time every build: it is each note's date (no git here)
        os.utime(written, (1_700_000_000, 1_700_000_000))
    pages_logger = logging.getLogger("mkdocs.structure.pages")
    level = pages_logger.level
    pages_logger.setLevel(logging.INFO)  # MkDocs keeps links to anchors only above DEBUG
    try:
        result = project.build(
            plugins=["search", {"beliefbase": {"speedups": {option: flag, **options}}}],
            markdown_extensions=["attr_list", "footnotes", {"toc": {"permalink": True}}],
            validation={"anchors": "warn", "unrecognized_links": "warn"})
    finally:
        pages_logger.setLevel(level)
    assert result.error is None
    copy = tmp_path / f"site-{flag}"
    shutil.copytree(result.site, copy)
    lines = [line for line in result.all_lines if "Documentation built in" not in line]
    return copy, lines


def assert_built_alike_both_ways(project: Any, tmp_path: Path) -> None:
    """The site and log with the worker are those without it."""
    on, on_log = build(project, tmp_path, True)
    off, off_log = build(project, tmp_path, False)
    assert differing(on, off) == []
    assert on_log == off_log


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[render_ahead.RenderAhead]:
    """Offload even these few pages, and remember each worker started."""
    made: list[render_ahead.RenderAhead] = []
    start = render_ahead.RenderAhead.start.__func__  # type: ignore[attr-defined]

    def spy(cls: Any, *args: Any) -> Any:
        ahead = start(cls, *args)
        if ahead is not None:
            made.append(ahead)
        return ahead

    monkeypatch.setattr(render_ahead, "AHEAD_THRESHOLD", 1)
    monkeypatch.setattr(render_ahead.RenderAhead, "start", classmethod(spy))
    return made


def _first_page_waits_for(monkeypatch: pytest.MonkeyPatch, event: Any,
                          then: Any = None) -> None:
    """This process converts its first page only once the worker set ``event`` (and
    sets ``then`` when it has claimed that page).  The wait is bounded only so that a
    broken worker fails the test instead of hanging it."""
    begin = render_ahead.RenderAhead.begin

    def waiting(self: Any, src_uri: str) -> None:
        if not self.in_worker and not event.is_set():
            self._steps_go_on(block=True)  # the worker starts once the steps are done
            assert event.wait(_NEVER), "the worker never got there"
        begin(self, src_uri)
        # ``then``: only once this process has claimed one of the worker's pages for
        # itself (``_current`` None: converted here); a page that is not the worker's
        # (not in its index) claims nothing, and under load the worker converted
        # every page while this one was still at it (taken == PAGES)
        if (then is not None and not self.in_worker and src_uri in self.index
                and self._current is None):
            then.set()

    monkeypatch.setattr(render_ahead.RenderAhead, "begin", waiting)


def _worker_spill(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A test of ``fd``: is it the worker's file of results, written by the worker
    (not by a child of its own, whose steps write files too)?"""
    worker: list[tuple[int, int]] = []  # (pid, fd), set in the worker
    work = render_ahead.RenderAhead._work

    def working(self: Any, writer: Any) -> None:
        worker.append((os.getpid(), self._spill.fileno()))
        work(self, writer)

    monkeypatch.setattr(render_ahead.RenderAhead, "_work", working)
    return lambda fd: (os.getpid(), fd) in worker


def _both_convert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each process converts some pages, whatever the machine's load: this one waits
    for the worker's first result, the worker for this one to claim its first page."""
    wrote, claimed = _FORK.Event(), _FORK.Event()
    real = os.pwrite
    spill = _worker_spill(monkeypatch)

    def pwrite(fd: int, data: bytes, offset: int) -> int:
        done = real(fd, data, offset)
        if spill(fd) and not wrote.is_set():
            wrote.set()
            assert claimed.wait(_NEVER), "this process never converted a page"
        return done

    monkeypatch.setattr(render_ahead.os, "pwrite", pwrite)
    _first_page_waits_for(monkeypatch, wrote, claimed)


#: the worker is forked: events made before it are shared with it
_FORK = multiprocessing.get_context("fork")
#: seconds after which a wait that should have ended counts as a failure (not a timing)
_NEVER = 300


def test_offloaded_conversion_writes_the_same_site_and_log(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _both_convert(monkeypatch)
    on, on_log = build(project, tmp_path, True)
    off, off_log = build(project, tmp_path, False)
    assert len(started) == 1  # only the build with the option on
    assert 0 < started[0].taken < PAGES  # the worker converted some pages, this process others
    assert started[0].first_done  # and wrote graph.json, the redirects, ... (compared below)
    assert differing(on, off) == []
    assert on_log == off_log
    # what the worker's conversions logged is in the log, once per page
    for i in range(PAGES):
        assert sum(f"'missing-{i}.md'" in line for line in on_log) == 1
        assert sum(f"Doc file 'page-{i}.md'" in line and "#nowhere" in line
                   for line in on_log) == 1
    html = (on / "page-1/index.html").read_text(encoding="utf-8")
    assert "Part 1" in html
    assert 'Unlinked mentions <span class="bb-count">1</span>' in html  # "Page 1" in page-20
    assert (on / "other-name-1/index.html").exists()  # an alias redirect


def test_a_worker_that_dies_loses_no_page(project: Any, tmp_path: Path, started: list[Any],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_ahead.RenderAhead, "_work", lambda self, writer: os._exit(3))
    assert_built_alike_both_ways(project, tmp_path)
    # the compile's files were written before it started, by children of their own
    assert len(started) == 1 and started[0].taken == 0 and started[0].first_done


def test_a_worker_out_of_disk_space_leaves_the_rest_here(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic on a busy machine: this process converts no page until the worker
    found the disk full (an event, not a race between the two: the worker used to get
    fewer than four pages when this process was quicker)."""
    real = os.pwrite
    written: list[int] = []
    full = _FORK.Event()

    spill = _worker_spill(monkeypatch)

    def pwrite(fd: int, data: bytes, offset: int) -> int:
        if not spill(fd):  # another file, or another process (the worker's children)
            return real(fd, data, offset)
        if len(written) == 3:  # the fourth result finds the disk full
            full.set()
            raise OSError(28, "No space left on device")
        written.append(offset)
        return real(fd, data, offset)

    monkeypatch.setattr(render_ahead.os, "pwrite", pwrite)
    _first_page_waits_for(monkeypatch, full)
    assert_built_alike_both_ways(project, tmp_path)
    assert len(started) == 1 and started[0].taken == 3  # the three it kept; the rest here


def test_outputs_the_worker_failed_to_write_are_written_here(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from beliefbase.site.session import SiteBuild

    parent = os.getpid()
    real = SiteBuild.write_search_index

    def in_worker_fails(self: Any, *args: Any) -> None:
        real(self, *args)  # the last step written, then it fails: this process writes all again
        if os.getpid() != parent:
            raise OSError("disk full")

    monkeypatch.setattr(SiteBuild, "write_search_index", in_worker_fails)
    _both_convert(monkeypatch)
    assert_built_alike_both_ways(project, tmp_path)
    assert len(started) == 1 and started[0].taken > 0 and not started[0].first_done


def test_each_step_of_the_compile_files_runs_in_a_child_of_its_own(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the compile's files is written by a fresh child: the graph files, the
    previews and the redirects each read another part of the compile, and a child
    keeps a copy of every page of the heap holding what it read (the 5,000-note
    build's peak); the search index comes last, without their memory (issue 20)."""
    from beliefbase.site.session import SiteBuild

    ran = tmp_path / "ran"
    def spy(name: str) -> Any:
        real = getattr(SiteBuild, name)

        def step(self: Any, *args: Any) -> None:
            with ran.open("a", encoding="utf-8") as out:
                out.write(f"{name} {os.getpid()}\n")
            real(self, *args)
        return step

    names = ["_write_graph_json", "_write_graph_view", "_write_previews",
             "_write_feature_outputs", "write_search_index"]
    for name in names:
        monkeypatch.setattr(SiteBuild, name, spy(name))
    site, _log = build(project, tmp_path, True)
    assert len(started) == 1 and started[0].first_done
    steps = [line.split() for line in ran.read_text(encoding="utf-8").splitlines()]
    assert [name for name, _pid in steps] == names
    pids = {int(pid) for _name, pid in steps}
    assert len(pids) == len(names) and not pids & {os.getpid(), started[0]._worker.pid}
    assert all((site / "_beliefbase" / name).stat().st_size > 0
               for name in ("graph.json", "graph-view.json", "previews.json"))


def test_the_link_record_is_written_with_the_compile_files(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What each link meant (``beliefbase sync`` reads it after a rename) is written
    once, by the child writing the compile's files, not at the compile's single-core
    end here nor again at the build's end; the record a command's compile writes."""
    import json

    from beliefbase.builder import link_record

    ran = tmp_path / "ran"
    real = link_record.update

    def spy(*args: Any) -> Any:
        with ran.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return real(*args)

    monkeypatch.setattr(link_record, "update", spy)
    build(project, tmp_path, True)
    assert len(started) == 1 and started[0].first_done
    pids = ran.read_text(encoding="utf-8").split()
    assert len(pids) == 1 and int(pids[0]) not in (os.getpid(), started[0]._worker.pid)
    record = project.root / ".beliefbase" / "link-record.json"
    built = json.loads(record.read_text(encoding="utf-8"))
    record.unlink()
    project.compiler(cache=True).compile(project.sources())
    assert json.loads(record.read_text(encoding="utf-8")) == built
    assert built["notes"]


def test_markdown_other_than_the_workers_is_converted_here(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = render_ahead._digest

    def digest(markdown: str) -> bytes:  # the worker's digests match nothing of ours
        return real(markdown) + (b"worker" if os.getpid() != parent else b"")

    monkeypatch.setattr(render_ahead, "_digest", digest)
    assert_built_alike_both_ways(project, tmp_path)
    assert len(started) == 1 and started[0].taken == 0


def test_no_worker_for_small_builds_or_one_core(project: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert render_ahead.RenderAhead.start(None, None, [None] * 10, None) is None  # type: ignore[arg-type]
    monkeypatch.setattr(render_ahead.os, "cpu_count", lambda: 1)
    assert render_ahead.RenderAhead.start(None, None, [None] * 1000, None) is None  # type: ignore[arg-type]


def test_no_temporary_file_no_worker(project: Any, tmp_path: Path, started: list[Any],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    def no_file(*args: Any, **kwargs: Any) -> Any:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(render_ahead.tempfile, "TemporaryFile", no_file)
    assert_built_alike_both_ways(project, tmp_path)
    assert started == []  # converted here, and nothing left half set up
    assert gc.get_freeze_count() == 0


def test_the_worker_inherits_this_process_markdown_instance(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Making the instance configures every extension and compiles their regular
    # expressions (0.017 s of CPU); made after the fork, each process made its own.
    # Now it is made once, before the worker is forked.
    from beliefbase.speedups.markdown_reuse import MarkdownReuse

    _both_convert(monkeypatch)
    made = tmp_path / "made"
    new = MarkdownReuse._new

    def recorded(self: Any) -> Any:
        with made.open("a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")
        return new(self)

    monkeypatch.setattr(MarkdownReuse, "_new", recorded)
    build(project, tmp_path, True)
    assert len(started) == 1 and started[0].taken > 0  # the worker converted pages
    assert made.read_text(encoding="utf-8").split() == [str(os.getpid())]


def test_the_steps_are_children_of_the_build_and_the_worker_comes_after_them(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While a step's child reads the compile, no worker shares the build's heap: a
    page of it that both the build and the child write to is copied once each, and
    a worker forked earlier kept the original as a third copy (5,000 ``gen_vault.py``
    notes: 80 MB more at the page loop's peak)."""
    from beliefbase.site.session import SiteBuild

    ran = tmp_path / "ran"

    def note(line: str) -> None:
        with ran.open("a", encoding="utf-8") as out:
            out.write(line + "\n")

    def spy(name: str) -> Any:
        real = getattr(SiteBuild, name)

        def step(self: Any, *args: Any) -> None:
            note(f"{name} {os.getppid()}")
            real(self, *args)
        return step

    for name in ("_write_graph_json", "write_search_index"):
        monkeypatch.setattr(SiteBuild, name, spy(name))
    work = render_ahead.RenderAhead._work

    def working(self: Any, writer: Any) -> None:
        note(f"_work {os.getppid()}")
        work(self, writer)

    monkeypatch.setattr(render_ahead.RenderAhead, "_work", working)
    _both_convert(monkeypatch)  # the worker starts, whatever the machine's load
    build(project, tmp_path, True)
    assert len(started) == 1 and started[0].first_done and started[0].taken > 0
    lines = [line.split() for line in ran.read_text(encoding="utf-8").splitlines()]
    assert [name for name, _ in lines] == ["_write_graph_json", "write_search_index",
                                           "_work"]
    assert {int(parent) for _, parent in lines} == {os.getpid()}


def test_steps_outlasting_the_page_loop_are_waited_for(
        project: Any, tmp_path: Path, started: list[Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A small site's loop may end before the compile's files are written: they are
    waited for, the worker then forked finds no page left, and the site is the same."""
    from beliefbase.site.session import SiteBuild

    loop_over = _FORK.Event()
    real_step = SiteBuild._write_graph_json
    real_done = render_ahead.RenderAhead.conversions_done

    def step(self: Any, *args: Any) -> None:
        assert loop_over.wait(_NEVER), "the page loop never ended"
        real_step(self, *args)

    def done(self: Any) -> None:
        loop_over.set()
        real_done(self)

    monkeypatch.setattr(SiteBuild, "_write_graph_json", step)
    monkeypatch.setattr(render_ahead.RenderAhead, "conversions_done", done)
    assert_built_alike_both_ways(project, tmp_path)
    assert len(started) == 1 and started[0].first_done and started[0].taken == 0
    assert started[0]._worker is not None and started[0]._worker.exitcode == 0

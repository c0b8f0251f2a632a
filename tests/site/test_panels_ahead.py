"""Panels made ahead on every core (``panels_ahead``): the same site and log, byte for byte."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from beliefbase.builder import parallel
from beliefbase.process import heap
from beliefbase.site import panels_ahead, session
from beliefbase.site.reader import mentions

from tests.conftest import differing

from .test_markdown_offload import PAGES, build


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Make panels ahead even for these few pages; per build with the option on,
    how many pages the burst made and how many of them the pages took."""
    counts: list[tuple[int, int]] = []
    real = session.SiteBuild.make_panels_ahead
    real_done = session.SiteBuild.release_page_caches

    def spy(self: Any, *args: Any) -> None:
        real(self, *args)
        counts.append((len(self._panels_made), 0))

    def done(self: Any) -> None:
        if counts and counts[-1][1] == 0:
            counts[-1] = (counts[-1][0], self.panels_taken)
        real_done(self)

    monkeypatch.setattr(panels_ahead, "PANELS_THRESHOLD", 1)
    monkeypatch.setattr(session.SiteBuild, "make_panels_ahead", spy)
    monkeypatch.setattr(session.SiteBuild, "release_page_caches", done)
    return counts


def _build(project: Any, tmp_path: Path, ahead: bool) -> tuple[Path, list[str]]:
    return build(project, tmp_path, ahead, option="panels_ahead")


def test_panels_made_ahead_write_the_same_site_and_log(
        project: Any, tmp_path: Path, made: list[tuple[int, int]]) -> None:
    on, on_log = _build(project, tmp_path, True)
    off, off_log = _build(project, tmp_path, False)
    assert made == [(PAGES, PAGES)]  # one burst, every page, each page took its own
    assert differing(on, off) == []
    assert on_log == off_log
    html = (on / "page-1/index.html").read_text(encoding="utf-8")
    assert 'Unlinked mentions <span class="bb-count">1</span>' in html  # "Page 1" in page-20
    assert "bb-backlinks" in html


def test_what_making_panels_ahead_kept_goes_before_the_template_loop(
        project: Any, tmp_path: Path, made: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The backlinks' per-source lines (each source's text and line starts) and the
    mentions' link titles are made for the burst; kept, the template loop carried
    them (issue 31, peak memory)."""
    kept: list[int] = []
    spy = session.SiteBuild.make_panels_ahead

    from beliefbase.codecs import snippet

    def after(self: Any, *args: Any) -> None:
        spy(self, *args)
        kept.append(len(self.made["backlinks"]._lines))
        kept.append(len(self.made["reader"]._wikitexts))  # the mentions' link titles
        # the sentences the panels rendered (a build with none after it)
        kept.append(snippet._render_plain.cache_info().currsize)

    monkeypatch.setattr(session.SiteBuild, "make_panels_ahead", after)
    _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    assert kept == [0, 0, 0]


def test_what_the_burst_and_the_pages_freed_goes_back_to_the_system(
        project: Any, tmp_path: Path, made: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Free memory is returned (``heap.trim``) once the panels are made and what making
    them kept is released, and once the pages' caches go: in the C library's free
    lists it stayed part of the build's memory through the template loop and the
    search index (issue 31, peak memory)."""
    events: list[str] = []
    sites: list[Any] = []
    burst, release = session.SiteBuild.make_panels_ahead, session.SiteBuild.release_page_caches

    def spy_burst(self: Any, *args: Any) -> None:
        sites.append(self)
        burst(self, *args)

    def spy_release(self: Any) -> None:
        events.append("release")
        release(self)
        events.append("released")

    def trim() -> None:  # made: the panels are made (not the fork's trim before)
        events.append("trim, made" if sites and sites[-1]._panels_made else "trim")

    monkeypatch.setattr(heap, "trim", trim)
    monkeypatch.setattr(session.SiteBuild, "make_panels_ahead", spy_burst)
    monkeypatch.setattr(session.SiteBuild, "release_page_caches", spy_release)
    _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    assert events.count("trim, made") == 1
    assert events[-3:] == ["release", "trim", "released"]


def test_the_mentions_are_found_apart_from_the_burst(
        project: Any, tmp_path: Path, made: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the burst the unlinked mentions are found in a forked child and only the
    result comes back: every note's hits, allocated and freed here, left free memory
    the burst's processes allocated into, each copying it (issue 31, peak memory).
    A child that fails: found here, the same site."""
    here = os.getpid()
    found_here: list[int] = []
    real = mentions.find_mentions

    def spy(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() == here:
            found_here.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(mentions, "find_mentions", spy)
    apart, apart_log = _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    assert found_here == []  # only in the child
    html = (apart / "page-1/index.html").read_text(encoding="utf-8")
    assert 'Unlinked mentions <span class="bb-count">1</span>' in html

    def dies(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != here:
            os._exit(3)
        return spy(*args, **kwargs)

    monkeypatch.setattr(mentions, "find_mentions", dies)
    here_too, here_log = _build(project, tmp_path / "again", True)
    assert found_here == [1]
    assert differing(apart, here_too) == []
    assert apart_log == here_log


def test_workers_that_end_after_a_few_pages_write_the_same_site(
        project: Any, tmp_path: Path, made: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker of the burst makes the panels of at most ``WORKER_PAGES`` pages, then
    another is forked in its place (``spilled_map``'s ``worker_items``): the same site
    and log, and no worker made more.  The view is loaded once, here, before the
    first fork, and every worker makes its pages with it: one loading its own freed
    the one it inherited, writing to every page of it (issue 31, peak memory)."""
    from beliefbase.site import panel_view

    here = os.getpid()
    makers = tmp_path / "makers"
    loads = tmp_path / "loads"
    real_make = panel_view.ViewPanels.make
    real_load = panel_view.ViewPanels.load

    def make(self: Any, page: Any) -> str:
        if os.getpid() != here:
            with makers.open("a", encoding="utf-8") as out:
                out.write(f"{os.getpid()}\n")
        return real_make(self, page)

    def load(self: Any) -> Any:
        if self._loaded is None:
            with loads.open("a", encoding="utf-8") as out:
                out.write("here\n" if os.getpid() == here else "worker\n")
        return real_load(self)

    monkeypatch.setattr(panel_view.ViewPanels, "make", make)
    monkeypatch.setattr(panel_view.ViewPanels, "load", load)
    monkeypatch.setattr(panels_ahead, "WORKER_PAGES", 2)
    on, on_log = _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    off, off_log = _build(project, tmp_path, False)
    assert differing(on, off) == []
    assert on_log == off_log
    by_worker: dict[str, int] = {}
    for pid in makers.read_text(encoding="utf-8").split() if makers.exists() else ():
        by_worker[pid] = by_worker.get(pid, 0) + 1
    assert len(by_worker) >= 2  # workers ended and others took their place
    assert all(count <= 2 for count in by_worker.values())
    assert loads.read_text(encoding="utf-8").split() == ["here"]


def test_the_burst_reads_the_notes_texts_without_the_compile(
        project: Any, tmp_path: Path, made: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The burst's processes read the sources' texts for the sentences through
    snapshots of where the compile's and the build's spills hold them
    (``TextSpill.snapshot``), not through ``read_text`` or the compile's
    ``texts.peek``, which touched each source's ``Document`` and the spills' entries
    (pages of the heap shared with the worker, copied)."""
    from beliefbase.builder import texts

    bursting = [False]
    calls = tmp_path / "calls"
    real_burst = session.panels_ahead

    def burst(*args: Any, **kwargs: Any) -> Any:
        bursting[0] = True  # the burst's workers are forked with it set
        try:
            return real_burst(*args, **kwargs)
        finally:
            bursting[0] = False

    def spy(cls: Any, name: str) -> None:
        real = getattr(cls, name)

        def called(self: Any, *args: Any) -> Any:
            found = real(self, *args)
            if bursting[0]:
                with calls.open("a", encoding="utf-8") as out:
                    out.write(f"{name} {found is not None}\n")
            return found
        monkeypatch.setattr(cls, name, called)

    monkeypatch.setattr(session, "panels_ahead", burst)
    spy(session.SiteBuild, "read_text")
    spy(texts.DecodedTexts, "peek")
    spy(texts.TextSpill, "get")
    on, _ = _build(project, tmp_path, True)
    seen = set(calls.read_text(encoding="utf-8").splitlines())
    assert "get True" in seen and {line.split()[0] for line in seen} == {"get"}
    html = (on / "page-1/index.html").read_text(encoding="utf-8")
    assert 'Unlinked mentions <span class="bb-count">1</span>' in html
    assert "bb-backlinks" in html


def test_a_worker_that_dies_loses_no_panel(project: Any, tmp_path: Path, made: list[tuple[int, int]],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "_spill_work", lambda *args: os._exit(3))
    on, on_log = _build(project, tmp_path, True)
    off, off_log = _build(project, tmp_path, False)
    assert made == [(0, 0)]  # the burst gave up; every page made its own
    assert differing(on, off) == []
    assert on_log == off_log


def test_no_burst_for_small_builds_or_one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = [(object(), "x/")] * 10

    def make(doc: Any, url: str) -> str:
        raise AssertionError("not made ahead")

    assert panels_ahead.panels_ahead(make, pages) == {}  # type: ignore[arg-type]
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 1)
    assert panels_ahead.panels_ahead(make, pages * 100) == {}  # type: ignore[arg-type]


def test_plain_serve_rebuilds_match_a_clean_build(project: Any, tmp_path: Path,
                                                  made: list[tuple[int, int]]) -> None:
    """As plain ``mkdocs serve`` runs them (one plugin, full rebuilds, the reader's
    caches kept): the panels made ahead after an edit are those of a clean build."""
    import shutil

    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from .test_markdown_offload import page

    for i in range(PAGES):
        project.write(f"page-{i}.md", page(i), dedent=False)
    settings = {"markdown_extensions": ["attr_list", "footnotes", {"toc": {"permalink": True}}]}
    project.write_config(plugins=["search", "beliefbase"], **settings)
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        mkdocs_build(config)
        # page-3 retitled (its linkers' panels and the mentions of "Page 3" change),
        # page-20 no longer mentions "Page 1"
        project.write("page-3.md", "---\ntitle: Renamed Three\n---\n" + page(3).split("---\n", 2)[2],
                      dedent=False)
        project.write("page-20.md", page(20).replace("Also about Page 1.", "Also about nothing."),
                      dedent=False)
        mkdocs_build(load_config(str(project.root / "mkdocs.yml")))
    finally:
        config.plugins.on_shutdown()
    served = tmp_path / "served"
    shutil.copytree(project.root / "site", served)
    assert made == [(PAGES, PAGES), (PAGES, PAGES)]  # both builds made every page's ahead
    clean = project.build(plugins=["search", {"beliefbase": {"panels_ahead": False}}], **settings)
    assert clean.error is None
    assert differing(served, clean.site) == []
    page_1 = (served / "page-1/index.html").read_text(encoding="utf-8")
    assert 'Unlinked mentions <span class="bb-count">1</span>' not in page_1  # page-20's is gone
    page_4 = (served / "page-4/index.html").read_text(encoding="utf-8")
    assert "Renamed Three" in page_4.split("bb-backlinks", 1)[1]  # the linker's new title


def test_the_burst_makes_the_panels_from_the_compile_packed_apart(
        project: Any, tmp_path: Path, made: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The burst's processes read a copy of what the panels need, packed by a child
    (``panel_view.py``), not the compile they share with this process: each page of
    it that held anything a panel read was copied (issue 31, peak memory).  The
    same site as without the burst (``test_panels_made_ahead_write_the_same_site_and_log``)."""
    from beliefbase.site import panel_view
    from beliefbase.site.panels import Panels
    from beliefbase.site.reader.reader import ReaderSite

    here = os.getpid()
    seen = tmp_path / "seen"

    def note(line: str) -> None:
        with seen.open("a", encoding="utf-8") as out:
            out.write(line + "\n")

    real_pack = panel_view.pack

    def pack(*args: Any) -> Any:
        note(f"pack {'here' if os.getpid() == here else 'child'}")
        return real_pack(*args)

    def spy(cls: Any) -> None:
        real = cls.panel

        def panel(self: Any, doc: Any, page_url: str) -> str:
            note(f"{cls.__name__} {type(self.compiled).__name__} {type(doc).__name__}")
            return str(real(self, doc, page_url))

        monkeypatch.setattr(cls, "panel", panel)

    monkeypatch.setattr(panel_view, "pack", pack)
    spy(Panels)
    spy(ReaderSite)
    on, _ = _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    lines = seen.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "pack child"
    assert sorted(set(lines[1:])) == ["Panels PanelView ViewDoc", "ReaderSite PanelView ViewDoc"]
    assert len(lines) == 1 + 2 * PAGES
    html = (on / "page-1/index.html").read_text(encoding="utf-8")
    assert 'Unlinked mentions <span class="bb-count">1</span>' in html
    assert "bb-backlinks" in html


@pytest.fixture
def with_steps(monkeypatch: pytest.MonkeyPatch, made: list[tuple[int, int]]) -> list[str]:
    """The worker converting pages ahead started for these few pages (its first work:
    the steps); what ``on_env`` forked for the panels' view, if anything."""
    from beliefbase.speedups import render_ahead

    forked: list[str] = []
    real_apart = session.apart

    def apart(work: Any) -> Any:
        forked.append("apart")
        return real_apart(work)

    monkeypatch.setattr(render_ahead, "AHEAD_THRESHOLD", 1)
    monkeypatch.setattr(session, "apart", apart)
    return forked


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the steps run on a second core")
def test_the_view_is_packed_on_the_page_loops_second_core(
        project: Any, tmp_path: Path, made: list[tuple[int, int]], with_steps: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The unlinked mentions found and the panels' view packed by two steps of the page
    loop's second core (``SiteBuild.panel_view_steps``), each in a child: ``on_env``
    forks nothing and waits for nothing (a child finding the mentions while that core
    was idle: 12 s at 20,000 ``gen_vault.py`` notes).  The child finding the mentions
    writes them into the view's file, the one packing the rest is given where they
    lie.  The same site and log as without the burst."""
    from beliefbase.site import panel_view

    here = os.getpid()
    seen = tmp_path / "seen"

    def spy(name: str, real: Any) -> Any:
        def called(*args: Any, **kwargs: Any) -> Any:
            with seen.open("a", encoding="utf-8") as out:
                pid = "here" if os.getpid() == here else str(os.getpid())
                out.write(f"{name} {pid}\n")
            return real(*args, **kwargs)
        return called

    monkeypatch.setattr(mentions, "find_mentions", spy("find", mentions.find_mentions))
    monkeypatch.setattr(panel_view, "put_mentions", spy("put", panel_view.put_mentions))
    real_pack = panel_view.pack

    def pack(compiled: Any, at: Any, file: Any) -> Any:
        # what the child packing the rest is given: where the mentions lie, not them
        assert at and all(isinstance(where, tuple) for where in at.values())
        return spy("pack", real_pack)(compiled, at, file)

    monkeypatch.setattr(panel_view, "pack", pack)
    on, on_log = _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    assert with_steps == []  # no child of on_env's: the view came ready
    calls = [line.split() for line in seen.read_text(encoding="utf-8").splitlines()]
    assert [name for name, _ in calls] == ["find", "put", "pack"]
    (_, finder), (_, putter), (_, packer) = calls
    # the mentions written into the view's file by the child finding them
    assert "here" not in (finder, packer) and finder == putter != packer
    off, off_log = _build(project, tmp_path, False)
    assert differing(on, off) == []
    assert on_log == off_log
    html = (on / "page-1/index.html").read_text(encoding="utf-8")
    assert 'Unlinked mentions <span class="bb-count">1</span>' in html


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the steps run on a second core")
def test_a_step_that_fails_leaves_the_view_to_on_env(
        project: Any, tmp_path: Path, made: list[tuple[int, int]], with_steps: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A step packing the view that fails (here: the child dies before it seals the
    view) leaves it to ``on_env``, which packs it as without the steps; the compile's
    files, written by the steps before, are not written again."""
    from beliefbase.site import panel_view

    here = os.getpid()
    real_seal = panel_view.ViewPanels.seal

    def dies(self: Any, index: Any) -> None:
        if os.getpid() != here:
            raise OSError("no room left")
        real_seal(self, index)

    monkeypatch.setattr(panel_view.ViewPanels, "seal", dies)
    rewritten: list[int] = []
    real_write = session.SiteBuild.write_compile_outputs
    monkeypatch.setattr(session.SiteBuild, "write_compile_outputs",
                        lambda self, *a: rewritten.append(1) or real_write(self, *a))
    on, on_log = _build(project, tmp_path, True)
    assert made == [(PAGES, PAGES)]
    assert with_steps == ["apart"]  # the view packed at on_env
    assert rewritten == []
    off, off_log = _build(project, tmp_path, False)
    assert differing(on, off) == []
    assert on_log == off_log


def test_a_view_is_read_only_once_sealed(tmp_path: Path) -> None:
    """``ViewPanels.sealed``: no mark (a child that died writing it, or never ran), a
    mark not last or an index past the end: not sealed."""
    from beliefbase.site.panel_view import ViewPanels

    view = ViewPanels([], lambda path, digest: "", "".join)
    try:
        assert not view.sealed()  # empty
        view.file.write(b"x" * 40)
        view.file.flush()
        assert not view.sealed()  # no mark
        view.seal((0, 40))
        assert view.sealed() and view.index == (0, 40)
        view.file.write(b"more")
        view.file.flush()
        assert not view.sealed()  # the mark is not last
    finally:
        view.close()
    other = ViewPanels([], lambda path, digest: "", "".join)
    try:
        other.seal((8, 100))  # an index past the end
        assert not other.sealed()
    finally:
        other.close()

"""Material's search parse on a second core (``search_offload``): the same index, byte for byte."""

from __future__ import annotations

import pickle
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from beliefbase.speedups import search_offload
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import differing

# What the search plugin treats specially: excluded pages and sections, a page
# without an h1 (its title comes from the page), tags, headings with markup,
# code, and text our panels add after the page was indexed.
PAGES = {
    "index.md": "# Home\n\nSee [[Alpha]] and [[Beta|the second]].\n",
    "alpha.md": "---\ntags: [greek, first]\n---\n# Alpha\n\nAlpha text links [[Beta]].\n\n"
                "## Kept *section*\n\nKept words.\n\n## Hidden { data-search-exclude }\n\n"
                "Words nobody finds.\n",
    "beta.md": "## No h1 here\n\nBeta text with `code` and\n\n```python\nx = 1\n```\n",
    "gamma.md": "---\nsearch:\n  exclude: true\n---\n# Gamma\n\nNever indexed.\n",
    "delta.md": "---\ntitle: \"<b>Delta</b> & co\"\nsearch:\n  boost: 2\n---\nDelta body "
                "embeds ![[Alpha#Kept section]].\n",
}


def build_both(project: Any, tmp_path: Path) -> list[Path]:
    for path, text in PAGES.items():
        project.write(path, text, dedent=False)
    sites = []
    for flag in (True, False):
        result = project.build(plugins=["search", {"beliefbase": {"speedups": {"search_offload": flag}}}],
                               markdown_extensions=["attr_list", {"toc": {"permalink": True}}])
        assert result.error is None
        copy = tmp_path / f"site-{flag}"
        shutil.copytree(result.site, copy)
        sites.append(copy)
    return sites


@pytest.fixture
def offloaded(monkeypatch: pytest.MonkeyPatch) -> list[search_offload.SearchOffload]:
    """Offload even these few pages, in jobs of two, and remember each offload."""
    made: list[search_offload.SearchOffload] = []
    init = search_offload.SearchOffload.__init__

    def spy(self: search_offload.SearchOffload, index: Any, flat: bool = False) -> None:
        init(self, index, flat)
        made.append(self)

    monkeypatch.setattr(search_offload, "OFFLOAD_THRESHOLD", 1)
    monkeypatch.setattr(search_offload, "BATCH", 2)  # several jobs, the last one short
    # the worker parses every batch (test_the_build_shares_what_the_worker_did_not_take)
    monkeypatch.setattr(search_offload, "SHARE_MIN", 10**9)
    monkeypatch.setattr(search_offload.SearchOffload, "__init__", spy)
    return made


def local_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pages parsed in this process by the offload (not by its worker)."""
    counted: list[int] = []
    real = search_offload._parse_pages

    def counting(pages: list[str]) -> Any:
        counted.append(len(pages))
        return real(pages)

    monkeypatch.setattr(search_offload, "_parse_pages", counting)
    return counted


def test_offloaded_parse_writes_the_same_site(project: Any, tmp_path: Path,
                                              offloaded: list[Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    here = local_parses(monkeypatch)
    on, off = build_both(project, tmp_path)
    assert len(offloaded) == 1  # only the build with the option on
    assert here == []  # the worker parsed every page
    assert differing(on, off) == []
    index = (on / "search/search_index.json").read_text(encoding="utf-8")
    assert "Kept words" in index and "nobody finds" not in index and "Never indexed" not in index
    assert "\\u0026lt;b\\u0026gt;Delta" in index  # our escaping still applies (HTML-safe)


MATERIALS_PATTERN = r"\s?data-search-\w+=\"[^\"]+\""


def test_materials_substitution_found_by_a_literal(
        project: Any, offloaded: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # Material's on_page_context removes data-search-* attributes with a regular
    # expression tried at every character of the page (0.08 s at 1,000 notes); the
    # offload finds them by a literal instead, and the site is the same (above).
    import re

    from material.plugins.search import plugin as material_search

    assert material_search.re is re
    real, found = re.sub, []

    def counting(pattern: Any, repl: Any, string: Any, *args: Any, **kwargs: Any) -> Any:
        if pattern == MATERIALS_PATTERN:
            found.append(string)
        return real(pattern, repl, string, *args, **kwargs)

    monkeypatch.setattr(re, "sub", counting)
    for path, text in PAGES.items():
        project.write(path, text, dedent=False)
    runs: dict[bool, int] = {}
    for flag in (True, False):
        found.clear()
        result = project.build(plugins=["search", {"beliefbase": {"speedups": {
            "search_offload": flag}}}], markdown_extensions=["attr_list"])
        assert result.error is None
        runs[flag] = len(found)
    assert len(offloaded) == 1
    assert runs == {True: 0, False: runs[False]} and runs[False] > 0


_PIECES = ["data-search-", "data-search-exclude", 'data-search-x="1"', 'data-search-é="a b"',
           "=", '"', '""', " ", "\n", "\t", "\u00a0", "\u2028", "x", "é", "<p>", "-", "_",
           'data-search-a="', 'ata-search-b="c"']


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_the_substitution_is_materials(pieces: list[str]) -> None:
    import re

    html = "".join(pieces)
    assert search_offload.without_search_attributes(html) == re.sub(MATERIALS_PATTERN, "", html)


# workers that fail: at once, after answering one batch, or that cannot start
DIES_AT_ONCE = "import sys; sys.exit(3)"
DIES_AFTER_ONE = (
    "import pickle, sys\n"
    "from beliefbase.speedups.search_offload import _parse_pages\n"
    "key, pages = pickle.load(sys.stdin.buffer)\n"
    "pickle.dump((key, _parse_pages(pages)), sys.stdout.buffer); sys.stdout.flush()\n"
)


# answers one batch, then garbles its stream and blocks writing more than a pipe holds
# (a stream garbled under a sampling profiler hung the build: nothing read it any more)
GARBLES_AFTER_ONE = DIES_AFTER_ONE + "sys.stdout.buffer.write(b'\\xff' * 2_000_000)\n"


@pytest.mark.parametrize("worker", [DIES_AT_ONCE, DIES_AFTER_ONE, GARBLES_AFTER_ONE, None],
                         ids=["dies-at-once", "dies-after-one-batch", "garbles-after-one-batch",
                              "cannot-start"])
def test_a_failing_worker_loses_no_page(project: Any, tmp_path: Path, offloaded: list[Any],
                                        monkeypatch: pytest.MonkeyPatch,
                                        worker: str | None) -> None:
    if worker is None:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise OSError("no more processes")

        monkeypatch.setattr(search_offload.subprocess, "Popen", refuse)
    else:
        monkeypatch.setattr(search_offload, "_WORKER", worker)
    here = local_parses(monkeypatch)
    built: list[list[Path]] = []
    # a hang fails the test instead of stopping the suite (the bound is no measure)
    builder = threading.Thread(target=lambda: built.append(build_both(project, tmp_path)),
                               daemon=True)
    builder.start()
    builder.join(600)
    assert built, "the build never ended"
    on, off = built[0]
    assert len(offloaded) == 1
    assert differing(on, off) == []
    pages = 4  # five pages, one excluded from search
    assert sum(here) == (pages - 2 if worker in (DIES_AFTER_ONE, GARBLES_AFTER_ONE) else pages)


@pytest.mark.parametrize("held", [True, False], ids=["writer-held", "writer-free"])
def test_the_build_shares_what_the_worker_did_not_take(
        project: Any, tmp_path: Path, offloaded: list[Any],
        monkeypatch: pytest.MonkeyPatch, held: bool) -> None:
    """At the end the build parses, from the back, the batches the worker has not
    taken: the same index, each batch parsed once."""
    monkeypatch.setattr(search_offload, "SHARE_MIN", 0)
    if held:  # the writer takes nothing before the build has taken its share
        shared = threading.Event()
        write, share = search_offload.SearchOffload._write, \
            search_offload.SearchOffload.share_the_rest

        def held_write(self: Any) -> None:
            shared.wait(60)
            write(self)

        def share_then_release(self: Any) -> None:
            share(self)
            shared.set()

        monkeypatch.setattr(search_offload.SearchOffload, "_write", held_write)
        monkeypatch.setattr(search_offload.SearchOffload, "share_the_rest", share_then_release)
    sent: list[int] = []
    real_dump = pickle.dump

    def counting_dump(item: Any, *args: Any) -> None:
        sent.append(len(item[1]) if item is not None else 0)
        real_dump(item, *args)

    monkeypatch.setattr(search_offload.pickle, "dump", counting_dump)
    here = local_parses(monkeypatch)
    on, off = build_both(project, tmp_path)
    assert differing(on, off) == []
    assert sum(here) + sum(sent) == 4  # four pages indexed, each parsed once
    if held:
        assert sent == [] and sum(here) == 4


def test_offload_only_for_large_builds_with_materials_search(
        project: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs.config import load_config

    project.write_config(plugins=["search", "beliefbase"])
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.run_event("config", config)  # Material makes its search index here
    assert search_offload.SearchOffload.install(config.plugins, pages=10) is None
    offload = search_offload.SearchOffload.install(config.plugins, pages=1_000)
    assert offload is not None
    offload.close()
    assert "add_entry_from_context" not in vars(offload.index)  # Material's method again
    assert search_offload.SearchOffload.install({}, pages=1_000) is None  # no Material search
    monkeypatch.setattr(search_offload.os, "cpu_count", lambda: 1)
    assert search_offload.SearchOffload.install(config.plugins, pages=1_000) is None


def test_sections_become_entries_as_their_batch_comes_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 20: the parsed sections (lists of text pieces) take several times the
    # memory of the entries made from them; a large build kept every page's until
    # on_post_build.  Each batch is added once the batches before it are.
    from types import SimpleNamespace

    monkeypatch.setattr(search_offload, "BATCH", 2)
    added: list[tuple[str, str]] = []
    index = SimpleNamespace(create_entry_for_section=lambda section, toc, url, page: added.append(
        (url, "".join(section.title))))
    offload = search_offload.SearchOffload(index)
    offload.failed = True  # no worker: the test answers each batch itself
    pages = [SimpleNamespace(meta={}, content=f"<h1 id='p{i}'>P{i}</h1><p>text {i}</p>",
                             toc=[], url=f"p{i}/") for i in range(6)]
    for page in pages[:2]:
        offload.add_entry_from_context(page)
    offload.results[0] = search_offload._parse_pages(offload.html.pop(0))
    for page in pages[2:4]:
        offload.add_entry_from_context(page)
    assert [url for url, _ in added] == ["p0/", "p1/"]  # batch 0 added meanwhile
    assert offload.results == {} and offload.jobs[0] == []  # and let go of
    offload.results[2] = [[] for _ in range(2)]  # batch 2 back before batch 1: waits
    for page in pages[4:]:
        offload.add_entry_from_context(page)
    assert len(added) == 2 and 2 in offload.results
    offload.finish()  # batch 1 parsed here (its answer never came), then batch 2
    assert added == [(f"p{i}/", f"P{i}") for i in range(4)]
    assert "add_entry_from_context" not in vars(index)


#: a page with a void tag and kept tags: the worker's sets of them are Material's
PAGE = "<h1 id='a'>A</h1><p>text<br>more <code>c</code> <sup>2</sup></p><ul><li>x</li></ul>"


def test_the_worker_imports_none_of_the_plugin_nor_material() -> None:
    # Every build starts the worker: importing beliefbase.speedups (whose __init__
    # imports every speed-up, 53 of our modules) cost 0.05 s of CPU for a loop
    # that needs only pickle and an HTML parser; Material's search plugin imports
    # MkDocs (about 300 modules, 12 MB of the worker's memory).
    worker = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", search_offload._WORKER,
         search_offload.search_parse.__file__, search_offload.search_parse.told()],
        input=pickle.dumps((0, [PAGE])),
        capture_output=True, check=True)
    key, sections = pickle.loads(worker.stdout)
    assert key == 0 and sections == search_offload._parse_pages([PAGE])
    imported = [line.rsplit("|", 1)[-1].strip() for line in
                worker.stderr.decode().splitlines() if line.startswith("import time:")]
    assert "html.parser" in imported
    assert [name for name in imported
            if name.split(".")[0] in ("beliefbase", "material", "mkdocs")] == []


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="Linux's /proc")
def test_an_interrupted_answer_is_written_whole() -> None:
    # With PYTHONUNBUFFERED (common in containers) the worker's sys.stdout.buffer
    # is the raw file: a signal while it waits to write an answer larger than the
    # pipe cut the answer short, pickle dropped the rest, and the build read a
    # garbled stream (seen under py-spy, which stops the processes it samples).
    import os
    import signal
    import time

    pages = ["<h1 id='a'>A</h1><p>" + "word " * 100_000 + "</p>"]
    with_handler = "import signal; signal.signal(signal.SIGUSR1, lambda *a: None); "
    worker = subprocess.Popen(
        [sys.executable, "-c", with_handler + search_offload._WORKER,
         search_offload.search_parse.__file__, search_offload.search_parse.told()],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert worker.stdin is not None and worker.stdout is not None
    pickle.dump((0, pages), worker.stdin)
    worker.stdin.flush()
    waits = 0  # until the worker waits for room in the pipe nobody reads yet
    while "pipe_write" not in Path(f"/proc/{worker.pid}/wchan").read_text():
        waits += 1
        assert waits < 100_000 and worker.poll() is None
        time.sleep(0.001)
    worker.send_signal(signal.SIGUSR1)
    worker.stdin.close()
    answer = worker.stdout.read()
    worker.wait()
    assert pickle.loads(answer) == (0, search_offload._parse_pages(pages))

"""``watcher: native``: mkdocs serve hears saves from the OS, and only real changes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from beliefbase.speedups.watcher import native_events_work, use_native_watcher
from mkdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver

from tests.waiting import wait_until


def test_native_watcher_reports_changes_not_reads(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    note = docs / "note.md"
    note.write_text("# Note\n", encoding="utf-8")
    extra = tmp_path / "raw"
    extra.mkdir()
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0,
                              root=str(tmp_path / "site"))
    server.watch(str(docs))
    assert isinstance(server.observer, PollingObserver)
    if not native_events_work([str(docs)]):
        pytest.skip("this machine delivers no native file events (no inotify)")
    assert use_native_watcher(server)
    assert not isinstance(server.observer, PollingObserver)
    server.watch(str(extra))  # a watch added later (our raw_dir) goes native too
    server.observer.start()
    try:
        time.sleep(0.2)
        note.read_text(encoding="utf-8")  # the build reads every note: no rebuild
        assert not wait_until(lambda: server._want_rebuild, 0.5)
        note.write_text("# Note\n\nEdited.\n", encoding="utf-8")
        assert wait_until(lambda: server._want_rebuild, 1.0)  # polling would take up to 0.5 s + a walk
        server._want_rebuild = False
        (extra / "source.txt").write_text("raw\n", encoding="utf-8")
        assert wait_until(lambda: server._want_rebuild, 1.0)
    finally:
        server.observer.stop()
        server.observer.join()
        server.server_close()


def test_a_running_server_is_left_alone(tmp_path: Path) -> None:
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0,
                              root=str(tmp_path))
    server.observer.start()
    try:
        assert not use_native_watcher(server)
    finally:
        server.observer.stop()
        server.observer.join()
        server.server_close()

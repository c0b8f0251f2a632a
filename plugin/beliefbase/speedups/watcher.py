"""``mkdocs serve`` notices a saved note at once (option ``watcher: native``).

MkDocs 1.6 watches files with watchdog's ``PollingObserver``: every half
second it lists and stats every file under docs_dir.  With thousands of notes
each poll costs a noticeable slice of the one interpreter that is also
rebuilding, and a save waits a quarter of a second on average before anyone
sees it.  Where the operating system reports changes itself (inotify,
FSEvents, ReadDirectoryChangesW), ``use_native_watcher`` moves every watched
path to watchdog's native ``Observer``.

MkDocs' own handler reacts to *any* event, and a native observer also reports
files being opened and closed — the build reads every note — so the handler
here passes on only the events that change something.  Network drives and
some container mounts deliver no native events: there ``watcher: polling``
keeps MkDocs' observer.

This touches ``LiveReloadServer`` internals (``observer``, ``_watch_refs``,
``_watched_paths``, ``_rebuild_cond``, ``_want_rebuild``); when they are not
there (another MkDocs version) nothing is changed.
"""

from __future__ import annotations

import os
from typing import Any

_CHANGES = frozenset({"created", "modified", "deleted", "moved"})


def native_events_work(paths: Any) -> bool:
    """Can a native observer start here (inotify may be missing or exhausted)?"""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    probe = Observer()
    try:
        for path in list(paths)[:1]:
            probe.schedule(FileSystemEventHandler(), path, recursive=False)
        probe.start()
    except OSError:
        return False
    finally:
        if probe.is_alive():
            probe.stop()
            probe.join()
    return True


def use_native_watcher(server: Any) -> bool:
    """Re-schedule ``server``'s watched paths on a native observer; False if not possible."""
    try:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver

        refs: dict[str, Any] = server._watch_refs
        counts: dict[str, int] = server._watched_paths
        condition = server._rebuild_cond
        polling = server.observer
    except (ImportError, AttributeError):
        return False
    if Observer is PollingObserver or polling.is_alive() or not native_events_work(refs):
        return False  # no native observer here, or the server runs already

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if event.is_directory or event.event_type not in _CHANGES:
                return
            with condition:
                server._want_rebuild = True
                condition.notify_all()

    native = Observer()
    handler = Handler()
    for path, ref in list(refs.items()):
        polling.unschedule(ref)
        refs[path] = native.schedule(handler, path, recursive=True)
    server.observer = native
    # later server.watch() calls schedule MkDocs' own handler on the native
    # observer; route them through ours
    def watch(path: str, func: None = None, *, recursive: bool = True) -> None:
        if func is not None:  # as MkDocs' own watch() says
            raise TypeError("Plugins can no longer pass a 'func' parameter to watch().")
        path = os.path.abspath(path)
        if path in counts:
            counts[path] += 1
            return
        counts[path] = 1
        refs[path] = native.schedule(handler, path, recursive=recursive)

    server.watch = watch
    return True

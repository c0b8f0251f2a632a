"""Plain ``mkdocs serve`` rebuilds like ``mkdocs serve --dirty`` (speed-up ``plain_serve``).

MkDocs 1.6 serves from one temporary ``site_dir`` for the whole session, and
without ``--dirty`` every save calls ``build(config, dirty=False)``: it empties
that folder, then reads and renders every page.  The plugin already knows which
pages a change can alter (``site/serve/plan.py``) and carries that plan out in
a dirty build (``site/serve/dirty.py``), where MkDocs renders only the pages
whose output is gone or older than their source; a dirty build then equals a
clean one byte for byte (the tests compare them).

``install`` wraps the server's builder (``LiveReloadServer.builder``, handed to
``on_serve``): when ``decide()`` says a rebuild may be incremental, it has the
builder call ``build(..., dirty=True)`` for that one rebuild, by swapping the
``build`` name in ``mkdocs.commands.serve`` (what MkDocs' own builder calls)
while it runs, and drops MkDocs' warning that a dirty build is being made (the
user asked for none).  ``decide()`` says no — a full build, as MkDocs would do
it — after a failed build and when anything outside the vault that every page
depends on changed (``mkdocs.yml``, the theme's ``custom_dir``, the files
``watch:`` lists, hooks).

Off (``speedups: false``, another MkDocs), plain serve rebuilds everything:
the same site, slower.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_DIRTY_WARNING = "A 'dirty' build is being performed"


class _DropDirtyWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(_DIRTY_WARNING)


@contextmanager
def _quiet() -> Iterator[None]:
    logger = logging.getLogger("mkdocs.commands.build")
    drop = _DropDirtyWarning()
    logger.addFilter(drop)
    try:
        yield
    finally:
        logger.removeFilter(drop)


def install(server: Any, decide: Callable[[], bool]) -> bool:
    """Make ``server``'s rebuilds dirty ones whenever ``decide()`` says so; False
    when this MkDocs has not the builder and module seen here (nothing changed)."""
    module = sys.modules.get("mkdocs.commands.serve")
    original = getattr(server, "builder", None)
    build = getattr(module, "build", None)
    if module is None or not callable(original) or not callable(build):
        return False
    if getattr(original, "__globals__", None) is not vars(module) and not getattr(
            original, "beliefbase_plain_serve", False):
        return False  # not MkDocs' own builder (another host, a plugin's): it may not call it
    if getattr(original, "beliefbase_plain_serve", False):
        return True  # (installed already)

    def dirty_build(config: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs["dirty"] = True
        with _quiet():
            return build(config, *args, **kwargs)

    def builder(config: Any = None) -> Any:
        if not decide():
            return original() if config is None else original(config)
        setattr(module, "build", dirty_build)  # noqa: B010 - a module's global
        try:
            return original() if config is None else original(config)
        finally:
            setattr(module, "build", build)  # noqa: B010

    builder.beliefbase_plain_serve = True  # type: ignore[attr-defined]
    server.builder = builder
    return True

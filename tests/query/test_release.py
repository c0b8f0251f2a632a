"""A build lets its query database go when its pages are done, not at a later garbage
collection: each database maps a large reserve of memory, and a process that built
many times (``mkdocs serve``, this test suite) ran out of address space ("Mmap for
size 8796093022208 failed") while the plugins of past builds, in reference cycles,
waited for the collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from beliefbase.query import run

from tests.conftest import Project

from .test_pages import build


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_the_database_goes_with_the_build(project: Project, monkeypatch: pytest.MonkeyPatch,
                                          no_collector: None) -> None:
    made: list[weakref.ref[run.QueryEngine]] = []
    init = run.QueryEngine.__init__

    def spy(self: run.QueryEngine, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(weakref.ref(self))

    monkeypatch.setattr(run.QueryEngine, "__init__", spy)
    result = build(project, {"dash.md": "# D\n\n{{query:active-projects | view:count}}\n"})
    assert '<span class="bb-query-number">2</span>' in result.article("dash/")
    assert made and all(ref() is None for ref in made)

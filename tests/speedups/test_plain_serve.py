"""``speedups/plain_serve.py``: plain ``mkdocs serve``'s builder builds dirty when the
plugin says so, as MkDocs would with ``--dirty``, and quietly."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import mkdocs.commands.serve as serve_module
import pytest
from beliefbase.speedups import plain_serve
from beliefbase.speedups.gate import Gate
from mkdocs.commands.build import build

from tests.site.serving import in_serve_module


def test_the_builder_builds_dirty_when_decided(monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    calls: list[dict[str, Any]] = []

    def fake_build(config: Any, **kwargs: Any) -> None:
        calls.append(kwargs)
        logging.getLogger("mkdocs.commands.build").warning(
            "A 'dirty' build is being performed, this will likely lead to inaccurate ...")

    monkeypatch.setattr(serve_module, "build", fake_build)

    def builder(config: Any = None) -> None:  # MkDocs' closure, in miniature
        build(config, serve_url="http://x/", dirty=False)

    server = SimpleNamespace(builder=in_serve_module(builder))
    answers = iter([True, False])
    assert plain_serve.install(server, lambda: next(answers))
    assert plain_serve.install(server, lambda: True)  # (once only)
    with caplog.at_level(logging.INFO):
        server.builder()
        server.builder()
    assert calls == [{"serve_url": "http://x/", "dirty": True},
                     {"serve_url": "http://x/", "dirty": False}]
    assert serve_module.build is fake_build  # put back after the rebuild
    # the user asked for no dirty build: MkDocs' warning about one is not shown
    assert [r.getMessage()[:30] for r in caplog.records] == [
        "A 'dirty' build is being perfo"]  # (only the full build's)


def test_nothing_changes_without_mkdocs_own_builder() -> None:
    assert not plain_serve.install(SimpleNamespace(), lambda: True)
    server = SimpleNamespace(builder=lambda config=None: None)  # not mkdocs.commands.serve's
    assert not plain_serve.install(server, lambda: True)


def test_another_mkdocs_turns_it_off() -> None:
    assert not Gate({"mkdocs": "1.7.0"}).allows("plain_serve")
    assert Gate({}).allows("plain_serve")

"""Compiled theme templates are kept in ``cache_dir`` from one build to the next."""

from __future__ import annotations

import os
import time
from pathlib import Path

import jinja2
from beliefbase.site.templates import MemoryBytecodeCache


class CountingEnvironment(jinja2.Environment):
    compiled = 0

    def compile(self, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        CountingEnvironment.compiled += 1
        return super().compile(*args, **kwargs)


def _render(templates: Path, cache: Path | None, **values: str) -> str:
    """A build: a new environment (MkDocs makes one per build) and a new process's cache."""
    env = CountingEnvironment(loader=jinja2.FileSystemLoader(str(templates)),
                              bytecode_cache=MemoryBytecodeCache(cache))
    return env.get_template("page.html").render(**values)


def test_a_later_build_loads_the_compiled_template(tmp_path: Path) -> None:
    templates, cache = tmp_path / "theme", tmp_path / ".beliefbase" / "templates"
    templates.mkdir()
    (templates / "page.html").write_text("<h1>{{ title }}</h1>", encoding="utf-8")
    CountingEnvironment.compiled = 0
    assert _render(templates, cache, title="A") == "<h1>A</h1>"
    assert CountingEnvironment.compiled == 1 and any(cache.iterdir())
    assert _render(templates, cache, title="B") == "<h1>B</h1>"
    assert CountingEnvironment.compiled == 1  # loaded from the cache directory
    time.sleep(0.01)
    (templates / "page.html").write_text("<h2>{{ title }}</h2>", encoding="utf-8")
    assert _render(templates, cache, title="C") == "<h2>C</h2>"  # edited: compiled again
    assert CountingEnvironment.compiled == 2


def test_a_broken_or_unwritable_cache_only_costs_the_compilation(tmp_path: Path) -> None:
    templates = tmp_path / "theme"
    templates.mkdir()
    (templates / "page.html").write_text("{{ title }}!", encoding="utf-8")
    cache = tmp_path / "cache"
    assert _render(templates, cache, title="A") == "A!"
    for file in cache.iterdir():
        file.write_bytes(b"garbage")
    assert _render(templates, cache, title="B") == "B!"
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory", encoding="utf-8")
    assert _render(templates, blocked / "templates", title="C") == "C!"
    assert not os.path.isdir(blocked)

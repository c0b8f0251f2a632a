"""``mkdocs serve`` with and without ``--dirty``, in this process, for the serve tests.

``Rebuilds(project, plain)`` builds the project as a serve session does:
``plain=False`` as ``mkdocs serve --dirty`` (``project.build(dirty=True)``, as
the dirty tests always did), ``plain=True`` as plain ``mkdocs serve``: one
config and one plugin for the session, the first build, ``on_serve`` with a
server whose ``builder`` is MkDocs' own closure in miniature (a function of
``mkdocs.commands.serve``'s globals that calls its ``build(config, dirty=False)``:
``in_serve_module``), then each rebuild
through ``server.builder()``, as livereload calls it after a save.

MkDocs keeps one plugin instance per process, so a clean build of another
folder in the middle of a plain session would reset it: ``clean`` builds the
copy in a child process then.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mkdocs.commands.build import build
from mkdocs.config import load_config

from tests.conftest import BuildResult, Project


def in_serve_module(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` as if written in ``mkdocs.commands.serve``, as MkDocs' builder is:
    its global names (``build``, ``load_config``) are that module's."""
    import mkdocs.commands.serve as serve_module

    code = func.__code__  # type: ignore[attr-defined]
    return types.FunctionType(code, vars(serve_module), code.co_name,
                              func.__defaults__, func.__closure__)  # type: ignore[attr-defined]


class Rebuilds:
    def __init__(self, project: Project, plain: bool, **changes: Any) -> None:
        self.project = project
        self.plain = plain
        self.changes = changes
        self._config: Any = None
        config_file = str(project.root / "mkdocs.yml")

        def builder(config: Any = None) -> None:
            if config is None:
                config = load_config(config_file)
            build(config, dirty=False)

        self._builder = in_serve_module(builder)
        self.server = SimpleNamespace(builder=self._builder, watch=lambda *a, **k: None)

    def build(self) -> BuildResult:
        """The first build of the session, or a rebuild after a save."""
        if not self.plain:
            return self.project.build(dirty=True, **self.changes)
        error: BaseException | None = None
        try:
            if self._config is None:
                self.project.write_config(**self.changes)
                self._config = load_config(str(self.project.root / "mkdocs.yml"))
                self._config.plugins.on_startup(command="serve", dirty=False)
                self._builder(self._config)
                self._config.plugins.on_serve(self.server, config=self._config,
                                              builder=self._builder)
            else:
                self.server.builder()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            error = exc
        return BuildResult(self.project.root / "site", [], error)

    def close(self) -> None:
        if self._config is not None:
            self._config.plugins.on_shutdown()
            self._config = None

    def clean(self, tmp_path: Path) -> BuildResult:
        """A clean ``mkdocs build`` of a copy of the vault as it is now."""
        root = tmp_path / f"clean-{time.monotonic_ns()}"
        shutil.copytree(self.project.root / "docs", root / "docs")
        clean = Project(root, self.project.config)
        if not self.plain:
            return clean.build(**self.changes)
        clean.write_config(**self.changes)
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root,
                              env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        return BuildResult(root / "site", [], None)

"""Shared fixtures: write a tiny knowledge base, build it with MkDocs in-process.

``project`` returns a ``Project``: write notes with ``project.write(path, text)``
(or bytes), then ``project.build()`` runs a real ``mkdocs build`` (config
loaded from the written mkdocs.yml, plugins and all) and returns a
``BuildResult`` with the site folder, every ``beliefbase:`` log line and the
exception, if the build failed.  ``project.compile()`` runs the compiler only.
"""

from __future__ import annotations

import filecmp
import logging
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from beliefbase.compile import Compiler
from beliefbase.compile.compiled import Compiled
from beliefbase.project import compile_options, load_config, load_project, plugin_config

BASE_CONFIG: dict[str, Any] = {
    "site_name": "Test KB",
    "theme": {"name": "material", "font": False},
    "plugins": ["search", "beliefbase"],
    "markdown_extensions": [
        {"toc": {"permalink": True}},
        "attr_list",
        "tables",
        "footnotes",
        "admonition",
        "pymdownx.superfences",
    ],
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite golden files from the current output")


@dataclass
class BuildResult:
    site: Path
    lines: list[str]  # "LEVEL path:line:col: code: message" of every beliefbase log record
    error: BaseException | None = None
    all_lines: list[str] = field(default_factory=list)

    def page(self, url: str, *, source: bool = False) -> str:
        """The HTML of the page at ``url`` (``alpha/`` or ``""`` for home), without the
        note's "Source" panel (``raw_toggle``: the note's text as written, syntax and
        all) unless ``source``: what the page shows until a reader opens that panel."""
        path = self.site / url / "index.html" if not url.endswith(".html") else self.site / url
        html = path.read_text(encoding="utf-8")
        return html if source else _SOURCE_PANEL.sub("", html)

    def article(self, url: str) -> str:
        """Just the page's <article> (Material), where our output goes."""
        html = self.page(url)
        start = html.index("<article")
        return html[start: html.index("</article>", start)]

    def codes(self) -> list[str]:
        return [line.split(": ")[2] if line.count(": ") >= 2 else line for line in self.lines]


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


#: the "Source" panel of a note's page (theme/raw-source.html)
_SOURCE_PANEL = re.compile(r'<details class="bb-panel bb-source">.*?</details>\n?', re.S)


@dataclass
class Project:
    root: Path
    config: dict[str, Any]

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def write(self, path: str, content: str | bytes, dedent: bool = True) -> Path:
        target = self.docs / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(textwrap.dedent(content) if dedent else content, encoding="utf-8")
        return target

    def write_config(self, **changes: Any) -> Path:
        config = {**self.config, **changes}
        file = self.root / "mkdocs.yml"
        file.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        return file

    def build(self, strict: bool = False, dirty: bool = False, serve: bool = False,
              **changes: Any) -> BuildResult:
        """``mkdocs build`` (``serve``/``dirty``: a rebuild of ``mkdocs serve [--dirty]``)."""
        from mkdocs.commands.build import build

        self.write_config(**changes)
        capture = _Capture()
        logger = logging.getLogger("mkdocs")
        old_level = logger.level
        logger.setLevel(logging.DEBUG)
        logger.addHandler(capture)
        error: BaseException | None = None
        try:
            config = load_config(self.root / "mkdocs.yml")
            config["strict"] = strict
            config.plugins.on_startup(command="serve" if dirty or serve else "build", dirty=dirty)
            try:
                build(config, dirty=dirty)
            finally:
                config.plugins.on_shutdown()
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            if isinstance(exc, KeyboardInterrupt):
                raise
            error = exc
        finally:
            logger.removeHandler(capture)
            logger.setLevel(old_level)
        lines = [
            f"{r.levelname} {r.getMessage().removeprefix('beliefbase: ')}"
            for r in capture.records
            if r.name.startswith("mkdocs.plugins.beliefbase")
        ]
        return BuildResult(self.root / "site", lines, error,
                           [f"{r.levelname} {r.getMessage()}" for r in capture.records])

    def compile(self, compiler: Compiler | None = None) -> Compiled:
        self.write_config()
        sources, options = load_project(self.root / "mkdocs.yml")
        return (compiler or Compiler(options)).compile(sources)

    def compiler(self, cache: bool = False) -> Compiler:
        self.write_config()
        config = load_config(self.root / "mkdocs.yml")
        options = compile_options(config, plugin_config(config))
        return Compiler(options, self.root / ".beliefbase" if cache else None)

    def sources(self) -> list[Any]:
        self.write_config()
        return load_project(self.root / "mkdocs.yml")[0]


def build_copy(vault: Path, into: Path) -> BuildResult:
    """Build a copy of a fixture vault (its folder holds ``mkdocs.yml`` and ``docs/``)."""
    import shutil

    root = into / vault.name
    shutil.copytree(vault, root)
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    result = Project(root, config).build()
    assert result.error is None, result.error
    return result


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    root = tmp_path / "kb"
    (root / "docs").mkdir(parents=True)
    yield Project(root, dict(BASE_CONFIG))


def diagnostic_lines(result: BuildResult, code: str | None = None) -> list[str]:
    """Log lines of diagnostics (``WARNING docs/a.md:3:5: code: message``)."""
    return [line for line in result.lines
            if _DIAGNOSTIC.match(line) and (code is None or f": {code}: " in line)]


_DIAGNOSTIC = re.compile(r"^[A-Z]+ \S+:\d+:\d+: [a-z-]+: ")


def differing(a: Path, b: Path) -> list[str]:
    """Files of two site folders that differ, or exist in one only (relative paths)."""
    out: list[str] = []
    cmp = filecmp.dircmp(a, b)
    stack = [(cmp, "")]
    while stack:
        node, prefix = stack.pop()
        out += [prefix + n for n in node.left_only + node.right_only + node.diff_files]
        out += [prefix + n for n in filecmp.cmpfiles(node.left, node.right, node.same_files,
                                                     shallow=False)[1]]
        stack += [(sub, f"{prefix}{name}/") for name, sub in node.subdirs.items()]
    return sorted(out)

"""A quiet log (issue 29): a rebuild of ``mkdocs serve`` logs only the diagnostics new
or gone since the last build, then one summary line; a first build shows a code met
many times by its first few and a count; a long first build shows its progress at
most every few seconds. ``--strict`` still fails on warnings."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from beliefbase import diagnostics as diag
from beliefbase.site.log import FIRST, MANY, DiagnosticLog, Progress

from ..conftest import Project, _Capture


@contextmanager
def captured() -> Iterator[list[str]]:
    capture = _Capture()
    logger = logging.getLogger("mkdocs")
    old = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(capture)
    lines: list[str] = []
    try:
        yield lines
    finally:
        logger.removeHandler(capture)
        logger.setLevel(old)
        lines += [f"{r.levelname} {r.getMessage().removeprefix('beliefbase: ')}"
                  for r in capture.records if r.name.startswith("mkdocs.plugins.beliefbase")]


def test_a_serve_rebuild_logs_what_changed(project: Project) -> None:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    project.write("index.md", "# Home\n\n[[a]] [[b]]\n")
    project.write("a.md", "# A\n\n[[gone-1]] [[gone-2]]\n")
    project.write("b.md", "# B\n\n[[stays]]\n")
    project.write_config()
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        with captured() as first:
            mkdocs_build(config)
        project.write("a.md", "# A\n\n[[gone-1]] [[new-one]]\n")  # one fixed, one new
        with captured() as second:
            mkdocs_build(load_config(str(project.root / "mkdocs.yml")))
        with captured() as third:  # nothing changed: one line
            mkdocs_build(load_config(str(project.root / "mkdocs.yml")))
    finally:
        config.plugins.on_shutdown()
    assert [line.split(": ")[0] for line in first if ": unresolved-link: " in line] == [
        "WARNING docs/a.md:3:1", "WARNING docs/a.md:3:12", "WARNING docs/b.md:3:1"]
    assert [line for line in second if "link" in line or "warning" in line] == [
        "WARNING docs/a.md:3:12: unresolved-link: [[new-one]] matches no note, title or "
        "alias; create the note or fix the link",
        "INFO fixed: docs/a.md:3:12: unresolved-link: [[gone-2]] matches no note, title or "
        "alias; create the note or fix the link",
        "WARNING 3 warnings, 1 new, 1 gone (all in _beliefbase/diagnostics.json)",
    ]
    assert [line for line in third if "link" in line or "warning" in line] == [
        "WARNING 3 warnings, 0 new (all in _beliefbase/diagnostics.json)"]
    # a new `mkdocs build` in the same process (MkDocs keeps the plugin) shows them all
    fresh = project.build()
    assert len([line for line in fresh.lines if ": unresolved-link: " in line]) == 3


def test_a_page_left_alone_keeps_its_render_error(project: Project, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A dirty rebuild (``--dirty``, or plain serve's) that does not render a page
    again keeps its render-error: the log does not call it fixed, and
    diagnostics.json still has it."""
    import json

    from beliefbase.codecs import guards
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from tests.hostile.vault import DEEP_STRONG

    monkeypatch.setattr(guards, "MAX_EMPHASIS", 10**9)  # Python-Markdown itself fails
    project.write("index.md", "# Home\n")
    project.write("deep.md", DEEP_STRONG, dedent=False)
    project.write("b.md", "# B\n\nText.\n")
    project.write_config()
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=True)
    try:
        with captured() as first:
            mkdocs_build(config, dirty=True)
        project.write("b.md", "# B\n\nOther text.\n")
        config = load_config(str(project.root / "mkdocs.yml"))
        with captured() as second:
            mkdocs_build(config, dirty=True)
    finally:
        config.plugins.on_shutdown()
    assert any(": render-error: " in line for line in first)
    assert not [line for line in second if "render-error" in line], second
    site = Path(config.site_dir)
    found = json.loads((site / "_beliefbase" / "diagnostics.json").read_text())
    records = found["diagnostics"] if isinstance(found, dict) else found
    assert [d for d in records if d["code"] == "render-error"], records


def _many(code: str, n: int, file: str = "docs/a.md") -> list[diag.Diagnostic]:
    return [diag.make(code, file, i, 1, f"message {i}") for i in range(1, n + 1)]


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.getMessage()}")


def _logger() -> tuple[logging.Logger, _Lines]:
    logger = logging.getLogger(f"test-quiet-log-{id(object())}")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    handler = _Lines()
    logger.addHandler(handler)
    return logger, handler


def test_a_first_build_sums_up_a_code_met_many_times() -> None:
    logger, out = _logger()
    log = DiagnosticLog()
    log.begin(rebuild=False)
    flood = _many("unresolved-link", MANY + 10)
    few = _many("bad-date", 3, "docs/b.md")
    log.show(logger, flood + few, quiet=False)
    for d in _many("query-error", MANY + 4, "docs/q.md"):  # one at a time, as pages render
        log.show(logger, [d], quiet=False)
    log.end(logger, flood + few + _many("query-error", MANY + 4, "docs/q.md"), False, "x.json")
    assert len([line for line in out.lines if ": unresolved-link: " in line]) == FIRST
    assert len([line for line in out.lines if ": bad-date: " in line]) == 3
    assert len([line for line in out.lines if ": query-error: " in line]) == MANY
    counts = [line for line in out.lines if " in all, " in line]
    assert counts == [
        f"WARNING unresolved-link: {MANY + 10} in all, the first {FIRST} above (every one is "
        "in _beliefbase/diagnostics.json; `beliefbase check` prints them all)",
        f"WARNING query-error: {MANY + 4} in all, the first {MANY} above (every one is in "
        "_beliefbase/diagnostics.json; `beliefbase check` prints them all)"]
    assert out.lines[-1].startswith(f"INFO {2 * MANY + 17} diagnostics: 3 bad-date, ")


def test_quiet_and_levels() -> None:
    logger, out = _logger()
    log = DiagnosticLog()
    log.begin(rebuild=False)
    found = _many("unresolved-link", 2) + _many("invariant", 1)
    log.show(logger, found, quiet=True)  # strict: false: warnings as info, errors stay
    assert [line.split()[0] for line in out.lines] == ["ERROR", "INFO", "INFO"]
    log.end(logger, found, True, "x.json")
    log.begin(rebuild=True)
    log.show(logger, found, quiet=True)
    log.end(logger, found, True, "x.json")
    assert out.lines[-1] == "ERROR 1 error, 2 warnings, 0 new (all in x.json)"


def test_progress_at_most_every_few_seconds() -> None:
    logger, out = _logger()
    now = [0.0]
    progress = Progress(logger, clock=lambda: now[0], every=5.0, notes=300)
    progress.compiling(301, first=True)
    now[0] = 2.0
    progress.stage("parsed 301 files")  # 2 s after the last line: not said
    now[0] = 6.0
    progress.stage("checked")
    now[0] = 7.0
    progress.rendering(1000)
    for i in range(1, 1001):
        now[0] = 7.0 + i / 50  # 20 s of pages: a line every 5 s, never one per page
        progress.page()
    progress.done()
    assert out.lines == ["INFO compiling 301 files (parse, resolve, check)",
                         "INFO compiling: checked (6.0 s)",
                         "INFO compiled in 7.0 s; rendering 1,000 pages",
                         "INFO pages 250/1,000", "INFO pages 500/1,000", "INFO pages 750/1,000"]
    quiet, lines = _logger()
    small = Progress(quiet, clock=lambda: 0.0)
    small.compiling(300, first=True)  # a small vault, or a rebuild: no progress
    small.rendering(300)
    small.page()
    rebuild = Progress(quiet, clock=lambda: 0.0)
    rebuild.compiling(5000, first=False)
    rebuild.page()
    assert lines.lines == []

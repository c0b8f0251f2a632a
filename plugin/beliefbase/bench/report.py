"""Presenting a run: the stdout table, the Markdown table for the docs, the JSON.

One table, rows = quantities, columns = vault sizes.  Times are the best of
``--repeat`` samples; ratios are computed from those best times.  A cell that
has no number says why ("skipped", "unavailable", "failed", "timeout").
"""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

from .run import Measurement, RunOptions, SizeResult, git_revision

JSON_VERSION = 1

Cell = Callable[[SizeResult], str]


def _time(key: str) -> Cell:
    return lambda r: _measure_cell(r.measurements.get(key), lambda m: m.best, "{:.2f} s")


def _rss(key: str) -> Cell:
    return lambda r: _measure_cell(r.measurements.get(key), lambda m: m.rss_mb, "{:,.0f} MB")


def _ratio(key: str, unit: str = "×") -> Cell:
    def cell(r: SizeResult) -> str:
        value = r.ratios()[key]
        return "–" if value is None else f"{value:.2f}{unit}"

    return cell


def _vault(r: SizeResult) -> str:
    size = r.manifest.get("bytes", 0) / 1e6
    return f"{size:.1f} MB, {r.manifest.get('wikilinks', 0):,} links"


#: (label, cell) in display order.
ROWS: tuple[tuple[str, Cell], ...] = (
    ("vault (Markdown, wikilinks)", _vault),
    ("Python-Markdown floor", _time("floor")),
    ("compile-only", _time("compile")),
    ("incremental re-compile, 1 note edited", _time("incremental")),
    ("mkdocs build, beliefbase, cold", _time("build_cold")),
    ("mkdocs build, beliefbase, warm cache", _time("build_warm")),
    ("mkdocs build, beliefbase + explorer, cold", _time("build_explorer")),
    ("mkdocs build, plain Material", _time("plain")),
    ("mkdocs build, plain Material, navigation emptied", _time("plain_nonav")),
    ("peak memory, compile-only", _rss("compile")),
    ("peak memory, beliefbase cold build", _rss("build_cold")),
    ("peak memory, beliefbase warm build", _rss("build_warm")),
    ("peak memory, beliefbase + explorer", _rss("build_explorer")),
    ("peak memory, plain Material", _rss("plain")),
    ("peak memory, plain Material, navigation emptied", _rss("plain_nonav")),
    ("ours/plain, cold build", _ratio("build_cold/plain")),
    ("ours/plain, warm build", _ratio("build_warm/plain")),
    ("ours/plain, peak memory", _ratio("rss_cold/plain")),
    ("ours/floor, cold build", _ratio("build_cold/floor")),
    ("explorer build/floor", _ratio("explorer/floor")),
    ("plain Material/explorer build (speed-up)", _ratio("plain/explorer")),
    ("explorer build/plain, peak memory", _ratio("rss_explorer/plain")),
    ("explorer build/Material without navigation", _ratio("explorer/nonav")),
    ("explorer build/Material without navigation, peak memory",
     _ratio("rss_explorer/nonav")),
    ("Material without navigation/floor", _ratio("nonav/floor")),
    ("ours/floor, compile-only", _ratio("compile/floor")),
    ("compile-only per 1,000 notes", _ratio("compile_per_1000_s", " s")),
)


def rows(results: list[SizeResult]) -> list[list[str]]:
    """The table as strings, header first."""
    header = ["", *(f"{r.notes:,} notes" for r in results)]
    return [header, *([label, *(cell(r) for r in results)] for label, cell in ROWS)]


def text_table(results: list[SizeResult]) -> str:
    """Aligned columns for a terminal."""
    table = rows(results)
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = []
    for number, row in enumerate(table):
        cells = [
            row[0].ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)),
        ]
        lines.append("  ".join(cells).rstrip())
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(results: list[SizeResult]) -> str:
    """A GitHub/Python-Markdown table ready to paste into docs/reference/benchmarks.md."""
    table = rows(results)
    lines = [
        "| " + " | ".join(table[0]) + " |",
        "|---|" + "---:|" * (len(table[0]) - 1),
    ]
    lines.extend("| " + " | ".join(row) + " |" for row in table[1:])
    return "\n".join(lines)


def remarks(results: list[SizeResult]) -> list[str]:
    """Lines under the table: why cells are empty, a busy machine, the compile's counts.

    The counts are checked against what the generator wrote: a difference means
    the compiler lost or invented links.
    """
    lines: dict[str, None] = {}
    for r in results:
        for key, m in r.measurements.items():
            if m.status != "ok" and m.note.strip():
                last = m.note.strip().splitlines()[-1]
                lines.setdefault(f"{key} {m.status} at {r.notes:,} notes: {last}", None)
        busy = [
            f"{key} ({m.extra['load_before']:.1f})"
            for key, m in r.measurements.items()
            if m.extra.get("load_before", 0.0) > (os.cpu_count() or 1)
        ]
        if busy:
            lines.setdefault(
                f"busy machine at {r.notes:,} notes, load average before {', '.join(busy)} "
                f"on {os.cpu_count()} CPUs: those times are inflated",
                None,
            )
        checks = expectations(r)
        if checks:
            text = ", ".join(
                f"{name} {got:,}" + ("" if got == want else f" (generated {want:,}!)")
                for name, got, want in checks
            )
            lines.setdefault(f"compile at {r.notes:,} notes: {text}", None)
    return list(lines)


def expectations(r: SizeResult) -> list[tuple[str, int, int]]:
    """(what, the compiler's count, the generator's count) for one size."""
    extra = r.measurements["compile"].extra if "compile" in r.measurements else {}
    diagnostics, manifest = extra.get("diagnostics"), r.manifest
    if diagnostics is None or not manifest or "links" not in manifest:
        return []  # (gen_vault.py counts no links)
    links = manifest.get("links", {})
    out = [
        ("unresolved-link", diagnostics.get("unresolved-link", 0), links.get("dangling", 0)),
        ("ambiguous-link", diagnostics.get("ambiguous-link", 0), links.get("ambiguous", 0)),
    ]
    if "resolved_links" in extra:
        generated = (
            manifest.get("wikilinks", 0)
            + manifest.get("embeds", 0)
            + manifest.get("markdown_links", 0)
        )
        out.append(("links", extra["resolved_links"], generated))
    return out


def json_document(results: list[SizeResult], options: RunOptions, started: float) -> dict[str, Any]:
    """The whole run as JSON (``--json``)."""
    return {
        "version": JSON_VERSION,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "seconds_total": round(time.time() - started, 1),
        "machine": machine(),
        "options": {
            "sizes": list(options.sizes),
            "seed": options.seed,
            "repeat": options.repeat,
            "plain_max": options.plain_max,
            "skip_plain": options.skip_plain,
            "timeout": options.timeout,
        },
        "results": [r.to_json() for r in results],
    }


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    versions: dict[str, str | None] = {}
    for dist in (
        "mkdocs",
        "mkdocs-material",
        "markdown",
        "pymdown-extensions",
        "mkdocs-beliefbase",
    ):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "beliefbase_commit": git_revision(),
        "versions": versions,
    }


def _measure_cell(
    m: Measurement | None, value_of: Callable[[Measurement], float | None], fmt: str
) -> str:
    """The number, the reason there is none (``skipped`` ...), or a dash."""
    if m is None:
        return "–"
    if m.status != "ok":
        return m.status
    value = value_of(m)
    return "–" if value is None else fmt.format(value)

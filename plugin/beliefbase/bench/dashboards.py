"""Macro-measure: a generated vault built with and without 50 embedded queries.

    python -m beliefbase.bench.dashboards VAULT [--runs N] [--in-process]

``VAULT`` is a generated bench vault (``python -m beliefbase.bench --sizes 5000
--generate-only --out DIR`` makes ``DIR/vault-5000-s1``).  A copy of it gets 50
queries appended to 50 of its notes (half ```` ```base ````, half
```` ```dataview ````, the shapes of ``BASES`` and ``DQL``); both are built with
``mkdocs build`` in a fresh child, and the builds' CPU time (user + system, the
children's) and peak RSS (``run_child``) are printed, each the median of
``--runs``.  Issue 27 asks for the queries to cost ≤ 5% of the build time and
≤ 10% of its peak memory.

``--in-process`` instead compiles the vault with queries once and prints the CPU
time and the memory (tracemalloc) of the engines' data: the shared file records
(``compile.vault_files``), the Bases records, the Dataview records and index, and
the CPU time of each query shape over it.
Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import resource
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from .child import python_module, run_child

#: DQL shapes (each used five times)
DQL = [
    'TABLE title, created, file.mtime AS "Modified"\nFROM #roadmap\n'
    "WHERE created >= date(2024-01-01)\nSORT created DESC\nLIMIT 50",
    'LIST FROM #howto WHERE contains(file.name, "a") SORT file.name',
    "TABLE length(rows) AS n GROUP BY file.folder",
    'TABLE file.inlinks AS "In" FROM "teams" SORT length(file.inlinks) DESC LIMIT 20',
    "LIST WHERE file.tags AND created < date(2023-01-01) SORT created",
]

#: base shapes (each used five times)
BASES = [
    'filters: file.hasTag("roadmap")\nviews:\n  - type: table\n    name: Roadmap\n'
    "    order:\n      - file.name\n      - created\n    sort:\n      - property: created\n"
    "        direction: DESC\n    limit: 50",
    'filters:\n  and:\n    - file.inFolder("teams")\n    - created > "2024-01-01"\n'
    "views:\n  - type: table\n    order:\n      - file.name\n      - file.mtime",
    'views:\n  - type: list\n    filters: file.hasTag("howto")\n    order:\n      - file.name',
    'filters: file.name.contains("cache")\nviews:\n  - type: cards\n    order:\n'
    "      - file.name\n      - tags",
    "views:\n  - type: table\n    groupBy:\n      property: file.folder\n"
    '    filters: file.hasTag("spec")\n    order:\n      - file.name',
]


def with_queries(vault: Path, out: Path, count: int = 50) -> Path:
    """A copy of ``vault`` at ``out`` with ``count`` queries appended to as many notes
    spread over the vault (even: a base, odd: a DQL query)."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(vault, out)
    notes = sorted((out / "docs").rglob("*.md"))
    step = max(1, len(notes) // count)
    for i in range(min(count, len(notes))):
        note = notes[i * step]
        fence, query = ("dataview", DQL[(i // 2) % len(DQL)]) if i % 2 else \
            ("base", BASES[(i // 2) % len(BASES)])
        note.write_text(note.read_text(encoding="utf-8") + f"\n\n## Query\n\n```{fence}\n"
                        f"{query}\n```\n", encoding="utf-8")
    return out


def _build(vault: Path) -> tuple[float, int]:
    """CPU seconds and peak RSS bytes of ``mkdocs build`` of ``vault`` (the site,
    gigabytes at 5,000 notes, is removed at once)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(dir=vault.parent) as site:
        child = run_child(python_module("mkdocs", "build", "-q", "-f",
                                        str(vault / "mkdocs.yml"), "-d", site), cwd=vault)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not child.ok:
        raise SystemExit(f"build of {vault} failed:\n{child.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, child.max_rss_bytes


def builds(vault: Path, runs: int) -> None:
    queried = with_queries(vault, vault.parent / (vault.name + "-queries"))
    results: dict[str, list[tuple[float, int]]] = {"without": [], "with": []}
    for _ in range(runs):
        for name, root in (("without", vault), ("with", queried)):
            results[name].append(_build(root))
    base_cpu = statistics.median(c for c, _ in results["without"])
    base_rss = statistics.median(r for _, r in results["without"])
    for name, got in results.items():
        cpu = statistics.median(c for c, _ in got)
        rss = statistics.median(r for _, r in got)
        print(f"{name:>7} queries: CPU {cpu:6.1f} s ({(cpu / base_cpu - 1) * 100:+.1f}%), "
              f"peak RSS {rss / 2**20:6.0f} MB ({(rss / base_rss - 1) * 100:+.1f}%)")


def in_process(vault: Path) -> None:
    from .. import bases
    from .. import dataview as dv
    from ..codecs.markdown import note_text
    from ..project import compile_project

    queried = with_queries(vault, vault.parent / (vault.name + "-queries"))
    compiled = compile_project(queried / "mkdocs.yml")
    docs = Path(compiled.options.docs_dir)
    gc.collect()
    gc.set_threshold(50_000, 50, 100)  # the build's (site/build.py)
    tracemalloc.start()

    def step(name: str, make):  # type: ignore[no-untyped-def]
        gc.collect()
        tracemalloc.reset_peak()
        kept = tracemalloc.get_traced_memory()[0]
        start = time.process_time()
        made = make()
        cpu = time.process_time() - start
        now_kept, peak = tracemalloc.get_traced_memory()
        print(f"{name}: {cpu * 1000:.0f} ms CPU (under tracemalloc), "
              f"{(now_kept - kept) / 1e6:.1f} MB kept, peak +{(peak - kept) / 1e6:.1f} MB")
        return made

    files = compiled.vault_files()
    step("shared file records", lambda: files.files)
    records = step("bases records", lambda: bases.records_from_files(files))
    index = step("dataview records and index", lambda: dv.index_from_files(
        files, lambda p: note_text((docs / p).read_bytes())[0]))
    tracemalloc.stop()
    now = dt.datetime(2026, 1, 1)
    gc.freeze()
    print("query CPU, median of 5 (each parsed once before):")
    for query in DQL:
        dv.run(query, index, None, now=now)
        times = []
        for _ in range(5):
            start = time.process_time()
            dv.run(query, index, None, now=now)
            times.append(time.process_time() - start)
        print(f"  {statistics.median(times) * 1000:6.1f} ms  DQL {' '.join(query.split())}")
    for text in BASES:
        base = bases.parse_base(text, "bench.base")
        times = []
        for _ in range(6):
            start = time.process_time()
            bases.evaluate(base, None, records, None, now=now)
            times.append(time.process_time() - start)
        print(f"  {statistics.median(times[1:]) * 1000:6.1f} ms  base "
              f"{' '.join(text.split())[:70]}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m beliefbase.bench.dashboards")
    parser.add_argument("vault", type=Path)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--in-process", action="store_true")
    options = parser.parse_args(argv)
    if options.in_process:
        in_process(options.vault.resolve())
    else:
        builds(options.vault.resolve(), options.runs)


if __name__ == "__main__":
    main(sys.argv[1:])

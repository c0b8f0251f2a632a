"""Micro-measure: one typical DQL query over 5,000 generated notes.

    python -m beliefbase.bench.dataview [notes] [runs]

Prints the time to read the records and build the index (once per site
build), the query's median, best and worst wall time and its median CPU time
(issue 27 asks for ≤ 20 ms), and the CPU time of four other query shapes.
Not a test: timings depend on the machine.
"""

from __future__ import annotations

import datetime as dt
import gc
import random
import statistics
import sys
import time

from ..dataview.engine import build_index, run
from ..dataview.records import PageRecord, record_from_markdown

QUERY = """TABLE status, priority, due, file.mtime AS "Modified"
FROM #project AND -"archive"
WHERE status != "done" AND due <= date(today) + dur(2 weeks)
SORT priority DESC, due ASC
LIMIT 50"""


#: other shapes of query, for comparison
MORE = [
    "TABLE length(rows) AS n, sum(rows.priority) AS p GROUP BY status",
    'LIST WHERE contains(lower(file.name), "12") SORT file.name',
    "TASK WHERE !completed AND by < date(today) GROUP BY file.folder",
    'TABLE Summary FROM "projects" FLATTEN file.tasks AS t WHERE !t.completed LIMIT 100',
    # the integrator's shapes (bench/dashboards.py: a whole vault, no FROM)
    "LIST WHERE file.tags AND due < date(2024-06-01) SORT due",
    "TABLE length(rows) AS n GROUP BY file.folder",
]


def generate(count: int, seed: int = 7) -> list[PageRecord]:
    rnd = random.Random(seed)
    start = dt.datetime(2024, 1, 1)
    out = []
    for i in range(count):
        folder = rnd.choice(["projects", "areas", "journal", "archive", "projects/sub"])
        tags = "#project" if rnd.random() < 0.6 else "#note"
        body = (f"{tags}\n\nSummary:: note {i}\nRelated:: [[note {rnd.randrange(count)}]]\n\n"
                f"- [ ] first task [by:: 2024-0{rnd.randint(1, 9)}-1{rnd.randint(0, 9)}]\n"
                "- [x] done task\n")
        meta = {"status": rnd.choice(["active", "waiting", "done"]),
                "priority": rnd.randint(1, 5),
                "due": (start + dt.timedelta(days=rnd.randrange(365))).date()}
        out.append(record_from_markdown(
            f"{folder}/note {i}.md", body, meta, ctime=start,
            mtime=start + dt.timedelta(minutes=rnd.randrange(500_000))))
    return out


def main(argv: list[str]) -> None:
    count = int(argv[0]) if argv else 5000
    runs = int(argv[1]) if len(argv) > 1 else 30
    t0 = time.perf_counter()
    records = generate(count)
    made = time.perf_counter() - t0
    t0 = time.perf_counter()
    index = build_index(records)
    built = time.perf_counter() - t0
    # the index lives as long as the build: keep the collector from rescanning it
    # during the measured queries (a full collection over a large heap takes
    # longer than the query; the build's own collector policy is process/collector.py's)
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)  # the build's collector thresholds (site/build.py)
    now = dt.datetime(2024, 6, 1, 12, 0)
    run(QUERY, index, None, now=now)  # parse once (cached), as a build does
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        result = run(QUERY, index, None, now=now)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    print(f"{count} notes: records read in {made * 1000:.0f} ms (inline fields, tasks), "
          f"index built in {built * 1000:.0f} ms")
    print(f"query ({len(result.rows)} rows): median {statistics.median(times) * 1000:.1f} ms, "
          f"best {min(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms over {runs} runs; "
          f"CPU median {statistics.median(cpu) * 1000:.1f} ms (a shared machine's load "
          "shows in wall time, not in CPU time)")
    for query in MORE:
        cpu = []
        for _ in range(max(3, runs // 3)):
            c0 = time.process_time()
            run(query, index, None, now=now)
            cpu.append(time.process_time() - c0)
        print(f"  CPU median {statistics.median(cpu) * 1000:6.1f} ms: {' '.join(query.split())}")


if __name__ == "__main__":
    main(sys.argv[1:])

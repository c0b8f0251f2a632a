"""Micro-measure: one typical base over generated records (issue 27 asks <= 20 ms
for 5,000).  ``python -m beliefbase.bench.bases [N]``; not a timed test."""

from __future__ import annotations

import datetime as dt
import gc
import statistics
import sys
import time

from ..bases.context import RecordSet
from ..bases.engine import evaluate
from ..bases.model import parse_base
from ..bases.values import make_record

TYPICAL = """\
filters:
  and:
    - file.hasTag("book")
    - 'file.ext == "md"'
formulas:
  cost: 'if(price, (price * 1.2).toFixed(2), "")'
  age_days: (now() - file.ctime).days
properties:
  note.author:
    displayName: Author
views:
  - type: table
    name: Reading list
    filters:
      and:
        - 'status != "done"'
    order: [file.name, author, status, rating, formula.cost, formula.age_days]
    sort:
      - {property: rating, direction: DESC}
      - {property: file.name, direction: ASC}
    summaries:
      rating: Average
"""

STATUSES = ("todo", "reading", "done")


def generate(n: int) -> RecordSet:
    """``n`` notes: a third tagged #book, some with every property, some with none."""
    start = dt.datetime(2024, 1, 1)
    records = []
    for i in range(n):
        tags = ["book", "book/scifi"] if i % 3 == 0 else (["person"] if i % 3 == 1 else [])
        props = {"status": STATUSES[i % 3 if i % 2 else (i // 3) % 3],
                 "rating": i % 5 + 1, "price": (i % 40) + 0.5,
                 "author": f"[[Author {i % 97}]]"} if i % 7 else {}
        records.append(make_record(
            f"Notes/{i // 500:02d}/Note {i:05d}.md", props,
            tags=tags, links=[f"Note {(i * 7) % n:05d}"],
            ctime=start + dt.timedelta(hours=i), mtime=start + dt.timedelta(hours=2 * i)))
    return RecordSet(records)


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 5000
    records = generate(n)
    base = parse_base(TYPICAL, "Bench.base")
    assert base.ok, base.errors
    now = dt.datetime(2025, 5, 27, 12)
    # the records live as long as the build, whose collector thresholds these are
    # (site/build.py): keep a collection of the whole heap out of the measure
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    wall, cpu = [], []
    for _ in range(15):
        began, began_cpu = time.perf_counter(), time.process_time()
        result = evaluate(base, None, records, now=now)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    # CPU time as well as wall time: on a shared machine the wall clock measures the
    # neighbours too
    print(f"{n} records, {result.total} rows shown, {len(result.columns)} columns: "
          f"wall median {statistics.median(wall):.1f} ms (best {min(wall):.1f}), "
          f"CPU median {statistics.median(cpu):.1f} ms (best {min(cpu):.1f})")


if __name__ == "__main__":
    main(sys.argv[1:])

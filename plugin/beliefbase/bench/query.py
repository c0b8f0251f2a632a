"""``python -m beliefbase.bench.query``: how fast queries are (SPEC §8, issue 18).

For each size (default 1,000 and 5,000 notes; ``--sizes 1000,5000,20000``) it
generates the benchmark vault, compiles it, and measures:

* **load**: the compiled graph into a new in-memory ladybug database (the cost
  a build pays once, on its first query; goal at 5,000 notes: 0.5 s or less);
* **10 queries**: converting a page with 10 different query fences minus the
  same page without them, the database already loaded (goal: 50 ms or less).

Not a timed test: figures depend on the machine; docs/reference/benchmarks.md
holds the last ones.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import markdown

from ..project import compile_project
from ..query.load import load
from ..query.source import graph_of
from ..site.markdown.query_embeds import QueryExtension, build_site
from ..site.query_views import Views
from ..site.render import Frame
from .vault import generate_vault

QUERIES = (
    "MATCH (n:Note) RETURN n ORDER BY n.title LIMIT 20",
    "MATCH (d) WHERE d.kind = 'Document' RETURN count(*)",
    "MATCH (a:Note)-[:links_to]->(b:Note) RETURN a.title, count(b) AS out "
    "ORDER BY out DESC LIMIT 10",
    "MATCH (t:Tag)<-[:tagged]-(n) RETURN t.title, count(n) AS notes ORDER BY notes DESC LIMIT 10",
    "MATCH (n:Note) WHERE NOT (n)<-[:links_to]-() RETURN n LIMIT 20",
    "MATCH (a:Note)-[:links_to*1..2]->(b:Note) WHERE a.title STARTS WITH 'A' "
    "RETURN DISTINCT b.title LIMIT 20",
    "MATCH (n:Note) OPTIONAL MATCH (n)-[:embeds]->(e) RETURN n.title, count(e) AS embeds "
    "ORDER BY embeds DESC LIMIT 10",
    "MATCH (s:Section)-[:child_of]->(d:Note) RETURN d.title, count(s) AS sections "
    "ORDER BY sections DESC LIMIT 10",
    "MATCH (n:Note) WHERE n.title CONTAINS 'e' RETURN n.title SKIP 5 LIMIT 10",
    "MATCH (n:Note) WITH n, size(n.tags) AS t WHERE t > 1 RETURN n LIMIT 15",
)


def measure(size: int, work: Path, runs: int) -> dict[str, float]:
    vault = generate_vault(work / f"vault{size}", size)
    compiled = compile_project(vault / "mkdocs.yml")
    graph = graph_of(compiled)
    loads, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        load(graph)
        loads.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)  # every thread's: what it costs an idle machine
    extension = QueryExtension()
    doc = next(iter(compiled.published.values()))
    frames = [Frame(doc, "bench/")]

    class Renderer:  # what build_site reads of the page renderer
        pass

    renderer = Renderer()
    renderer.frames = frames  # type: ignore[attr-defined]
    site = build_site(compiled, renderer, Views(None, {}), lambda d: None,  # type: ignore[arg-type]
                      5.0, 1000)
    extension.site = site
    site.engine.loaded  # noqa: B018 - loaded once, as in a build
    md = markdown.Markdown(extensions=["tables", extension])
    plain = "# Page\n\n" + "\n\n".join(f"Paragraph {i} of text." for i in range(10)) + "\n"
    with_queries = plain + "".join(f"\n```query\n{q}\n```\n" for q in QUERIES)
    extra = []
    for _ in range(runs):
        site.engine._memo.clear()  # every query really runs
        start = time.perf_counter()
        md.reset().convert(with_queries)
        middle = time.perf_counter()
        md.reset().convert(plain)
        extra.append((middle - start) - (time.perf_counter() - middle))
    return {"notes": size, "nodes": len(graph.nodes), "edges": len(graph.edges),
            "load_s": statistics.median(loads), "load_cpu_s": statistics.median(cpus),
            "ten_queries_ms": statistics.median(extra) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m beliefbase.bench.query",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000",
                        help="note counts, comma-separated (default 1000,5000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bb-bench-query-") as tmp:
        print("| notes | nodes | edges | graph load (wall) | graph load (CPU) "
              "| page with 10 queries |")
        print("|---:|---:|---:|---:|---:|---:|")
        for size in (int(s) for s in args.sizes.split(",") if s.strip()):
            r = measure(size, Path(tmp), args.runs)
            print(f"| {r['notes']:,} | {r['nodes']:,} | {r['edges']:,} | {r['load_s']:.2f} s "
                  f"| {r['load_cpu_s']:.2f} s | +{r['ten_queries_ms']:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()

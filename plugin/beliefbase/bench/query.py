"""``python -m beliefbase.bench.query``: how fast queries are (SPEC §8, issue 18).

For each size (default 1,000 and 5,000 notes; ``--sizes 1000,5000,20000``) it
generates the benchmark vault, compiles it, and measures:

* **full load**: the whole compiled graph into a new in-memory ladybug database
  (what a build pays once when a query has an unlabelled node or an untyped
  relationship; goal at 5,000 notes: 0.5 s or less);
* **notes and links**: what a build pays when its queries name only ``Note`` and
  ``links_to`` (tables are filled the first time a query can reach them);
* **documents**: what ``MATCH (d) WHERE d.kind = 'Document'`` loads (every label
  holding a document, no section);
* **the 10 queries' tables**: what the page below makes a build load, table by table;
* **10 queries**: the CPU time of converting a page with 10 different query fences
  minus the same page without them, every table already loaded (goal: 50 ms or less);
* **no query** (smallest size only): what the query feature costs a build whose pages
  have none: its preprocessor on every page, the scan for pages with a query (the
  Markdown worker's and ``--dirty``'s), the type checks of the compile, and importing
  its modules (the engine, ``ladybug``, is not imported: its import cost is shown).

All CPU time (every thread's: what it costs an idle machine).

Not a timed test: figures depend on the machine; docs/reference/benchmarks.md
holds the last ones.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import markdown

from ..compile.compiled import Compiled
from ..compile.schema import check_schemas
from ..project import compile_project
from ..query.load import load, prepare
from ..query.reach import reach
from ..site.markdown.query_embeds import QueryExtension, build_site, pages_with_queries
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


#: A query whose answer needs the ``Note`` and ``links_to`` tables only.
NOTES_AND_LINKS = "MATCH (a:Note)-[:links_to]->(b:Note) RETURN count(*)"
#: A query about every document (every label holding one, no section).
DOCUMENTS = "MATCH (d) WHERE d.kind = 'Document' RETURN count(*)"


def measure(size: int, work: Path, runs: int, first: bool = False) -> dict[str, Any]:
    vault = generate_vault(work / f"vault{size}", size)
    compiled = compile_project(vault / "mkdocs.yml")
    graph = compiled.graph
    loads, cpus, partial, documents, page_tables = [], [], [], [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        load(graph)
        loads.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)  # every thread's: what it costs an idle machine
        cpu = time.process_time()
        prepare(graph).require(reach(NOTES_AND_LINKS))
        partial.append(time.process_time() - cpu)
        cpu = time.process_time()
        prepare(graph).require(reach(DOCUMENTS))
        documents.append(time.process_time() - cpu)
        cpu = time.process_time()
        loaded = prepare(graph)
        for text in QUERIES:
            loaded.require(reach(text))
        page_tables.append(time.process_time() - cpu)
        del loaded
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
    site.engine.loaded.require(None)  # every table filled once, as in a build
    md = markdown.Markdown(extensions=["tables", extension])
    plain = "# Page\n\n" + "\n\n".join(f"Paragraph {i} of text." for i in range(10)) + "\n"
    with_queries = plain + "".join(f"\n```query\n{q}\n```\n" for q in QUERIES)
    extra = []
    for _ in range(runs):
        site.engine._memo.clear()  # every query really runs
        start = time.process_time()
        md.reset().convert(with_queries)
        middle = time.process_time()
        md.reset().convert(plain)
        extra.append((middle - start) - (time.process_time() - middle))
    return {"notes": size, "nodes": len(graph.nodes), "edges": len(graph.edges),
            "load_s": statistics.median(loads), "load_cpu_s": statistics.median(cpus),
            "notes_links_cpu_s": statistics.median(partial),
            "documents_cpu_s": statistics.median(documents),
            "page_tables_cpu_s": statistics.median(page_tables),
            "ten_queries_ms": statistics.median(extra) * 1000,
            **(no_query(compiled, vault, runs) if first else {})}


def no_query(compiled: Compiled, vault: Path, runs: int) -> dict[str, Any]:
    """What the query feature costs a build whose pages have none (CPU, median)."""
    extension = QueryExtension()

    class Renderer:  # what build_site reads of the page renderer
        frames: list[Frame] = []

    renderer = Renderer()
    site = build_site(compiled, renderer, Views(None, {}), lambda d: None,  # type: ignore[arg-type]
                      5.0, 1000)
    extension.site = site
    md = markdown.Markdown(extensions=[extension])
    blocks = md.preprocessors["bb_queries"]
    docs = vault / "docs"
    texts = {path: (docs / path).read_text(encoding="utf-8") for path in compiled.published}
    pages = [(Frame(doc, doc.url or ""), texts[path][doc.parsed.body_offset:].split("\n"))
             for path, doc in compiled.published.items() if doc.kind != "toml"]
    found = set()
    preprocess, scan, types = [], [], []
    for _ in range(runs):
        cpu = time.process_time()
        for frame, lines in pages:
            renderer.frames = [frame]
            blocks.run(lines)
        preprocess.append(time.process_time() - cpu)
        cpu = time.process_time()
        found = pages_with_queries(compiled, texts.__getitem__)
        scan.append(time.process_time() - cpu)
        cpu = time.process_time()
        check_schemas(compiled.published, compiled.options.display)
        types.append(time.process_time() - cpu)
    assert not found and site._engine is None, "the benchmark vault has no query"
    return {"pages": len(pages), "preprocess_ms": statistics.median(preprocess) * 1000,
            "scan_ms": statistics.median(scan) * 1000,
            "types_ms": statistics.median(types) * 1000, **import_costs()}


#: Run in a fresh interpreter: the CPU ms of importing the query modules once what
#: they need is imported (a build imports it anyway), whether that imported the engine,
#: and the CPU ms that importing the engine would add.
_IMPORTS = """
import sys, time
import asyncio, jinja2, markdown, markupsafe, mkdocs.commands.build, material
import beliefbase.project, beliefbase.site.render, beliefbase.codecs.mask
start = time.process_time()
import beliefbase.site.markdown.query_embeds, beliefbase.site.query_views
middle = time.process_time()
engine = "ladybug" in sys.modules
import ladybug
print((middle - start) * 1000, (time.process_time() - middle) * 1000, engine)
"""


def import_costs() -> dict[str, Any]:
    """What importing the query modules costs a build, and the engine (median of 3)."""
    runs = [subprocess.run([sys.executable, "-c", _IMPORTS], capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(3)]
    return {"import_ms": statistics.median(float(r[0]) for r in runs),
            "engine_import_ms": statistics.median(float(r[1]) for r in runs),
            "engine_imported": any(r[2] == "True" for r in runs)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m beliefbase.bench.query",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000",
                        help="note counts, comma-separated (default 1000,5000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bb-bench-query-") as tmp:
        print("| notes | nodes | edges | full load (wall) | full load (CPU) "
              "| notes and links (CPU) | documents (CPU) | the 10 queries' tables (CPU) "
              "| page with 10 queries (CPU) |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        quiet: dict[str, Any] = {}
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
        for size in sizes:
            r = measure(size, Path(tmp), args.runs, first=size == sizes[0])
            quiet = quiet or r
            print(f"| {r['notes']:,} | {r['nodes']:,} | {r['edges']:,} | {r['load_s']:.2f} s "
                  f"| {r['load_cpu_s']:.2f} s | {r['notes_links_cpu_s']:.2f} s "
                  f"| {r['documents_cpu_s']:.2f} s | {r['page_tables_cpu_s']:.2f} s "
                  f"| +{r['ten_queries_ms']:.0f} ms |", flush=True)
        if quiet:
            print(f"\nNo query, {quiet['notes']:,} notes ({quiet['pages']:,} pages), CPU: "
                  f"preprocessor on every page {quiet['preprocess_ms']:.1f} ms, scan for "
                  f"pages with a query {quiet['scan_ms']:.1f} ms, type checks "
                  f"{quiet['types_ms']:.1f} ms, importing the query modules "
                  f"{quiet['import_ms']:.1f} ms (the engine "
                  f"{'imported too!' if quiet['engine_imported'] else 'not imported'}; "
                  f"importing it would add {quiet['engine_import_ms']:.1f} ms)")


if __name__ == "__main__":
    main()

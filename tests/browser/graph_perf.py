"""Measure the graph viewer on a generated large graph in headless Chromium.

Not part of the test run. Generates a graph.json of N documents and M links
(default 5,000 / 50,000; clustered by folder, heavy-tailed degrees), a lunr
index with the Python ``lunr`` package, builds the graph page with
MkDocs-Material, serves it with ``python -m http.server`` on 127.0.0.1 and
reports:

* first paint: ms from navigation start until the first frame of the graph
  is drawn (cold browser cache), median of several loads;
* layout: ms until the force layout (in its Web Worker) settles;
* pan and zoom: frames per second from requestAnimationFrame timestamps while
  Playwright drags and wheels the canvas with real input events;
* search: ms from typing a query to the result list (first query, which loads
  lunr.js and the index, and the median of later ones).

Usage::

    python tests/browser/graph_perf.py [--nodes 5000] [--edges 50000] [--shots DIR]

or, on a REAL ``mkdocs build`` of the benchmark's generated vault (the plugin
writes graph-view.json, search-index.json and the graph page itself)::

    python tests/browser/graph_perf.py --vault 5000 [--work DIR]
    python tests/browser/graph_perf.py --site path/to/site   # an already built site

which also reports the gzip size of the viewer's two files.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from graph_site import CHROMIUM_ARGS, build_search_index, build_site  # noqa: E402

WORDS = [
    "belief",
    "network",
    "graph",
    "schema",
    "entity",
    "source",
    "claim",
    "evidence",
    "model",
    "theory",
    "method",
    "result",
    "project",
    "person",
    "concept",
    "idea",
    "note",
    "draft",
    "review",
    "paper",
    "dataset",
    "metric",
    "signal",
    "memory",
    "protocol",
    "system",
    "design",
    "pattern",
    "index",
    "query",
    "view",
    "policy",
    "risk",
    "goal",
    "plan",
    "record",
    "event",
    "alpha",
    "beta",
    "gamma",
    "delta",
    "omega",
    "vector",
    "matrix",
    "field",
    "tensor",
    "kernel",
    "sample",
    "market",
    "price",
]


def generate_graph(n: int, m: int, seed: int = 1) -> dict[str, Any]:
    """A clustered graph: folders of power-law sizes, 80% of links inside a folder,
    targets chosen by preferential attachment (a few hubs, many leaves)."""
    rng = random.Random(seed)
    folders = [f"area-{k:02d}" for k in range(40)]
    weights = [1 / (k + 1) ** 0.8 for k in range(len(folders))]
    schemas = ["concept", "person", "project", "paper", "dataset", "method", "event", "place"]
    tags = [f"topic-{k}" for k in range(30)]
    nodes: list[dict[str, Any]] = []
    members: dict[str, list[int]] = {f: [] for f in folders}
    for i in range(n):
        folder = rng.choices(folders, weights)[0]
        title = " ".join(
            rng.choice(WORDS).capitalize() if j == 0 else rng.choice(WORDS)
            for j in range(rng.randint(2, 4))
        )
        nodes.append(
            {
                "id": f"0190{i:028x}",
                "kind": "Document",
                "schema": rng.choice(schemas) if rng.random() < 0.85 else None,
                "title": f"{title} {i}",
                "url": f"{folder}/note-{i}/",
                "path": f"{folder}/note-{i}.md",
                "tags": rng.sample(tags, rng.randint(0, 3)),
                "folder": folder,
                "aliases": [f"N{i}"] if rng.random() < 0.1 else [],
                "headings": [rng.choice(WORDS).capitalize() for _ in range(rng.randint(0, 4))],
                "degree": 0,
            }
        )
        members[folder].append(i)
    popularity = [rng.paretovariate(1.6) for _ in range(n)]
    edges: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    all_ids = list(range(n))
    types = ["links_to"] * 8 + ["embeds", "depends_on"]
    while len(edges) < m:
        s = rng.randrange(n)
        pool = members[nodes[s]["folder"]] if rng.random() < 0.8 else all_ids
        sample = rng.sample(pool, min(6, len(pool)))
        t = max(sample, key=lambda j: popularity[j])
        if s == t or (s, t) in seen:
            continue
        seen.add((s, t))
        kind = rng.choice(types)
        edges.append(
            {
                "source": nodes[s]["id"],
                "target": nodes[t]["id"],
                "type": kind,
                "weight_kind": "Pragmatic" if kind == "depends_on" else "Epistemic",
                "file": nodes[s]["path"],
                "line": rng.randint(1, 200),
            }
        )
    return {"version": 1, "nodes": nodes, "edges": edges}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# One requestAnimationFrame loop at a time: a new probe ends the previous one.
FPS_PROBE = """() => {
    const gen = (window.__bbFrameGen = (window.__bbFrameGen || 0) + 1);
    window.__bbFrames = [];
    const loop = (t) => {
        if (gen !== window.__bbFrameGen) return;
        window.__bbFrames.push(t);
        requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
}"""

FPS_READ = """() => {
    window.__bbFrameGen += 1;
    const f = window.__bbFrames; window.__bbFrames = [];
    if (f.length < 2) return {fps: 0, p95: 0, frames: f.length};
    const gaps = f.slice(1).map((t, i) => t - f[i]).sort((a, b) => a - b);
    return {fps: 1000 * (f.length - 1) / (f[f.length - 1] - f[0]),
            p95: gaps[Math.floor(gaps.length * 0.95)], frames: f.length};
}"""

SEARCH = """async (text) => {
    const input = document.querySelector('[data-bb-role=search]');
    const results = document.querySelector('[data-bb-role=results]');
    const changed = new Promise((resolve) => {
        const mo = new MutationObserver(() => { mo.disconnect(); resolve(); });
        mo.observe(results, {childList: true});
    });
    const t0 = performance.now();
    input.value = text;
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await changed;
    const t1 = performance.now();
    await new Promise((r) => requestAnimationFrame(() => r()));
    return {dom: t1 - t0, painted: performance.now() - t0,
            hits: results.querySelectorAll('[data-index]').length};
}"""



def _pan(page: Any, cx: float, cy: float, steps: int, wobble: int) -> dict[str, Any]:
    """Drag the canvas with ``steps`` real mouse moves; frames per second while it moved."""
    page.evaluate(FPS_PROBE)
    page.mouse.move(cx - 200, cy)
    page.mouse.down()
    t0 = time.perf_counter()
    for k in range(steps):
        page.mouse.move(cx - 200 + 3 * k, cy + (k % wobble) - wobble // 2)
    page.mouse.up()
    result: dict[str, Any] = page.evaluate(FPS_READ)
    result["input_events_per_s"] = steps / (time.perf_counter() - t0)
    return result


def measure(
    url: str, loads: int, shots: Path | None, queries: list[str] | None = None
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        first_paints, fetches, settles = [], [], []
        for _ in range(loads):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(url, wait_until="commit")
            page.wait_for_function("window.__bbGraph && window.__bbGraph.ready()", timeout=60_000)
            m = page.evaluate("__bbGraph.metrics()")
            first_paints.append(m["firstPaint"])
            fetches.append(m["fetched"])
            page.wait_for_function("__bbGraph.isSettled()", timeout=120_000, polling=100)
            settles.append(page.evaluate("__bbGraph.metrics().settled"))
            context.close()
        out["first_paint_ms"] = statistics.median(first_paints)
        out["first_paint_all_ms"] = [round(t) for t in first_paints]
        out["graph_fetched_ms"] = statistics.median(fetches)
        out["layout_settled_ms"] = statistics.median(settles)

        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        errors: list[str] = []
        foreign: list[str] = []
        page.on(
            "console",
            lambda msg: (
                errors.append(f"{msg.type}: {msg.text}")
                if msg.type in ("error", "warning")
                else None
            ),
        )
        page.on("request", lambda r: foreign.append(r.url) if "127.0.0.1" not in r.url else None)
        page.goto(url)
        page.wait_for_function("window.__bbGraph && window.__bbGraph.ready()", timeout=60_000)
        box = page.locator("[data-bb-role=canvas]").bounding_box()
        assert box is not None
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

        # Pan while the layout is still running (positions stream in from the worker).
        out["pan_during_layout"] = _pan(page, cx, cy, steps=120, wobble=20)

        page.wait_for_function("__bbGraph.isSettled()", timeout=120_000, polling=100)
        page.evaluate("__bbGraph.camera()")
        # Pan after the layout settled.
        out["pan"] = _pan(page, cx, cy, steps=150, wobble=30)

        # Zoom in and out with the wheel.
        page.evaluate(FPS_PROBE)
        for k in range(120):
            page.mouse.wheel(0, -40 if k < 60 else 40)
        page.wait_for_timeout(100)
        out["zoom"] = page.evaluate(FPS_READ)
        out["last_frame_js_ms"] = page.evaluate("__bbGraph.lastFrameMs()")

        # A scripted pan from inside the page: one panBy per animation frame, so
        # the rate is bounded only by drawing, not by how fast input arrives.
        out["scripted_pan"] = page.evaluate("""() => new Promise((resolve) => {
            const times = [];
            const step = (t) => {
                times.push(t);
                window.__bbGraph.panBy(4, 1);
                if (times.length < 120) requestAnimationFrame(step);
                else {
                    const gaps = times.slice(1).map((x, i) => x - times[i]).sort((a, b) => a - b);
                    resolve({fps: 1000 * (times.length - 1) / (times[times.length - 1] - times[0]),
                             p95: gaps[Math.floor(gaps.length * 0.95)]});
                }
            };
            requestAnimationFrame(step);
        })""")

        queries = queries or ["network", "belief", "protocol memo", "delta kernel", "note 42",
                              "Price", "sig", "topic-7"]
        first = page.evaluate(SEARCH, queries[0])
        queries = queries[1:]
        later = [page.evaluate(SEARCH, q) for q in queries]
        out["search_first_ms"] = first
        out["search_ms_median"] = statistics.median(r["painted"] for r in later)
        out["search_ms_max"] = max(r["painted"] for r in later)
        out["search_hits"] = [r["hits"] for r in later]
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
            page.fill("[data-bb-role=search]", "")
            page.keyboard.press("Escape")
            page.click("[data-bb-action=fit]")
            page.wait_for_timeout(600)
            page.screenshot(path=str(shots / "perf-5000-desktop.png"))
            page.mouse.move(cx, cy)
            for _ in range(8):
                page.mouse.wheel(0, -200)
            page.wait_for_timeout(300)
            page.screenshot(path=str(shots / "perf-5000-zoomed.png"))
        out["console_errors"] = errors
        out["foreign_requests"] = foreign
        context.close()
        browser.close()
    return out


def build_vault_site(notes: int, work: Path | None) -> Path:
    """Generate the benchmark vault (``beliefbase.bench``) and ``mkdocs build`` it."""
    from beliefbase.bench.vault import ensure_vault

    root = (work or Path(tempfile.mkdtemp(prefix="bb-graph-perf-"))) / f"vault-{notes}"
    vault, reused = ensure_vault(root, notes)
    site = vault / "site"
    # The vault's own mkdocs.yml plus Material's navigation.prune: without it
    # Material renders the whole 5,000-entry navigation into every page (the
    # build is quadratic, and each page, the graph page too, weighs megabytes).
    config = vault / "mkdocs.graph-bench.yml"
    text = (vault / "mkdocs.yml").read_text(encoding="utf-8")
    config.write_text(text.replace("  font: false\n", "  font: false\n  features:\n"
                                   "    - navigation.prune\n", 1), encoding="utf-8")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config),
                    "-d", str(site)], check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    print(f"{'reused' if reused else 'generated'} vault of {notes} notes; "
          f"mkdocs build {time.perf_counter() - t0:.0f} s ({site})")
    return site


def report_sizes(site: Path) -> list[str]:
    """Print the viewer files' sizes (raw and gzip); return search queries for this site."""
    import gzip

    out = site / "_beliefbase"
    total = 0
    for name in ("graph-view.json", "search-index.json", "previews.json", "graph.json"):
        data = (out / name).read_bytes()
        packed = len(gzip.compress(data, 6))
        if name in ("graph-view.json", "search-index.json"):
            total += packed
        print(f"{name:20s} {len(data) / 1e6:6.2f} MB raw  {packed / 1e6:6.2f} MB gzip")
    print(f"{'viewer total':20s} {'':15s} {total / 1e6:6.2f} MB gzip   (<= 3 MB)")
    view = json.loads((out / "graph-view.json").read_text(encoding="utf-8"))
    docs = [n for n in view["nodes"] if n.get("kind", "Document") == "Document"]
    print(f"{len(docs)} notes, {len(view['nodes'])} nodes, {len(view['edges']) // 3} edges")
    words = [n["title"].split()[0] for n in docs[::max(1, len(docs) // 7)]][:6]
    return [docs[len(docs) // 2]["title"], *words, docs[0]["title"][:3].lower()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--edges", type=int, default=50000)
    parser.add_argument("--loads", type=int, default=3, help="page loads for first paint")
    parser.add_argument("--shots", type=Path, default=None, help="write screenshots here")
    parser.add_argument("--vault", type=int, default=None,
                        help="generate the bench vault of this many notes, mkdocs build it, "
                             "and measure that site")
    parser.add_argument("--work", type=Path, default=None, help="where --vault builds")
    parser.add_argument("--site", type=Path, default=None, help="measure this built site")
    args = parser.parse_args()

    queries = None
    if args.vault or args.site:
        site = args.site or build_vault_site(args.vault, args.work)
        queries = report_sizes(site)
    else:
        work = Path(tempfile.mkdtemp(prefix="bb-graph-perf-"))
        t0 = time.perf_counter()
        graph = generate_graph(args.nodes, args.edges)
        index = build_search_index(graph)
        site = build_site(work, graph, pages=[], search_index=index)
        size = (site / "_beliefbase" / "graph.json").stat().st_size
        print(
            f"generated {args.nodes} nodes, {args.edges} edges, graph.json {size / 1e6:.1f} MB, "
            f"in {time.perf_counter() - t0:.1f} s ({work})"
        )

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(site),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        result = measure(f"http://127.0.0.1:{port}/graph/", args.loads, args.shots, queries)
    finally:
        server.terminate()
        server.wait()

    targets = {
        "first paint (ms)": (result["first_paint_ms"], "<= 1500"),
        "layout settled (ms)": (result["layout_settled_ms"], "(worker; page stays live)"),
        "pan fps (settled)": (result["pan"]["fps"], ">= 30"),
        "pan fps (during layout)": (result["pan_during_layout"]["fps"], ">= 30"),
        "zoom fps": (result["zoom"]["fps"], ">= 30"),
        "scripted pan fps": (result["scripted_pan"]["fps"], ">= 30"),
        "search, first query incl. index load (ms)": (result["search_first_ms"]["painted"], ""),
        "search, median (ms)": (result["search_ms_median"], "<= 100"),
        "search, worst (ms)": (result["search_ms_max"], "<= 100"),
    }
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
        f"first paint of each load: {result['first_paint_all_ms']}"
    )
    for name, (value, target) in targets.items():
        print(f"{name:45s} {value:9.1f}   {target}")
    print(json.dumps(result, indent=1))
    ok = (
        result["first_paint_ms"] <= 1500
        and result["pan"]["fps"] >= 30
        and result["zoom"]["fps"] >= 30
        and result["search_ms_max"] <= 100
        and not result["console_errors"]
        and not result["foreign_requests"]
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Belief benchmark: verify + index a generated knowledge base, then time ``why``.

``python -m beliefbase.bench.beliefs [--pages 500] [--per-page 10] [--raw-files 100]``
writes a synthetic project to a temporary folder — pages (as ``PageFacts``,
the way the compiler hands them over), one sidecar per page, raw sources the
provenance quotes — and prints how long verification, a full index rebuild,
an unchanged ``sync`` and ``why`` (per resolution step) take.  Every third
subject is superseded once and every seventh pair contradicts, so chains and
contradictions are exercised too.  ``run()`` returns the numbers for tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from ..beliefs.facts import PageFacts
from ..beliefs.store import BeliefStore
from ..beliefs.verify import verify_project
from ..beliefs.why import why

_WORDS = (
    "token", "refresh", "endpoint", "session", "invoice", "currency", "billing", "account",
    "user", "key", "rotation", "policy", "audit", "region", "latency", "cache", "quota",
    "export", "import", "schema", "migration",
)


def _sentence(n: int) -> str:
    words = [_WORDS[(n * 7 + k * 3) % len(_WORDS)] for k in range(8)]
    return f"Fact {n}: the {' '.join(words)} is documented here."


def generate(root: Path, pages: int, per_page: int, raw_files: int) -> dict[str, PageFacts]:
    """Write the synthetic project under ``root``; return its pages' facts."""
    docs, raw = root / "docs", root / "raw"
    facts: dict[str, PageFacts] = {}
    total = pages * per_page
    per_raw = -(-total // raw_files)
    for r in range(raw_files):
        lines = [_sentence(n) for n in range(r * per_raw, min(total, (r + 1) * per_raw))]
        (raw / f"src{r // 10}").mkdir(parents=True, exist_ok=True)
        (raw / f"src{r // 10}" / f"s{r}.md").write_text("\n\n".join(lines) + "\n", "utf-8")
    for p in range(pages):
        folder = docs / f"area{p // 50}"
        folder.mkdir(parents=True, exist_ok=True)
        beliefs, provenance = [], []
        for i in range(per_page):
            n = p * per_page + i
            quote = _sentence(n)
            r = n // per_raw
            provenance.append({"id": f"prov-{n}", "raw_path": f"src{r // 10}/s{r}.md",
                               "page_hint": i, "quote": quote,
                               "quote_hash": hashlib.sha256(quote.encode()).hexdigest()})
            beliefs.append(_belief(p, i, n, per_page))
        sidecar = {"page": f"area{p // 50}/page{p}.md", "beliefs": beliefs,
                   "provenance": provenance}
        (folder / f"page{p}.beliefs.json").write_text(json.dumps(sidecar, indent=2), "utf-8")
        rel = f"area{p // 50}/page{p}.md"
        facts[rel] = PageFacts(
            path=rel, display=f"docs/{rel}", url=f"area{p // 50}/page{p}/",
            anchors=frozenset(f"section-{i}" for i in range(per_page)),
            footnote_refs=tuple((str(i + 1), 3 + i, 10) for i in range(per_page)),
            footnote_defs=tuple((str(i + 1), 20 + i, 1) for i in range(per_page)),
        )
    return facts


def _belief(p: int, i: int, n: int, per_page: int) -> dict[str, Any]:
    subject = f"subject {n // 2}"
    belief: dict[str, Any] = {
        "belief_id": f"b-{n:05d}", "statement": _sentence(n), "topic": f"topic {p % 40}",
        "subject": subject, "predicate": "has_value", "object": f"value {n}",
        "wiki_section_anchor": f"#section-{i}", "footnote_ids": [str(i + 1)],
        "provenance_ids": [f"prov-{n}"], "asserted_at": f"2026-{1 + n % 12:02d}-01",
    }
    if n % 2 == 0 and (n // 2) % 3 == 0 and i + 1 < per_page:  # superseded by its pair
        belief.update(asserted_at="2025-12-01", superseded_at="2026-01-01",
                      superseded_by_belief_id=f"b-{n + 1:05d}",
                      supersession_reason="contradicted_by_new_source")
    elif (n // 2) % 7 != 0:  # otherwise the pair contradicts (same subject, other object)
        belief["subject"] = f"{subject} ({n})"
    return belief


def _timed(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def _cpu(func: Any, *args: Any) -> tuple[Any, float, float]:
    """Result, wall seconds and CPU seconds of this process (CPU is steadier on busy hosts)."""
    cpu = time.process_time()
    result, wall = _timed(func, *args)
    return result, wall, time.process_time() - cpu


def run(pages: int = 500, per_page: int = 10, raw_files: int = 100) -> dict[str, Any]:
    """Generate, verify, index and query; returns seconds (and counts)."""
    with tempfile.TemporaryDirectory(prefix="beliefbase-bench-") as folder:
        root = Path(folder)
        facts = generate(root, pages, per_page, raw_files)
        sidecars = sorted((root / "docs").rglob("*.beliefs.json"))
        result, verify_s, verify_cpu = _cpu(verify_project, sidecars, facts, root / "docs",
                                            root / "raw", root, date(2026, 6, 1))
        store = BeliefStore(root / ".beliefbase" / "beliefs.sqlite")
        _, rebuild_s, rebuild_cpu = _cpu(store.rebuild, result)
        _, sync_s = _timed(store.sync, result)
        words = _sentence(1234).split()
        queries = {"belief_id": "b-00042", "subject": "subject 21", "topic": "topic 7",
                   "fts": f"{words[3]} {words[5]} {words[7]}",
                   "fts_or": "token refresh latency",  # no statement has all: OR over ~all
                   "as_of": "subject 0"}
        latency: dict[str, float] = {}
        sizes: dict[str, int] = {}
        for kind, query in queries.items():
            as_of = "2026-03-01" if kind == "as_of" else None
            answer = why(store, query, as_of=as_of)
            sizes[kind] = sum(len(answer[k]) for k in ("current_beliefs", "history",
                                                       "contradicting_beliefs"))
            times, cpu_times = [], []
            for _ in range(20):
                cpu = time.process_time()
                times.append(_timed(why, store, query, as_of=as_of)[1])
                cpu_times.append(time.process_time() - cpu)
            latency[kind] = max(times)
            latency[kind + "_median"] = statistics.median(times)
            latency[kind + "_cpu_median"] = statistics.median(cpu_times)
        store.close()
    return {"beliefs": len(result.beliefs), "pages": pages, "diagnostics": len(result.diagnostics),
            "verify_s": verify_s, "index_s": rebuild_s, "sync_unchanged_s": sync_s,
            "verify_cpu_s": verify_cpu, "index_cpu_s": rebuild_cpu,
            "why_max_s": latency, "why_results": sizes}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--per-page", type=int, default=10)
    parser.add_argument("--raw-files", type=int, default=100)
    args = parser.parse_args(argv)
    numbers = run(args.pages, args.per_page, args.raw_files)
    print(f"{numbers['beliefs']} beliefs on {numbers['pages']} pages "
          f"({numbers['diagnostics']} diagnostics)")
    for label, key in (("verify", "verify"), ("index (rebuild)", "index")):
        print(f"{label:22}{numbers[key + '_s'] * 1000:8.1f} ms wall "
              f"{numbers[key + '_cpu_s'] * 1000:8.1f} ms cpu")
    wall = numbers["verify_s"] + numbers["index_s"]
    cpu = numbers["verify_cpu_s"] + numbers["index_cpu_s"]
    print(f"{'verify + index':22}{wall * 1000:8.1f} ms wall {cpu * 1000:8.1f} ms cpu")
    print(f"{'sync, nothing changed':22}{numbers['sync_unchanged_s'] * 1000:8.1f} ms wall")
    for kind, seconds in numbers["why_max_s"].items():
        if not kind.endswith("_median"):
            median = numbers["why_max_s"][kind + "_median"]
            cpu = numbers["why_max_s"][kind + "_cpu_median"]
            print(f"why ({kind:9}) median {median * 1000:6.2f} ms wall {cpu * 1000:6.2f} ms cpu, "
                  f"max {seconds * 1000:6.2f} ms wall "
                  f"({numbers['why_results'][kind]} beliefs in the answer)")


if __name__ == "__main__":
    main()

"""The in-process measurements, each run by the harness in a fresh child.

``python -m beliefbase.bench.worker TASK CONFIG [--repeat N]`` runs one task and
prints one JSON line: ``{"status": "ok", "seconds": [...], ...}``.

* ``floor`` - Python-Markdown alone: one ``markdown.Markdown`` built from the
  site's ``markdown_extensions`` and ``mdx_configs``, ``reset()`` and
  ``convert()`` on every note body (frontmatter removed as MkDocs removes it).
  The notes are read before the clock starts.
* ``compile`` - beliefbase's compiler without MkDocs, no persistent cache.
* ``incremental`` - one compile, then an edit of ``--edit`` note and a second
  compile with the same compiler; the edited time is the incremental one.  The
  harness restores the note afterwards, even if this process is killed.

A fresh process per task keeps sizes from sharing a heap, and gives each task
its own peak memory.  ``_compiler_api`` is the only code that knows the
compiler's entry points.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

_Api = tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]


def _compiler_api() -> _Api:
    """(compile_from_config, load_project, Compiler): adapt here when the API moves.

    Raises ImportError while the compiler does not offer them; the task then
    reports ``"unavailable"`` instead of a time.
    """
    from beliefbase.cli import load_project
    from beliefbase.compile import Compiler

    try:  # the one compile (issue 17); older checkouts named it compile_from_config
        from beliefbase.cli import compile_project as compile_from_config
    except ImportError:
        from beliefbase.cli import compile_from_config  # type: ignore[attr-defined,no-redef]

    return compile_from_config, load_project, Compiler


def measure_floor(config_file: Path, repeat: int) -> dict[str, Any]:
    """Seconds to convert every note with the site's Markdown extensions, nothing else."""
    import markdown
    from mkdocs.config import load_config
    from mkdocs.utils.meta import get_data

    config = load_config(str(config_file))
    paths = sorted(Path(config.docs_dir).rglob("*.md"))
    bodies = [get_data(p.read_text(encoding="utf-8-sig"))[0] for p in paths]
    md = markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs or {}
    )
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for body in bodies:
            md.reset()
            md.convert(body)
        seconds.append(time.perf_counter() - start)
    return {
        "status": "ok",
        "seconds": seconds,
        "notes": len(bodies),
        "extensions": [
            e if isinstance(e, str) else type(e).__name__ for e in config.markdown_extensions
        ],
    }


def measure_compile(
    api: _Api, config_file: Path, repeat: int, profile: Path | None
) -> dict[str, Any]:
    """Seconds of ``compile_from_config`` without the persistent cache.

    Like the floor (which times conversions, not imports), the clock starts
    after Python has imported MkDocs and the site's plugins: loading the config
    once, untimed, does that (~0.3 s, paid once per process by any build).
    Reading the files, the config and every compile stage are timed.
    """
    from mkdocs.config import load_config

    compile_from_config, _, _ = api
    load_config(str(config_file))
    seconds, compiled = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        compiled = compile_from_config(config_file, use_cache=False)
        seconds.append(time.perf_counter() - start)
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(compile_from_config, config_file, use_cache=False)
        profiler.dump_stats(str(profile))
    return {"status": "ok", "seconds": seconds, **_summary(compiled)}


def measure_incremental(api: _Api, config_file: Path, repeat: int, edit: Path) -> dict[str, Any]:
    """Seconds of a first compile and of re-compiles after editing ``edit``."""
    _, load_project, compiler_class = api
    start = time.perf_counter()
    sources, options = load_project(config_file)
    load = time.perf_counter() - start
    compiler = compiler_class(options, cache_dir=None)
    start = time.perf_counter()
    compiler.compile(sources)
    first = time.perf_counter() - start
    original = edit.read_text(encoding="utf-8")
    seconds = []
    for i in range(repeat):
        edit.write_text(
            original + f"\nEdited paragraph {i} now links to [[Bench Edit {i}]].\n",
            encoding="utf-8",
            newline="\n",
        )
        start = time.perf_counter()
        compiler.compile(sources)
        seconds.append(time.perf_counter() - start)
    return {"status": "ok", "seconds": seconds, "first": first, "load_project": load}


def _summary(compiled: Any) -> dict[str, Any]:
    """Counts that show the compile did the work: documents, links, diagnostics per code."""
    out: dict[str, Any] = {}
    documents = getattr(compiled, "documents", None)
    if documents is not None:
        out["documents"] = len(documents)
    links = getattr(compiled, "links", None)
    if isinstance(links, dict):
        out["resolved_links"] = sum(len(per_doc) for per_doc in links.values())
    diagnostics = getattr(compiled, "diagnostics", None)
    if diagnostics is not None:
        codes = Counter(getattr(d, "code", "?") for d in diagnostics)
        out["diagnostics"] = dict(sorted(codes.items()))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m beliefbase.bench.worker")
    parser.add_argument("task", choices=("floor", "compile", "incremental"))
    parser.add_argument("config", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--edit", type=Path)
    args = parser.parse_args(argv)
    if args.task == "incremental" and args.edit is None:
        parser.error("incremental needs --edit NOTE")
    if args.task == "floor":
        result = measure_floor(args.config, args.repeat)
    else:
        try:
            api = _compiler_api()
        except ImportError as exc:
            print(json.dumps({"status": "unavailable", "reason": str(exc)}))
            return 0
        if args.task == "compile":
            result = measure_compile(api, args.config, args.repeat, args.profile)
        else:
            result = measure_incremental(api, args.config, args.repeat, args.edit)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

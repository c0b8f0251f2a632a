"""``python -m beliefbase.bench``: the command line of the benchmark.

Parses options into ``RunOptions``, runs ``run.run``, prints the table (and the
Markdown table with ``--markdown``) and writes ``--json``.  Progress goes to
stderr so stdout stays a clean report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import report
from .gen_vault import ensure_gen_vault, find_script, gen_vault_dir
from .run import RunOptions, run
from .vault import absolute_path, ensure_vault, vault_dir


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of note counts: {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError("sizes must be note counts of 2 or more")
    return sizes


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m beliefbase.bench",
        description="Benchmark beliefbase against Python-Markdown and plain MkDocs-Material "
        "on generated vaults.",
    )
    p.add_argument(
        "--sizes",
        type=_sizes,
        default=(1000, 5000, 20000),
        help="comma-separated note counts (default 1000,5000,20000)",
    )
    p.add_argument("--seed", type=int, default=1, help="vault generator seed (default 1)")
    p.add_argument(
        "--out",
        type=absolute_path,  # children run in the vault's folder
        help="folder for the vaults, reused when seed and size match "
        "(default: a temporary folder, deleted afterwards)",
    )
    p.add_argument(
        "--plain-max",
        type=int,
        default=1000,
        help="time builds with Material's default navigation (plain Material and "
        "ours without the explorer) only up to this many notes (default 1000; that "
        "navigation is quadratic: 1-3 min at 1,000 notes, >10 min at 5,000)",
    )
    p.add_argument(
        "--generator",
        choices=("bench", "gen_vault"),
        default="bench",
        help="bench: this package's generator (bench/vault.py); gen_vault: "
        "../shared/tools/gen_vault.py, files named by title (its usual --seed is 42)",
    )
    p.add_argument("--gen-vault", type=absolute_path, metavar="SCRIPT",
                   help="gen_vault.py's path (default: shared/tools/ above this checkout)")
    p.add_argument("--skip-plain", action="store_true", help="never time plain Material")
    p.add_argument("--repeat", type=int, default=1, help="samples per measurement; best is kept")
    p.add_argument(
        "--timeout",
        type=float,
        default=1800.0,
        help="seconds before one measured process is killed (default 1800)",
    )
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    p.add_argument(
        "--markdown",
        action="store_true",
        help="also print the table as Markdown, ready for docs/reference/benchmarks.md",
    )
    p.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="write cProfile stats of one compile-only run per size into DIR",
    )
    p.add_argument(
        "--generate-only",
        action="store_true",
        help="only generate (or reuse) the vaults in --out, measure nothing",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.repeat < 1:
        parser().error("--repeat must be at least 1")
    if args.generate_only:
        if args.out is None:
            parser().error("--generate-only needs --out")
        for n in args.sizes:
            if args.generator == "gen_vault":
                script = args.gen_vault or find_script()
                if script is None:
                    parser().error("gen_vault.py not found: pass --gen-vault SCRIPT")
                vault, reused = ensure_gen_vault(gen_vault_dir(args.out, n, args.seed), n,
                                                 args.seed, script)
            else:
                vault, reused = ensure_vault(vault_dir(args.out, n, args.seed), n, args.seed)
            print(f"{vault} ({'reused' if reused else 'generated'})")
        return 0
    options = RunOptions(
        sizes=args.sizes,
        seed=args.seed,
        out=args.out,
        plain_max=args.plain_max,
        skip_plain=args.skip_plain,
        repeat=args.repeat,
        timeout=args.timeout,
        profile=args.profile,
        generator=args.generator,
        gen_vault_script=args.gen_vault,
    )
    started = time.time()
    results = run(options)
    print(report.text_table(results))
    for line in report.remarks(results):
        print(f"  {line}")
    if args.markdown:
        print()
        print(report.markdown_table(results))
    if args.json:
        document = report.json_document(results, options, started)
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

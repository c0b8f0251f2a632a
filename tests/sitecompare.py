"""Build every fixture vault and compare two such builds byte for byte.

The redesign of the plugin must not change one byte of any site, and the
speed-ups must not either (on and off give the same site).  This tool builds
the same set of projects into a folder, one subfolder per project, and
compares two such folders::

    python -m tests.sitecompare build OUT [--python PY] [--no-speedups] [--host properdocs]
    python -m tests.sitecompare compare A B [--any-generator]

The projects: the golden and fidelity fixture vaults, this repository's own
``docs/``, a generated 150-note vault and the two sample vaults of
``../shared/corpora`` when present.  Builds run with ``SOURCE_DATE_EPOCH`` set
from copies with no cache, so two builds of the same code are
identical (``compare`` on two builds of one commit is the control).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the sample vaults: beside this checkout's folder (/work/main) or a worktree's (/work/wt/x)
CORPORA = next((p / "shared" / "corpora" for p in ROOT.parents
                if (p / "shared" / "corpora").is_dir()), ROOT / "missing")
#: files whose bytes depend on the moment of the build (gzip header times)
VOLATILE = frozenset({"sitemap.xml.gz"})
EPOCH = 1767225600  # SOURCE_DATE_EPOCH of every build: 2026-01-01
MINIMAL_CONFIG = """site_name: t
theme: {name: material, font: false}
plugins: [search, beliefbase]
"""


def projects(work: Path, only: tuple[str, ...] = ()) -> dict[str, Path]:
    """Name -> mkdocs.yml of every project compared (generated ones under ``work``);
    ``only``: just the fixture vaults named (``golden``, ``fidelity``)."""
    found: dict[str, Path] = {}
    for name in only or ("golden", "fidelity"):  # copied: their caches must not carry over
        shutil.copytree(ROOT / "tests" / name / "vault", work / name,
                        ignore=shutil.ignore_patterns(".beliefbase"))
        found[name] = work / name / "mkdocs.yml"
    if only:
        for path in work.rglob("*"):
            os.utime(path, (EPOCH, EPOCH))
        return found
    shutil.copytree(ROOT / "docs", work / "self" / "docs")
    shutil.copy(ROOT / "mkdocs.yml", work / "self" / "mkdocs.yml")
    found["docs"] = work / "self" / "mkdocs.yml"
    from beliefbase.bench.vault import generate_vault

    generated = generate_vault(work / "gen150", 150, seed=7)
    found["gen150"] = generated / "mkdocs.yml"
    for name in ("quartz-docs", "foam-docs"):
        source = CORPORA / name
        if source.is_dir():
            copy = work / name
            shutil.copytree(source, copy / "docs", ignore=shutil.ignore_patterns(".git"))
            (copy / "mkdocs.yml").write_text(MINIMAL_CONFIG)
            found[name] = copy / "mkdocs.yml"
        else:
            print(f"sitecompare: no {source}, {name} not built", file=sys.stderr)
    for path in work.rglob("*"):  # notes are dated by their mtime: give every copy one
        os.utime(path, (EPOCH, EPOCH))
    return found


def build(out: Path, python: str, speedups: bool, host: str = "mkdocs",
          only: tuple[str, ...] = ()) -> None:
    """Build every project (``only``: those named) into ``out/NAME`` with ``host``'s
    command line (``mkdocs``, or ``properdocs``: MkDocs 1.x's drop-in fork)."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, config in projects(work, only).items():
            env = {**os.environ, "SOURCE_DATE_EPOCH": str(EPOCH),
                   "NO_MKDOCS_2_WARNING": "1"}
            if not speedups:
                env["BELIEFBASE_SPEEDUPS"] = "0"
            site = out / name
            shutil.rmtree(site, ignore_errors=True)
            subprocess.run([python, "-m", host, "build", "-q", "-f", str(config),
                            "-d", str(site)], check=True, env=env, cwd=config.parent)


#: the page head's generator line, which names the host (``mkdocs-1.6.1`` or
#: ``mkdocs-ProperDocs 1.6.7``): ``--any-generator`` compares pages without it
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


def compare(a: Path, b: Path, any_generator: bool = False) -> list[str]:
    """Every path that differs between the two builds (missing on one side or other bytes)."""
    differ: list[str] = []

    def same(left: Path, right: Path) -> bool:
        one, other = left.read_bytes(), right.read_bytes()
        if any_generator and one != other and left.suffix == ".html":
            return _GENERATOR.sub(b"", one) == _GENERATOR.sub(b"", other)
        return one == other

    def walk(cmp: filecmp.dircmp[str], prefix: str) -> None:
        differ.extend(prefix + n for n in cmp.left_only + cmp.right_only)
        for name in cmp.common_files:
            if name in VOLATILE:
                continue
            if not same(Path(cmp.left) / name, Path(cmp.right) / name):
                differ.append(prefix + name)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b), "")
    return sorted(differ)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build")
    make.add_argument("out", type=Path)
    make.add_argument("--python", default=sys.executable)
    make.add_argument("--no-speedups", action="store_true")
    make.add_argument("--host", choices=("mkdocs", "properdocs"), default="mkdocs")
    both = sub.add_parser("compare")
    both.add_argument("a", type=Path)
    both.add_argument("b", type=Path)
    both.add_argument("--any-generator", action="store_true",
                      help="ignore the pages' generator line (a build under another host)")
    args = parser.parse_args()
    if args.command == "build":
        build(args.out, args.python, not args.no_speedups, args.host)
        return 0
    differ = compare(args.a, args.b, args.any_generator)
    for path in differ:
        print(path)
    print(f"{len(differ)} files differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

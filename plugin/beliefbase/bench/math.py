"""``python -m beliefbase.bench.math``: what math costs a build (a development tool).

Writes two vaults of the same notes into ``--out``: one whose notes hold
``--formulas`` formulas of the kinds students write (fractions, integrals,
sums, matrices, ``cases``, ``aligned``), and one where each formula is replaced
by words of the same length.  Both are built with the README's minimal
``mkdocs.yml`` (``mkdocs build`` in a child process, ``--repeat`` times each,
alternating), and the report gives the CPU time (user + system, children
included) of each, the difference per 1,000 formulas, and how many formulas
converted (``math-error`` diagnostics count the rest).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

#: Formulas as students write them, cycled through (inline and display).
FORMULAS = (
    r"\frac{d}{dx} x^n = n x^{n-1}",
    r"\int_0^1 x^2\,dx = \frac{1}{3}",
    r"\sum_{k=1}^{n} k^2 = \frac{n(n+1)(2n+1)}{6}",
    r"\lim_{h \to 0} \frac{f(x+h)-f(x)}{h}",
    r"A = \begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\mathbb{E}[X] = \sum_x x\,p(x)",
    r"\nabla \cdot \mathbf{E} = \frac{\rho}{\varepsilon_0}",
    r"\left( \sum_{i} a_i b_i \right)^2 \le \sum_i a_i^2 \sum_i b_i^2",
    r"f(x) = \begin{cases} x^2 & x \ge 0 \\ -x & x < 0 \end{cases}",
    r"\binom{n}{k} = \frac{n!}{k!(n-k)!}",
    r"\begin{aligned} a &= b + c \\ d &= e \cdot f \end{aligned}",
    r"\text{Var}(X) = \mathbb{E}[X^2] - \mathbb{E}[X]^2",
)
CONFIG = ("site_name: math\ntheme:\n  name: material\n  font: false\n"
          "plugins:\n  - search\n  - beliefbase\n")


def write_vaults(out: Path, formulas: int, per_note: int = 20) -> tuple[Path, Path]:
    """The vault with math and its twin without, each with its mkdocs.yml."""
    rng = random.Random(1)
    with_math, without = out / "with-math", out / "without-math"
    for root in (with_math, without):
        shutil.rmtree(root, ignore_errors=True)
        (root / "docs").mkdir(parents=True)
        (root / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    notes = max(1, formulas // per_note)
    for n in range(notes):
        parts: list[tuple[str, str]] = []
        for i in range(per_note):
            # each formula distinct (a real vault repeats few): conversions are memoised
            tex = FORMULAS[(n * per_note + i) % len(FORMULAS)] + f" + c_{{{n * per_note + i}}}"
            words = " ".join(rng.choice(("alpha", "beta", "gamma", "delta"))
                             for _ in range(max(1, len(tex) // 6)))
            if i % 4 == 3:
                parts.append((f"\n$$\n{tex}\n$$\n\n", f"\n{words}\n\n"))
            else:
                parts.append((f"The rule ${tex}$ holds here.\n", f"The rule {words} holds here.\n"))
        title = f"# Note {n}\n\n"
        (with_math / "docs" / f"note-{n}.md").write_text(
            title + "".join(p[0] for p in parts), encoding="utf-8")
        (without / "docs" / f"note-{n}.md").write_text(
            title + "".join(p[1] for p in parts), encoding="utf-8")
    return with_math, without


def build_cpu(root: Path) -> tuple[float, str]:
    """CPU seconds (user + system) of one ``mkdocs build`` of ``root``, and its log."""
    shutil.rmtree(root / "site", ignore_errors=True)
    shutil.rmtree(root / ".beliefbase", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=root,
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stderr


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m beliefbase.bench.math", description=__doc__)
    p.add_argument("--formulas", type=int, default=5000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", type=Path, default=Path("bench-out/math"))
    args = p.parse_args(argv)
    with_math, without = write_vaults(args.out, args.formulas)
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    errors = 0
    started = time.perf_counter()
    for _ in range(args.repeat):
        seconds, log = build_cpu(with_math)
        cpu["with"].append(seconds)
        errors = log.count("math-error:")
        cpu["without"].append(build_cpu(without)[0])
    best = {k: min(v) for k, v in cpu.items()}
    per_1000 = (best["with"] - best["without"]) / args.formulas * 1000
    result = {
        "formulas": args.formulas, "converted": args.formulas - errors,
        "cpu_with_math_s": round(best["with"], 2), "cpu_without_s": round(best["without"], 2),
        "extra_cpu_per_1000_formulas_s": round(per_1000, 2),
        "runs": cpu, "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

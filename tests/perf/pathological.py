"""Pathological notes against their budget (issue 20): not a timed test, a report.

For each case (cmark's pathological inputs and the ones a hostile-input campaign
found), a one-note vault is built in a child process twice: with the README's
minimal ``mkdocs.yml`` (beliefbase) and with plain Material (``plugins: [search]``,
the same Markdown extensions).  Our own work is the difference in CPU time; its
budget is 1.5x what plain Python-Markdown takes to convert that file (with those
extensions) plus 2 s::

    python tests/perf/pathological.py [--scale 1.0] [--only NAME ...] [--timeout 300]

Prints one row per case: Python-Markdown's seconds, our extra seconds, their
ratio, and OK / OVER (TIMEOUT: the beliefbase build did not end in time).
Material's own costs (its search index reads every heading's table of contents
entry again: quadratic in headings) are in both builds, so not counted as ours.
``--scale`` multiplies every size (0.1 for a quick look).
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

CONFIG = ("site_name: p\ntheme:\n  name: material\n  font: false\n"
          "plugins:\n  - search\n  - beliefbase\n")


def _cases(k: float) -> dict[str, Callable[[], str]]:
    def n(x: int) -> int:
        return max(1, int(x * k))

    return {
        "emphasis openers": lambda: "*a " * n(30_000) + "\n",
        "emphasis runs": lambda: "*" * n(20_000) + "a" + "*" * n(20_000) + "\n",
        "html declarations": lambda: "<!A " * n(20_000) + "\n",
        "brackets": lambda: "[" * n(30_000) + "a\n",
        "open wikilinks": lambda: "[[a" * n(20_000) + "\n",
        "empty embeds": lambda: "![[]()" * n(20_000) + "\n",
        "backticks": lambda: "".join("`" * i + " " for i in range(1, n(500))) + "\n",
        "nested quotes": lambda: ">" * n(1_000) + " a\n",
        "nested lists": lambda: "".join("  " * i + "- a\n" for i in range(n(1_000))),
        "long line": lambda: "word " * n(400_000) + "\n",
        "huge note (5 MB)": lambda: ("A sentence with [[index]] and #tag and `code`.\n\n"
                                    * n(100_000)),
        "duplicate headings": lambda: "## Same\n\ntext\n\n" * n(20_000),
        "huge frontmatter": lambda: "---\n" + "".join(f"k{i}: v{i}\n" for i in range(n(50_000)))
        + "---\nBody\n",
        "many tags": lambda: " ".join(f"#t{i}" for i in range(n(30_000))) + "\n",
        "many wikilinks": lambda: " ".join(f"[[n{i}]]" for i in range(n(20_000))) + "\n",
        "unclosed disputed": lambda: "::: disputed\n" + "line\n" * n(50_000),
        "inline fields": lambda: "".join(f"k{i}:: [[n{i}]]\n" for i in range(n(20_000))),
        "math dollars": lambda: "$a " * n(30_000) + "\n",
        "comment markers": lambda: "%% a " * n(30_000) + "\n",
    }


def _plain_config() -> str:
    """mkdocs.yml of plain Material with the extensions beliefbase adds by default."""
    import yaml
    from beliefbase.site.markdown.markdown_defaults import DEFAULTS

    extensions: list[object] = ["toc", "tables"]
    for name, options, _ in DEFAULTS:
        plain = {k: v for k, v in options.items() if k != "custom_fences"}
        extensions.append({name: plain} if plain else name)
    config = {"site_name": "p", "theme": {"name": "material", "font": False},
              "plugins": ["search"], "markdown_extensions": extensions}
    return yaml.safe_dump(config, sort_keys=False)


def _python_markdown(text: str) -> float:
    """CPU seconds Python-Markdown takes on ``text`` with the build's extensions (until it
    gives up: a ``RecursionError`` on deep nesting is Python-Markdown's own)."""
    import markdown
    from beliefbase.project import load_config

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        (root / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
        config = load_config(root / "mkdocs.yml")
        config.plugins.on_config(config)  # our defaults, as the build has them
        names = [e for e in config.markdown_extensions if isinstance(e, str)]
        md = markdown.Markdown(extensions=names, extension_configs=dict(config.mdx_configs))
    start = time.process_time()
    with contextlib.suppress(RecursionError):
        md.convert(text)
    return time.process_time() - start


def _build(text: str, timeout: float, plain: bool = False) -> float | None:
    """CPU seconds of ``mkdocs build`` of a vault holding ``text`` (``plain``: without
    beliefbase, with the Markdown extensions it would add)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        (root / "mkdocs.yml").write_text(_plain_config() if plain else CONFIG, encoding="utf-8")
        (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
        (root / "docs" / "case.md").write_text(text, encoding="utf-8")
        code = textwrap.dedent("""
            import resource, sys, time
            from mkdocs.commands.build import build
            from mkdocs.config import load_config
            config = load_config("mkdocs.yml")
            config.plugins.on_startup(command="build", dirty=False)
            build(config)
            config.plugins.on_shutdown()
            r = resource.getrusage(resource.RUSAGE_SELF)
            c = resource.getrusage(resource.RUSAGE_CHILDREN)
            print(r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime)
        """)
        try:
            done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        if done.returncode != 0:
            last = done.stderr.strip().splitlines()[-1:] or ["?"]
            which = "plain Material's build" if plain else "the build"
            print(f"  ({which} failed: {last[0][:160]})", file=sys.stderr)
            return float("nan")
        return float(done.stdout.strip().splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--only", nargs="*", default=None)
    p.add_argument("--timeout", type=float, default=300)
    args = p.parse_args()
    print(f"{'case':22} {'bytes':>10} {'Python-Markdown':>16} {'ours':>8} {'ratio':>7}  budget")
    for name, make in _cases(args.scale).items():
        if args.only and name not in args.only:
            continue
        text = make()
        plain = _python_markdown(text)
        built = _build(text, args.timeout)
        material = _build(text, args.timeout * 3, plain=True)
        if material is None or material != material:  # it timed out or failed
            material = 0.0  # (Python-Markdown's RecursionError: plain Material stops)
        ours = None if built is None else max(0.0, built - material)
        budget = 1.5 * plain + 2.0
        verdict = "TIMEOUT" if ours is None else ("OK" if ours <= budget else "OVER")
        if built is not None and built != built:  # NaN: the build failed
            verdict, ours = "BUILD FAILED", 0.0
        ratio = "-" if ours is None else f"{ours / max(plain, 1e-3):.1f}x"
        shown = f"> {args.timeout:.0f}" if ours is None else f"{ours:.2f}"
        print(f"{name:22} {len(text.encode()):>10,} {plain:>15.2f}s {shown:>7}s {ratio:>7}  "
              f"{verdict} (<= {budget:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

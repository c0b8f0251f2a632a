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
Python-Markdown's reference runs in a child process too, for at most ``--timeout``
seconds of CPU (every child is limited in CPU, not in waiting: the machine may be shared): a case where it takes longer (it is the slow part) is reported as such
("> 300"), and the whole beliefbase build's CPU (an upper bound of our own work) is
held to the least its budget can be then, 1.5 x the timeout + 2 s.
Material's own costs (its search index reads every heading's table of contents
entry again: quadratic in headings) are in both builds, so not counted as ours.
``--scale`` multiplies every size (0.1 for a quick look).  A case of several notes (the
embed bomb: 51) has the budget of its files together: 1.5 x Python-Markdown's time on
all of them, plus 2 s per file.
"""

from __future__ import annotations

import argparse
import math
import re
import resource
import signal
import subprocess
import sys
import tempfile
import textwrap
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
        "embed bomb": lambda: "".join(f"![[n0-{i}]]\n\n" for i in range(10)),
        # issue 32's campaign: declarations as blocks and in text, closed
        "html declaration blocks": lambda: "<!X a>\n\n<!X b> text <!X c>\n\n" * n(20_000),
        # a link, a tag and code in every sentence of one 800 KB line
        "sentences on one line": lambda: ("A sentence with [[index]] and #tag and `code`. "
                                          * n(17_000) + "\n"),
        # 5 MB of such sentences in paragraphs, with a code block now and then
        "huge prose note (5 MB)": lambda: (
            ("A sentence with [[index]] and #tag and `code`. " * 8 + "\n\n") * n(12_000)
            + "```\ncode\n```\n"),
        # unclosed declarations on one line of sentences linking 50 notes (their backlinks'
        # snippets tried every sentence end of the line, counting from its start)
        "declarations and links": lambda: "".join(
            f"<!X a. See [[n{i % 50}]] now. " for i in range(n(5_000))) + "\n",
        # a table of 20,000 rows with a link each (each row walked up to the delimiter)
        "table of links": lambda: ("| a | b |\n|---|---|\n"
                                   + "| [[index]] | <!X b |\n" * n(20_000)),
    }


def _more_files(name: str) -> dict[str, str]:
    """The other notes of a case's vault: the 50 notes the declarations' line links;
    the embed bomb's ten notes per level, each embedding the ten of the level below,
    five levels deep (100,000 transclusions uncapped; the page's embed cap cuts them
    off)."""
    if name == "declarations and links":
        return {f"n{i}.md": f"# N{i}\n\nText.\n" for i in range(50)}
    if name != "embed bomb":
        return {}
    files: dict[str, str] = {}
    for level in range(5):
        for i in range(10):
            below = "".join(f"![[n{level + 1}-{j}]]\n\n" for j in range(10)) \
                if level < 4 else "leaf text\n"
            files[f"n{level}-{i}.md"] = f"# N{level}-{i}\n\n{below}"
    return files


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


# A first line MkDocs' meta-data reader takes as MultiMarkdown's (mkdocs.utils.meta.META_RE).
_MULTIMARKDOWN_META = re.compile(r"[ ]{0,3}[A-Za-z0-9_-]+:")

#: how a child stopped by its CPU limit ends (SIGXCPU at the soft limit, SIGKILL at the hard)
_OUT_OF_CPU = (-signal.SIGXCPU, -signal.SIGKILL)


def _run(args: list[str], cwd: Path | None, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run a child with at most ``timeout`` seconds of CPU (each of its processes): the
    machine may be shared, and a wall-clock limit would stop a case that only waited.
    Ten times as long a wait ends it in any case (TimeoutExpired)."""
    seconds = max(1, math.ceil(timeout))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

    return subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                          timeout=10 * timeout, preexec_fn=limit)  # noqa: PLW1509 - no threads


def _python_markdown(text: str, timeout: float) -> float | None:
    """CPU seconds Python-Markdown takes on ``text`` with the build's extensions (until it
    gives up: a ``RecursionError`` on deep nesting is Python-Markdown's own), in a child
    process; None when it has not ended after ``timeout`` CPU seconds (its link patterns are
    quadratic on runs of ``[``: minutes for cmark's sizes)."""
    code = textwrap.dedent("""
        import contextlib, sys, tempfile, time
        from pathlib import Path
        import markdown
        from beliefbase.project import load_config
        text = Path(sys.argv[1]).read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "docs").mkdir()
            (root / "mkdocs.yml").write_text(sys.argv[2], encoding="utf-8")
            config = load_config(root / "mkdocs.yml")
            config.plugins.on_config(config)  # our defaults, as the build has them
            names = [e for e in config.markdown_extensions if isinstance(e, str)]
            md = markdown.Markdown(extensions=names, extension_configs=dict(config.mdx_configs))
        start = time.process_time()
        with contextlib.suppress(RecursionError):
            md.convert(text)
        print(time.process_time() - start)
    """)
    with tempfile.TemporaryDirectory() as tmp:
        note = Path(tmp) / "case.md"
        note.write_text(text, encoding="utf-8")
        return _cpu_seconds([sys.executable, "-c", code, str(note), CONFIG], None, timeout,
                            "Python-Markdown")


def _build(text: str, timeout: float, plain: bool = False,
           more: dict[str, str] | None = None) -> float | None:
    """CPU seconds of ``mkdocs build`` of a vault holding ``text`` and ``more`` notes
    (``plain``: without beliefbase, with the Markdown extensions it would add)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        (root / "mkdocs.yml").write_text(_plain_config() if plain else CONFIG, encoding="utf-8")
        (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
        # Plain MkDocs reads leading `key: value` lines as MultiMarkdown meta-data and
        # converts none of them (the inline fields' case: all of it); beliefbase shows
        # them.  A blank first line makes plain Material convert the same body.
        meta = plain and _MULTIMARKDOWN_META.match(text) is not None
        (root / "docs" / "case.md").write_text("\n" + text if meta else text, encoding="utf-8")
        for path, other in (more or {}).items():
            (root / "docs" / path).write_text(other, encoding="utf-8")
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
        return _cpu_seconds([sys.executable, "-c", code], root, timeout,
                            "plain Material's build" if plain else "the build")


def _cpu_seconds(args: list[str], cwd: Path | None, timeout: float, what: str) -> float | None:
    """The CPU seconds a child printed last; None when it ran out of ``timeout``, NaN
    (and the reason on stderr) when ``what`` failed."""
    try:
        done = _run(args, cwd, timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode in _OUT_OF_CPU:
        return None
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["?"]
        print(f"  ({what} failed: {last[0][:160]})", file=sys.stderr)
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
        more = _more_files(name)  # (the reference converts them all, as one text)
        size = len(text.encode()) + sum(len(t.encode()) for t in more.values())
        plain = _python_markdown("\n\n".join([text, *more.values()]), args.timeout)
        if plain is None or plain != plain:  # timed out (or failed): it is the slow part
            # Its time is over the timeout, so the budget is over 1.5 x timeout + 2 s: the
            # whole beliefbase build (Python-Markdown's and Material's work included) is
            # an upper bound of ours, and meets it if it ends by then.
            least = 1.5 * args.timeout + 2.0 * (1 + len(more))
            built = _build(text, least, more=more)
            if built is not None and built != built:
                verdict, shown = "BUILD FAILED", "-"
            elif built is None:
                verdict, shown = "TIMEOUT", f"> {least:.0f}"
            else:
                verdict = "OK" if built <= least else "OVER"
                shown = f"{built:.2f}"
            print(f"{name:22} {size:>10,} {'> ' + format(args.timeout, '.0f'):>15}s "
                  f"{shown:>7}s {'-':>7}  {verdict} (<= {least:.1f} s; ours: the whole "
                  f"build's CPU)", flush=True)
            continue
        built = _build(text, args.timeout * 3, more=more)  # (its note converted, and more)
        material = _build(text, args.timeout * 3, plain=True, more=more)
        if material is None or material != material:  # it timed out or failed
            material = 0.0  # (Python-Markdown's RecursionError: plain Material stops)
        ours = None if built is None else max(0.0, built - material)
        budget = 1.5 * plain + 2.0 * (1 + len(more))  # (2 s of our own per file)
        verdict = "TIMEOUT" if ours is None else ("OK" if ours <= budget else "OVER")
        if built is not None and built != built:  # NaN: the build failed
            verdict, ours = "BUILD FAILED", 0.0
        ratio = "-" if ours is None else f"{ours / max(plain, 1e-3):.1f}x"
        shown = f"> {3 * args.timeout:.0f}" if ours is None else f"{ours:.2f}"
        print(f"{name:22} {size:>10,} {plain:>15.2f}s {shown:>7}s {ratio:>7}  "
              f"{verdict} (<= {budget:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

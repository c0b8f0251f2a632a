"""``python -m beliefbase.bench.serve``: edit-to-reload time under ``mkdocs serve``.

Starts ``mkdocs serve`` on a generated vault (by default in the recommended
mode for large vaults: ``--dirty`` with ``explorer: true``), then edits notes
the way an author does — a title change, a body change, a new note that
resolves a dangling link, a deletion — and for each edit measures the time
from the file being saved to

* livereload firing (the "Reloading browsers" log line), and
* every dependent page being correct on disk (a page linking to the edited
  note shows its new title, the new note's page exists, ...).

Reports the median of ``--repeat`` rounds per kind of edit, and the time from
starting the server to its first page answered; ``--compare-build`` also times
``mkdocs build`` of the same vault (the first page should come within 1.5× of
it).  Not part of the test run.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .vault import absolute_path, ensure_vault, explorer_config

_RELOAD = re.compile(r"Reloading browsers")
_BUILT = re.compile(r"Documentation built in ([0-9.]+) seconds")


@dataclass
class Server:
    """A ``mkdocs serve`` child whose log lines are collected by a thread."""

    root: Path
    config: Path
    dirty: bool
    url: str = field(init=False)
    lines: list[tuple[float, str]] = field(default_factory=list)

    def start(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/"
        args = [sys.executable, "-m", "mkdocs", "serve", "-f", str(self.config),
                "-a", f"127.0.0.1:{port}"]
        if self.dirty:
            args.append("--dirty")
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.proc = subprocess.Popen(args, cwd=self.root, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line.rstrip()))

    def wait_for(self, pattern: re.Pattern[str], after: float, timeout: float) -> float | None:
        """When a line matching ``pattern`` was logged at ``after`` or later.

        Each poll reads only the lines added since the last one: the server logs
        every diagnostic on every rebuild (3,000 lines at 5,000 notes), and
        rescanning them all every 20 ms kept this process from draining the
        server's pipe, whose writes then blocked the rebuilds being measured.
        """
        deadline = time.monotonic() + timeout
        seen = bisect.bisect_left(self.lines, (after, ""))
        while time.monotonic() < deadline:
            end = len(self.lines)
            for stamp, line in self.lines[seen:end]:
                if stamp >= after and pattern.search(line):
                    return stamp
            seen = end
            time.sleep(0.02)
        return None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def page(self, path: str) -> str:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as response:  # noqa: S310
                return str(response.read().decode("utf-8"))
        except OSError:
            return ""


@dataclass
class Edit:
    name: str
    apply: Callable[[Path], None]
    done: Callable[[Server], bool]  # are the dependent pages right (as served)?


#: The tag the pages of ``--dashboards`` list, and the field they show.
DASH_TAG = "roadmap"
DASH_FOLDER = "bench-dashboards"


def add_dashboards(docs: Path, count: int) -> None:
    """``count`` dashboard pages, each a Cypher query, a base and a DQL table of the
    notes tagged ``DASH_TAG`` (their ``created``, by title; limits differ, so no two
    queries are the same text)."""
    folder = docs / DASH_FOLDER
    folder.mkdir(exist_ok=True)
    for i in range(count):
        limit = 30 + i
        (folder / f"dash-{i}.md").write_text(
            f"# Dashboard {i}\n\n```query view=table\nMATCH (n:Note) WHERE list_contains("
            f"n.tags, '{DASH_TAG}') RETURN n.title, n.created ORDER BY n.title LIMIT {limit}\n"
            f"```\n\n```base\nfilters: file.hasTag(\"{DASH_TAG}\")\nviews:\n  - type: table\n"
            f"    order: [file.name, created]\n    sort:\n      - property: title\n"
            f"        direction: ASC\n    limit: {limit}\n```\n\n```dataview\nTABLE created "
            f"FROM #{DASH_TAG} SORT title ASC LIMIT {limit}\n```\n", encoding="utf-8")


def _shown_note(notes: list[Path]) -> Path:
    """The note tagged ``DASH_TAG`` with the first title: every dashboard shows it."""
    tagged = []
    for note in notes:
        text = note.read_text(encoding="utf-8")
        title = re.search(r"^title: (.+)$", text, re.MULTILINE)
        if f"  - {DASH_TAG}\n" in text.split("\n---", 1)[0] and title:
            tagged.append((title.group(1).strip().strip('"'), note))
    return min(tagged)[1]


#: how many pages linked to the hub retitled in each round
HUB_PAGES: list[int] = []


def _hub(docs: Path) -> tuple[Path, list[str]]:
    """The note most pages link to, and the URLs of the pages whose link to it shows
    its title (no shown text, not written as its title: those break on a retitle)."""
    from ..project import compile_project  # noqa: PLC0415 - only the hub edit

    compiled = compile_project(docs.parent / "mkdocs.yml")
    path = max(compiled.published, key=lambda p: (len({r.source for r in
                                                        compiled.backlinks.get(p, ())}), p))
    title = compiled.documents[path].title
    urls = sorted({compiled.documents[r.source].url or "" for r in compiled.backlinks[path]
                   if not r.link.display and r.link.target != title
                   and not r.anchor and r.source != path})
    return docs / path, [u for u in urls if u]


def _edits(docs: Path, round_: int, dashboards: int | None = None) -> list[Edit]:
    notes = sorted(p for p in docs.rglob("*.md")
                   if p.name != "index.md" and DASH_FOLDER not in p.parts)
    target = notes[(round_ * 97) % len(notes)]
    text = target.read_text(encoding="utf-8")
    title_match = re.search(r"^title: (.+)$", text, re.MULTILINE)
    old_line = title_match.group(0) if title_match else ""
    old_title = title_match.group(1).strip().strip("\"'") if title_match else target.stem
    new_title = f"{old_title} R{round_}"
    new_note = docs / f"bench-new-{round_}.md"
    linker = docs / f"bench-linker-{round_}.md"
    victim = notes[(round_ * 31 + 7) % len(notes)]

    def retitle(_: Path) -> None:
        target.write_text(text.replace(old_line, f'title: "{new_title}"', 1), encoding="utf-8")

    def body(_: Path) -> None:
        target.write_text(target.read_text(encoding="utf-8") + f"\nEdited {round_}.\n",
                          encoding="utf-8")

    def add(_: Path) -> None:
        new_note.write_text(f"---\ntitle: Bench New {round_}\n---\nA new note.\n",
                            encoding="utf-8")

    def delete(_: Path) -> None:
        victim.unlink()

    hub, linking = _hub(docs)
    HUB_PAGES.append(len(linking))
    hub_text = hub.read_text(encoding="utf-8")
    hub_line = re.search(r"^title: (.+)$", hub_text, re.MULTILINE)
    hub_title = f"Bench Hub {round_}"

    def retitle_hub(_: Path) -> None:
        hub.write_text(hub_text.replace(hub_line.group(0), f'title: "{hub_title}"', 1)
                       if hub_line else f"---\ntitle: {hub_title}\n---\n" + hub_text,
                       encoding="utf-8")

    linker.write_text(f"# Linker {round_}\n\n[[{new_title}]] and [[Bench New {round_}]].\n",
                      encoding="utf-8")
    page = f"bench-linker-{round_}/"
    edits = [
        Edit("title change", retitle, lambda s: f">{new_title}</a>" in s.page(page)),
        # a hub (the note most pages link to): every page linking to it shows the new
        # title; how many there were is printed with the results
        Edit("hub title change", retitle_hub,
             lambda s: all(f">{hub_title}</a>" in s.page(u) for u in linking)),
        Edit("body change", body, lambda s: True),
        Edit("new note", add, lambda s: f">Bench New {round_}</a>" in s.page(page)),
        Edit("deleted note", delete, lambda s: True),
    ]
    if dashboards is None:
        return edits
    # --dashboards: a save no dashboard shows (a body edit), one that every one shows
    quiet = notes[(round_ * 53 + 11) % len(notes)]
    shown = _shown_note(notes)
    created = f"2030-01-{round_ % 28 + 1:02d}"

    def quiet_body(_: Path) -> None:
        quiet.write_text(quiet.read_text(encoding="utf-8") + f"\nQuiet {round_}.\n",
                         encoding="utf-8")

    def shown_field(_: Path) -> None:
        shown.write_text(re.sub(r"^created: .*$", f"created: {created}",
                                shown.read_text(encoding="utf-8"), count=1,
                                flags=re.MULTILINE), encoding="utf-8")

    dash = f"{DASH_FOLDER}/dash-0/"
    return [Edit("dash unchanged", quiet_body, lambda s: True),
            Edit("dash changed", shown_field,
                 lambda s: dashboards == 0 or created in s.page(dash))]


def measure(root: Path, config: Path, dirty: bool, repeat: int,
            dashboards: int | None = None) -> dict[str, list[float]]:
    server = Server(root, config, dirty)
    started = time.monotonic()
    server.start()
    results: dict[str, list[float]] = {}
    try:
        if server.wait_for(_BUILT, 0, 3600) is None:
            raise RuntimeError("the first build did not finish")
        while not server.page("") and time.monotonic() - started < 600:
            time.sleep(0.05)
        results["first page"] = [time.monotonic() - started]
        docs = root / "docs"
        for round_ in range(repeat):
            edits = _edits(docs, round_, dashboards)
            time.sleep(1.5)  # let the watcher settle after writing the linker note
            server.wait_for(_RELOAD, time.monotonic() - 0.1, 120)
            for edit in edits:
                time.sleep(1.0)
                start = time.monotonic()
                edit.apply(docs)
                reloaded = server.wait_for(_RELOAD, start, 600)
                deadline = time.monotonic() + 60
                while not edit.done(server) and time.monotonic() < deadline:
                    time.sleep(0.05)
                if reloaded is not None and edit.done(server):
                    results.setdefault(edit.name, []).append(reloaded - start)
                else:
                    results.setdefault(edit.name, []).append(float("nan"))
    finally:
        server.stop()
    return results


def in_process(root: Path, config: Path, dashboards: int, repeat: int) -> dict[str, list[float]]:
    """``--in-process``: the CPU time of each dirty rebuild after the two ``--dashboards``
    saves, built in this process as ``mkdocs serve --dirty`` builds (no server, no
    watcher: the figure a loaded machine leaves steadiest), and of the pages' queries
    run again to compare their results (``QueryPages.shown``)."""
    import logging  # noqa: PLC0415 - only this mode

    from mkdocs.commands.build import build  # noqa: PLC0415
    from mkdocs.config import load_config  # noqa: PLC0415

    from ..site.query_pages import QueryPages  # noqa: PLC0415

    spent: list[float] = []
    shown = QueryPages.shown

    def timed(self: QueryPages, change: Any) -> Any:
        start = time.process_time()
        try:
            return shown(self, change)
        finally:
            spent.append(time.process_time() - start)

    QueryPages.shown = timed  # type: ignore[method-assign]
    logging.disable(logging.WARNING)
    results: dict[str, list[float]] = {}
    try:
        first = load_config(str(config))
        first.plugins.on_startup(command="serve", dirty=True)
        build(first, dirty=True)
        for round_ in range(repeat):
            edits = _edits(root / "docs", round_, dashboards)
            build(load_config(str(config)), dirty=True)  # the round's linker note
            for edit in edits:
                edit.apply(root / "docs")
                start = time.process_time()
                build(load_config(str(config)), dirty=True)
                results.setdefault(edit.name, []).append(time.process_time() - start)
                results.setdefault(f"{edit.name}: queries", []).append(spent[-1])
    finally:
        QueryPages.shown = shown  # type: ignore[method-assign]
        logging.disable(logging.NOTSET)
    return results


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m beliefbase.bench.serve",
                                description=__doc__.split("\n\n")[0] if __doc__ else "")
    p.add_argument("--sizes", default="1000,5000")
    p.add_argument("--out", type=absolute_path,
                   default=Path(tempfile.gettempdir()) / "bb-serve-bench")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--plain-serve", action="store_true",
                   help="plain `mkdocs serve` (full rebuilds) instead of --dirty")
    p.add_argument("--material-nav", action="store_true",
                   help="keep Material's navigation instead of the explorer")
    p.add_argument("--dashboards", type=int, default=None, metavar="N",
                   help="add N dashboard pages (a Cypher query, a base and a DQL table "
                   "each) and time only two saves: one no dashboard shows, one every one "
                   "shows (0: those saves without dashboards)")
    p.add_argument("--in-process", action="store_true",
                   help="with --dashboards: CPU seconds of each rebuild, built in this "
                   "process as `mkdocs serve --dirty` does, and of the pages' queries")
    p.add_argument("--compare-build", action="store_true",
                   help="also time `mkdocs build` of the vault (for the first page)")
    return p


def time_build(root: Path, config: Path) -> float:
    """Wall time of ``mkdocs build`` of the vault, a child process as serve is."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with tempfile.TemporaryDirectory() as site:
        start = time.monotonic()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config),
                        "-d", site], cwd=root, env=env, check=True)
        return time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    for n in (int(x) for x in args.sizes.split(",")):
        source, _ = ensure_vault(args.out / f"source-{n}", n)
        root = args.out / f"serve-{n}"
        for _ in range(20):  # the last server's background work may still write there
            shutil.rmtree(root, ignore_errors=True)
            if not root.exists():
                break
            time.sleep(0.5)
        shutil.copytree(source, root)
        config = root / "mkdocs.yml" if args.material_nav else explorer_config(root, "mkdocs.yml")
        if args.dashboards:
            add_dashboards(root / "docs", args.dashboards)
        if args.in_process and args.dashboards is not None:
            results = in_process(root, config, args.dashboards, args.repeat)
            print(f"\n{n} notes, {args.dashboards} dashboards, rebuilt in this process as "
                  "`mkdocs serve --dirty`: CPU seconds")
            for name, times in results.items():
                print(f"  {name:24} median {statistics.median(times):6.3f} s   "
                      f"({', '.join(f'{t:.3f}' for t in times)})")
            continue
        results = measure(root, config, not args.plain_serve, args.repeat, args.dashboards)
        if args.compare_build:
            results["mkdocs build"] = [time_build(root, config)]
        mode = ("mkdocs serve" if args.plain_serve else "mkdocs serve --dirty") + (
            "" if args.material_nav else ", explorer") + (
            f", {args.dashboards} dashboards" if args.dashboards is not None else "")
        print(f"\n{n} notes, {mode}: edit saved -> livereload, dependents written")
        for name, times in results.items():
            shown = ", ".join(f"{t:.2f}" for t in times)
            print(f"  {name:16} median {statistics.median(times):6.2f} s   ({shown})")
        if HUB_PAGES:
            print(f"  (the hubs retitled had {', '.join(map(str, HUB_PAGES))} linking pages, "
                  "each checked)")
            HUB_PAGES.clear()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

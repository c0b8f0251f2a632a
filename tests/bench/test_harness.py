"""The benchmark harness's own mechanics: per-child peak memory, timeouts, the table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from beliefbase.bench.child import run_child
from beliefbase.bench.report import markdown_table, remarks, text_table
from beliefbase.bench.run import Measurement, SizeResult


def test_peak_rss_is_the_one_childs_not_the_largest_so_far() -> None:
    # Measured from a small parent: a child's ru_maxrss can include the pages of
    # the process it was forked from, and a long pytest run is a large parent.
    script = (
        "import json, sys\n"
        "from beliefbase.bench.child import run_child\n"
        "big = run_child([sys.executable, '-c', 'x = bytearray(120 * 1024 * 1024)'])\n"
        "small = run_child([sys.executable, '-c', 'pass'])\n"
        "print(json.dumps([big.ok, small.ok, big.max_rss_bytes, small.max_rss_bytes]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout
    big_ok, small_ok, big_rss, small_rss = json.loads(out.strip().splitlines()[-1])
    assert big_ok and small_ok
    assert big_rss > 120 * 1024 * 1024
    assert small_rss < 60 * 1024 * 1024


def test_peak_rss_adds_up_worker_processes_running_at_once() -> None:
    worker = "import time; x = bytearray(80 * 1024 * 1024); time.sleep(1.5)"
    parent = (
        "import subprocess, sys\n"
        f"procs = [subprocess.Popen([sys.executable, '-c', {worker!r}]) for _ in range(2)]\n"
        "for p in procs: p.wait()\n"
    )
    result = run_child([sys.executable, "-c", parent])
    assert result.ok
    assert result.max_rss_bytes > 160 * 1024 * 1024  # ru_maxrss alone says ~90 MB


def test_memory_a_forked_worker_shares_is_counted_once() -> None:
    # The build fills 100 MB, then forks a worker that only waits: they share
    # those pages, so the machine needs ~100 MB, not 200 (RSS would say 200).
    # Measured from a small parent, as above: ru_maxrss would include pytest's.
    build = (
        "import os, time\n"
        "x = b'\\x01' * (100 * 1024 * 1024)\n"
        "if os.fork() == 0:\n"
        "    time.sleep(1.5); os._exit(0)\n"
        "os.wait()\n"
    )
    script = (
        "import json, sys\n"
        "from beliefbase.bench.child import run_child\n"
        f"r = run_child([sys.executable, '-c', {build!r}])\n"
        "print(json.dumps([r.ok, r.max_rss_bytes]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout
    ok, peak = json.loads(out.strip().splitlines()[-1])
    assert ok
    assert 100 * 1024 * 1024 < peak < 170 * 1024 * 1024


def test_timeout_kills_the_child_and_says_so() -> None:
    result = run_child([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.3)
    assert result.timed_out and not result.ok
    assert result.seconds < 10


def test_table_shows_numbers_ratios_and_why_cells_are_empty() -> None:
    manifest = {
        "bytes": 5_000_000,
        "wikilinks": 100,
        "embeds": 2,
        "markdown_links": 3,
        "links": {"dangling": 4, "ambiguous": 5},
    }
    result = SizeResult(
        1000,
        Path("v"),
        False,
        manifest,
        {
            "floor": Measurement(seconds=[4.0, 5.0]),
            "compile": Measurement(
                seconds=[2.0],
                extra={
                    "resolved_links": 105,
                    "diagnostics": {"unresolved-link": 4, "ambiguous-link": 6},
                },
            ),
            "build_cold": Measurement(seconds=[12.0], rss_bytes=300 * 1024 * 1024),
            "build_explorer": Measurement(seconds=[6.0]),
            "plain": Measurement("skipped", note="more than --plain-max 500 notes"),
        },
    )
    text = text_table([result])
    assert "1,000 notes" in text and "4.00 s" in text and "skipped" in text
    assert "3.00×" in text  # cold build / floor
    assert "1.50×" in text  # explorer build / floor
    assert "2.00 s" in text.splitlines()[-1]  # compile-only per 1,000 notes
    assert markdown_table([result]).startswith("|  | 1,000 notes |\n|---|---:|")
    lines = remarks([result])
    assert any("plain skipped" in line for line in lines)
    assert any("ambiguous-link 6 (generated 5!)" in line for line in lines)


def test_relative_out_folder_is_made_absolute_for_children(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Children run in the vault's folder: a relative --out must not reach them as is."""
    from beliefbase.bench.__main__ import parser
    from beliefbase.bench.serve import parser as serve_parser

    monkeypatch.chdir(tmp_path)
    assert parser().parse_args(["--out", "bench-out"]).out == tmp_path / "bench-out"
    assert serve_parser().parse_args(["--out", "b"]).out == tmp_path / "b"


def test_explorer_config_is_the_vault_config_with_the_explorer(tmp_path: Path) -> None:
    from beliefbase.bench.vault import explorer_config

    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - search\n  - beliefbase\nx: 1\n")
    written = explorer_config(tmp_path)
    assert written.read_text() == ("plugins:\n  - search\n  - beliefbase:\n"
                                   "      explorer: true\nx: 1\n")


def test_nonav_config_empties_materials_navigation(tmp_path: Path) -> None:
    from beliefbase.bench.vault import nonav_config

    (tmp_path / "mkdocs.plain.yml").write_text("theme:\n  name: material\n  font: false\n")
    written = nonav_config(tmp_path)
    assert "  custom_dir: nonav-theme\n" in written.read_text()
    assert (tmp_path / "nonav-theme" / "partials" / "nav.html").read_text() == ""


def test_slow_memory_samples_are_taken_less_often(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Reading a large build's smaps_rollup takes tens of milliseconds of a core the
    build needs: the sampler pauses at least 19 times as long as a sample took."""
    import time

    from beliefbase.bench import child

    taken: list[float] = []

    def slow_sample(self) -> int:  # type: ignore[no-untyped-def]
        taken.append(time.perf_counter())
        time.sleep(0.03)
        return len(taken)

    monkeypatch.setattr(child._TreeSampler, "_sample", slow_sample)
    sampler = child._TreeSampler(sid=0, interval=0.01)
    sampler.start()
    time.sleep(2.0)
    sampler.stop()
    gaps = [b - a for a, b in zip(taken, taken[1:], strict=False)]
    assert gaps and min(gaps) >= 0.03 * 20 * 0.95  # the sample, then 19 times its length
    assert sampler.peak == len(taken)


def test_floor_explorer_and_material_alone_are_measured_in_rounds(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from beliefbase.bench import run

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    config = "theme:\n  name: material\n  font: false\nplugins:\n  - search\n"
    (tmp_path / "mkdocs.plain.yml").write_text(config, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(config + "  - beliefbase\n", encoding="utf-8")
    calls: list[str] = []
    clock = iter(range(1, 100))

    def worker(n, task, config, options, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(task)
        return run.Measurement(seconds=[float(next(clock))] * options.repeat, rss_bytes=1 << 20)

    def builds(n, label, config, options, *, clear_cache):  # type: ignore[no-untyped-def]
        calls.append(label)
        return run.Measurement(seconds=[float(next(clock)) for _ in range(options.repeat)],
                               rss_bytes=2 << 20)

    monkeypatch.setattr(run, "ensure_vault", lambda folder, n, seed: (tmp_path, True))
    monkeypatch.setattr(run, "read_manifest", lambda vault: {})
    monkeypatch.setattr(run, "_worker", worker)
    monkeypatch.setattr(run, "_builds", builds)
    result = run.run_size(2, run.RunOptions(sizes=(2,), repeat=2, skip_plain=True), tmp_path)
    assert calls[:6] == ["floor", "build_explorer", "plain_nonav"] * 2
    m = result.measurements
    assert m["floor"].seconds == [1.0, 1.0, 4.0, 4.0]  # each round's child repeats as asked
    assert m["build_explorer"].seconds == [2.0, 5.0] and m["build_explorer"].best == 2.0
    assert m["plain_nonav"].seconds == [3.0, 6.0]
    assert calls[6:] == ["compile", "incremental", "build_cold", "build_warm"]


def test_a_failed_round_decides_the_measurement(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from beliefbase.bench import run

    ok = run.Measurement(seconds=[1.0])
    failed = run.Measurement("timeout", note="killed after 9 s")
    assert run._merged(ok, failed).status == "timeout"
    assert run._merged(failed, run.Measurement(seconds=[2.0])).status == "timeout"


def test_built_sites_are_kept_until_the_sizes_last_build(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Deleting a site between builds slowed the next build's file creation (ext4)."""
    from beliefbase.bench import child, run

    config = "theme:\n  name: material\n  font: false\nplugins:\n  - search\n"
    (tmp_path / "mkdocs.plain.yml").write_text(config, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(config + "  - beliefbase\n", encoding="utf-8")
    seen: list[tuple[Path, bool]] = []

    def fake_child(args, cwd, timeout, env):  # type: ignore[no-untyped-def]
        site = Path(args[args.index("-d") + 1])
        (site / "index.html").write_text("built", encoding="utf-8")
        return child.ChildResult(returncode=0, seconds=1.0, max_rss_bytes=1 << 20,
                                 stdout="", stderr="")

    def builds(n, label, config, options, *, clear_cache):  # type: ignore[no-untyped-def]
        assert options.sites is not None and options.sites.parent == tmp_path
        result = run.mkdocs_build(config, options.timeout, options.sites)
        seen.append((options.sites, result.returncode == 0))
        return run.Measurement(seconds=[1.0], rss_bytes=1 << 20)

    monkeypatch.setattr(run, "run_child", fake_child)
    monkeypatch.setattr(run, "ensure_vault", lambda folder, n, seed: (tmp_path, True))
    monkeypatch.setattr(run, "read_manifest", lambda vault: {})
    monkeypatch.setattr(run, "_worker", lambda *a, **k: run.Measurement(seconds=[1.0]))
    monkeypatch.setattr(run, "_builds", builds)
    sites_during: list[int] = []

    def incremental(n, vault, options):  # type: ignore[no-untyped-def]
        # the round's three builds' sites are all still there
        sites_during.append(len(list(options.sites.glob("site-*/index.html"))))
        return run.Measurement(seconds=[1.0])

    monkeypatch.setattr(run, "_incremental", incremental)
    run.run_size(2, run.RunOptions(sizes=(2,), repeat=1, skip_plain=True), tmp_path)
    assert sites_during == [2]  # explorer and Material without navigation, both kept
    assert len(seen) == 4 and all(ok for _, ok in seen)
    assert not seen[0][0].exists()  # deleted once the size was done


def test_table_compares_the_explorer_builds_memory_with_material_without_navigation() -> None:
    # issue 20's goal is ours within 2x Material with a minimal nav at 1k and 5k notes,
    # where plain Material (its quadratic navigation) is not measured at all
    result = SizeResult(5000, Path("v"), False, {}, {
        "build_explorer": Measurement(seconds=[6.0], rss_bytes=450 * 1024 * 1024),
        "plain_nonav": Measurement(seconds=[3.0], rss_bytes=250 * 1024 * 1024),
        "plain": Measurement("skipped", note="more than --plain-max 1000 notes"),
    })
    text = text_table([result])
    assert "peak memory, plain Material, navigation emptied" in text
    line = next(row for row in text.splitlines()
                if row.startswith("explorer build/Material without navigation, peak memory"))
    assert line.endswith("1.80×")


# -- the tree peak: what each process reports as it ends (no sampling, no timing) --------

def test_tree_peak_adds_up_workers_alive_at_once() -> None:
    """Two 80 MB workers held alive together (each waits for its stdin to close)."""
    worker = ("import sys; x = bytearray(80 * 1024 * 1024); print('ready', flush=True); "
              "sys.stdin.read()")
    parent = (
        "import subprocess, sys\n"
        f"procs = [subprocess.Popen([sys.executable, '-c', {worker!r}], "
        "stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)]\n"
        "for p in procs: p.stdout.readline()\n"
        "for p in procs: p.stdin.close(); p.wait()\n"
    )
    result = run_child([sys.executable, "-c", parent], tree_peak=True)
    assert result.ok and result.tree is not None
    assert result.tree.processes == 3 and result.tree.unended == 0
    assert result.tree_peak_bytes > 160 * 1024 * 1024


def test_tree_peak_does_not_add_up_workers_one_after_another() -> None:
    seq = ("import subprocess, sys\n"
           "for _ in range(2):\n"
           "    subprocess.run([sys.executable, '-c', 'x = bytearray(80 * 1024 * 1024)'],"
           " check=True)\n")
    result = run_child([sys.executable, "-c", seq], tree_peak=True)
    assert result.ok and result.tree is not None and result.tree.processes == 3
    assert 80 * 1024 * 1024 < result.tree_peak_bytes < 150 * 1024 * 1024


def test_tree_peak_counts_what_a_forked_worker_shares_once() -> None:
    """A forked worker (ending with ``os._exit``, as multiprocessing's do) that only
    reads its parent's 100 MB adds little: not another 100 MB."""
    build = (
        "import os\n"
        "x = b'\\x01' * (100 * 1024 * 1024)\n"
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.read(r, 1); y = bytearray(30 * 1024 * 1024); os._exit(0)\n"
        "os.write(w, b'x'); os.wait()\n"
    )
    result = run_child([sys.executable, "-c", build], tree_peak=True)
    assert result.ok and result.tree is not None and result.tree.processes == 2
    assert 130 * 1024 * 1024 < result.tree_peak_bytes < 180 * 1024 * 1024


def test_tree_peak_reads_pids_used_again_as_new_processes(tmp_path: Path) -> None:
    from beliefbase.bench.tree_peak import tree_peak

    log = tmp_path / "log"
    # each line ends with the root's high-water mark so far
    log.write_text("+ 1 0 5\n+ 7 1 6\n- 7 50 6\n+ 7 1 8\n+ 8 1 9\n- 8 30 9\n- 7 40 10\n"
                   "- 1 20 20 20 0 20\n+ 9 1 20\n", encoding="ascii")
    peak = tree_peak(log)
    # 7 (40) and 8 (30) alive at once while the root had used at most 9
    assert (peak.peak, peak.processes, peak.unended) == (79, 5, 1)


def test_a_child_between_vfork_and_exec_is_not_counted_twice() -> None:
    """Its parent waits in state D with the same address space: its PSS is the parent's."""
    from beliefbase.bench.child import vforked

    def stat(state: bytes, ppid: int, vsize: int, stack: int) -> list[bytes]:
        fields = [b"0"] * 30
        fields[0], fields[1], fields[20], fields[25] = (state, str(ppid).encode(),
                                                        str(vsize).encode(), str(stack).encode())
        return fields

    members = {"10": stat(b"D", 1, 500, 77), "11": stat(b"R", 10, 500, 77),
               "12": stat(b"S", 1, 500, 77), "13": stat(b"R", 12, 500, 77),
               "14": stat(b"D", 1, 900, 5), "15": stat(b"R", 14, 300, 6)}
    assert vforked(members["11"], members)  # vforked: its parent waits, same memory
    assert not vforked(members["13"], members)  # forked: the parent runs on
    assert not vforked(members["15"], members)  # the parent waits on something else
    assert not vforked(members["10"], members)  # its parent is not in the session


def test_the_build_itself_before_exec_is_not_counted(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The session's first process, vforked by the harness (not in the session), shares
    the harness's memory until it runs mkdocs: its parent is read from /proc."""
    from beliefbase.bench import child

    fields = [b"0"] * 30
    fields[0], fields[1], fields[20], fields[25] = b"R", b"4242", b"500", b"77"
    harness = list(fields)
    harness[0], harness[1] = b"D", b"1"
    monkeypatch.setattr(child, "stat_fields", lambda pid: harness if pid == "4242" else None)
    assert child.vforked(fields, {"4300": fields})
    harness[0] = b"S"  # the harness runs on: a forked child's memory is its own
    assert not child.vforked(fields, {"4300": fields})


def test_a_childs_peak_is_not_the_harness_it_was_forked_from() -> None:
    """Linux starts a forked child's high-water mark at its parent's and ``exec`` keeps
    it: a small build run from a large harness read the harness's peak (a 600-note
    Material build 84 MB after the test run had grown, 66 MB in a fresh one)."""
    import subprocess
    import sys

    probe = ("import sys\n"
             "from beliefbase.bench.child import run_child\n"
             "big = bytearray(300 << 20)\n"
             "for i in range(0, len(big), 4096): big[i] = 1\n"
             "r = run_child([sys.executable, '-c', 'pass'])\n"
             "print(r.max_rss_bytes >> 20)\n")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True)
    assert int(shown.stdout.split()[-1]) < 100  # a bare interpreter: about 10 MB


def test_a_large_grandparent_does_not_hide_a_childs_peak() -> None:
    """The harness's own peak is its memory's (``VmHWM``), not its ``ru_maxrss``, which
    it inherited from the large process that started it (a long pytest run): else a
    short-lived child's real ``ru_maxrss`` below that was dropped, and the sampler
    missed it."""
    import subprocess
    import sys

    inner = ("import json, sys\n"
             "from beliefbase.bench.child import run_child\n"
             "big = run_child([sys.executable, '-c', "
             "'x = bytearray(120 << 20)\\nfor i in range(0, len(x), 4096): x[i] = 1'])\n"
             "print(big.max_rss_bytes >> 20)\n")
    outer = ("import subprocess, sys\n"
             "big = bytearray(300 << 20)\n"
             "for i in range(0, len(big), 4096): big[i] = 1\n"
             f"print(subprocess.run([sys.executable, '-c', {inner!r}], capture_output=True, "
             "text=True, check=True).stdout)\n")
    shown = subprocess.run([sys.executable, "-c", outer], capture_output=True, text=True,
                           check=True)
    assert 120 < int(shown.stdout.split()[-1]) < 250


def test_a_process_whose_pss_cannot_be_read_is_not_counted_by_its_rss(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Where Linux says each process's PSS, one it cannot say it of this moment (forked
    or ending) is left out: its RSS counted its parent's pages again (a 600-note build
    read 129 MB, 96 otherwise, once in five builds)."""
    from beliefbase.bench import child

    def fields(ppid: bytes, rss_pages: int) -> list[bytes]:
        found = [b"0"] * 30
        found[0], found[1], found[21] = b"S", ppid, str(rss_pages).encode()
        return found

    members = [("10", fields(b"1", 25_000)), ("11", fields(b"10", 16_000))]
    monkeypatch.setattr(child, "session_members", lambda sid: iter(members))
    pss = {"10": 90 << 20, "11": None}
    monkeypatch.setattr(child, "_pss", lambda pid: pss.get(pid, 1 << 20))
    sampler = child._TreeSampler(sid=0)
    assert sampler._rollup
    assert sampler._sample() == 90 << 20
    sampler._rollup = False  # no PSS anywhere: every process's RSS
    assert sampler._sample() == (90 << 20) + 16_000 * sampler._page

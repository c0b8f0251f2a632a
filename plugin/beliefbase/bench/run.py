"""The harness: every measurement of one benchmark run, size by size.

For each vault size it measures, each in a fresh child process:

* ``floor`` - Python-Markdown converting every note with the site's extensions;
* ``compile`` - beliefbase's compiler alone (no MkDocs, no persistent cache);
* ``incremental`` - re-compile after one note is edited, same compiler object;
* ``build_cold`` / ``build_warm`` - ``python -m mkdocs build`` with beliefbase,
  first without ``.beliefbase/`` (the persistent cache), then with it;
* ``build_explorer`` - the cold build with the plugin's ``explorer: true``, the
  setting recommended for large vaults (Material's navigation replaced);
* ``plain`` - the same build with plain Material (wikilinks stay text);
* ``plain_nonav`` - plain Material with its navigation partial emptied: what
  MkDocs and Material cost at the least, for reference.

Builds with Material's default navigation (``build_cold``, ``build_warm``,
``plain``) run only up to ``plain_max`` notes: that navigation is quadratic.

Each measurement keeps every sample; ``best`` is the minimum (the run least
disturbed by the rest of the machine).  Builds also keep the peak memory.

Built sites are kept until every measurement of the size is done
(``_kept_sites``).  Deleting a site frees thousands of inodes, and for the
next half-minute ext4 makes every new file or folder look past them (its
``recently_deleted`` check): the 1,000 notes' ``mkdir`` and ``open`` calls
took 2 s instead of 0.3 s in whichever build came next, a penalty the floor,
which writes nothing, never paid.

Before measuring, beliefbase's modules are byte-compiled (``compile_package``)
as installing a wheel, or the first import anywhere ``__pycache__`` may be
written, leaves them: MkDocs and Material come compiled by pip, and a build
that compiles its plugin's source on every start (``PYTHONDONTWRITEBYTECODE``,
an editable install) would be timed with work no installed site repeats.
"""

from __future__ import annotations

import compileall
import contextlib
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .child import ChildResult, python_module, run_child
from .gen_vault import GENERATOR as GEN_VAULT
from .gen_vault import SCRIPT, ensure_gen_vault, find_script, gen_vault_dir
from .vault import (
    CONFIG,
    PLAIN_CONFIG,
    ensure_vault,
    explorer_config,
    nonav_config,
    read_manifest,
    vault_dir,
)

#: Where the plugin keeps its persistent cache by default (``cache_dir``).
CACHE_DIR = ".beliefbase"
_MB = 1024 * 1024


@dataclass(frozen=True)
class RunOptions:
    """What ``python -m beliefbase.bench`` was asked to do."""

    sizes: tuple[int, ...] = (1000, 5000, 20000)
    seed: int = 1
    out: Path | None = None  # where vaults live; None: a temporary folder
    plain_max: int = 1000
    skip_plain: bool = False
    repeat: int = 1
    timeout: float = 1800.0  # seconds, per child process
    profile: Path | None = None  # folder for cProfile output of compile-only
    sites: Path | None = None  # set by run_size: the folder its builds write their sites in
    generator: str = "bench"  # "bench" (vault.py) or "gen_vault" (gen_vault.py's vaults)
    gen_vault_script: Path | None = None  # gen_vault.py (default: gen_vault.find_script)


@dataclass
class Measurement:
    """One measured quantity: its samples, or why there are none."""

    status: str = "ok"  # ok | skipped | unavailable | failed | timeout
    seconds: list[float] = field(default_factory=list)
    rss_bytes: int | None = None
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> float | None:
        return min(self.seconds) if self.status == "ok" and self.seconds else None

    @property
    def rss_mb(self) -> float | None:
        return self.rss_bytes / _MB if self.rss_bytes and self.status == "ok" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "best_s": self.best,
            "seconds": [round(s, 4) for s in self.seconds],
            "max_rss_mb": round(self.rss_mb, 1) if self.rss_mb else None,
            "note": self.note,
            **self.extra,
        }


@dataclass
class SizeResult:
    """Everything measured on the vault of one size."""

    notes: int
    vault: Path
    reused: bool
    manifest: dict[str, Any]
    measurements: dict[str, Measurement] = field(default_factory=dict)

    def best(self, key: str) -> float | None:
        m = self.measurements.get(key)
        return m.best if m else None

    def _rss(self, key: str) -> float | None:
        m = self.measurements.get(key)
        return m.rss_mb if m else None

    def ratios(self) -> dict[str, float | None]:
        """ours/plain, ours/floor and compile-only per 1,000 notes."""
        plain_rss = self.measurements["plain"].rss_mb if "plain" in self.measurements else None
        cold_rss = (
            self.measurements["build_cold"].rss_mb if "build_cold" in self.measurements else None
        )
        compile_s = self.best("compile")
        return {
            "build_cold/plain": _ratio(self.best("build_cold"), self.best("plain")),
            "build_warm/plain": _ratio(self.best("build_warm"), self.best("plain")),
            "rss_cold/plain": _ratio(cold_rss, plain_rss),
            "build_cold/floor": _ratio(self.best("build_cold"), self.best("floor")),
            "explorer/floor": _ratio(self.best("build_explorer"), self.best("floor")),
            "plain/explorer": _ratio(self.best("plain"), self.best("build_explorer")),
            "rss_explorer/plain": _ratio(self._rss("build_explorer"), plain_rss),
            "explorer/nonav": _ratio(self.best("build_explorer"), self.best("plain_nonav")),
            # the memory goal (issue 20): within 2x Material with a minimal nav at every size
            "rss_explorer/nonav": _ratio(self._rss("build_explorer"), self._rss("plain_nonav")),
            "nonav/floor": _ratio(self.best("plain_nonav"), self.best("floor")),
            "compile/floor": _ratio(compile_s, self.best("floor")),
            "compile_per_1000_s": compile_s * 1000 / self.notes if compile_s is not None else None,
        }

    def to_json(self) -> dict[str, Any]:
        keys = ("bytes", "folders", "wikilinks", "links", "embeds", "markdown_links", "fake_links")
        return {
            "notes": self.notes,
            "vault": str(self.vault),
            "reused": self.reused,
            "vault_stats": {k: self.manifest.get(k) for k in keys},
            "measurements": {k: m.to_json() for k, m in self.measurements.items()},
            "ratios": {k: round(v, 3) if v is not None else None for k, v in self.ratios().items()},
        }


def run(options: RunOptions) -> list[SizeResult]:
    """Measure every size in ``options.sizes``; vaults are generated or reused."""
    out = options.out or Path(tempfile.mkdtemp(prefix="beliefbase-bench-"))
    compile_package()
    try:
        return [run_size(n, options, out) for n in options.sizes]
    finally:
        if options.out is None:
            shutil.rmtree(out, ignore_errors=True)


def compile_package() -> bool:
    """Byte-compile beliefbase's modules where they are installed (False if it cannot)."""
    package = Path(__file__).resolve().parents[1]
    try:
        return bool(compileall.compile_dir(package, quiet=2, force=False))
    except OSError:
        return False


def run_size(n: int, options: RunOptions, out: Path) -> SizeResult:
    """All measurements on the vault of ``n`` notes."""
    _progress(n, f"vault in {out}")
    if options.generator == GEN_VAULT:
        script = options.gen_vault_script or find_script()
        if script is None:
            raise FileNotFoundError(f"no {SCRIPT} above this checkout: pass --gen-vault PATH")
        vault, reused = ensure_gen_vault(gen_vault_dir(out, n, options.seed), n, options.seed,
                                         script)
    else:
        vault, reused = ensure_vault(vault_dir(out, n, options.seed), n, options.seed)
    result = SizeResult(n, vault, reused, read_manifest(vault) or {})
    m = result.measurements
    _progress(n, "reused" if reused else "generated")
    with _kept_sites(out / f"sites-{n}") as sites:
        _measure(n, vault, dataclasses.replace(options, sites=sites), m)
    return result


@contextlib.contextmanager
def _kept_sites(folder: Path) -> Iterator[Path]:
    """A folder for the size's built sites, deleted (and synced) after its last build."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if hasattr(os, "sync"):
            os.sync()  # freed inodes written out: ext4 then looks past them for 5 s, not 35 s


def _measure(n: int, vault: Path, options: RunOptions, m: dict[str, Measurement]) -> None:
    m["floor"], m["build_explorer"], m["plain_nonav"] = _rounds(n, vault, options)
    profile = options.profile / f"compile-{n}.prof" if options.profile else None
    m["compile"] = _worker(n, "compile", vault / CONFIG, options, profile=profile)
    m["incremental"] = _incremental(n, vault, options)
    m["build_cold"], m["build_warm"] = _our_builds(n, vault, options)
    m["plain"] = _plain_build(n, vault, options)


def _rounds(n: int, vault: Path, options: RunOptions) -> tuple[Measurement, ...]:
    """The floor, the explorer build and Material without navigation, in rounds.

    Their ratios are the benchmark's headline, and this machine's speed drifts
    by a quarter within minutes: measured one after another (the floor's
    samples, then minutes of other builds, then the explorer's), a ratio
    compared a fast minute with a slow one.  So each of ``--repeat`` rounds
    takes one sample of each (the floor's child converting every note
    ``--repeat`` times, as before), and the best of each is kept.
    """
    rounds = max(options.repeat, 1)
    one = dataclasses.replace(options, repeat=1)
    floor, explorer, nonav = Measurement(), Measurement(), Measurement()
    for _ in range(rounds):
        floor = _merged(floor, _worker(n, "floor", vault / PLAIN_CONFIG, options))
        explorer = _merged(explorer, _builds(n, "build_explorer", explorer_config(vault), one,
                                             clear_cache=True))
        nonav = _merged(nonav, _builds(n, "plain_nonav", nonav_config(vault), one,
                                       clear_cache=False))
    return floor, explorer, nonav


def _merged(into: Measurement, sample: Measurement) -> Measurement:
    """``into`` with ``sample``'s seconds added; a failed sample decides the measurement."""
    if into.status != "ok":
        return into
    if sample.status != "ok":
        return sample
    into.seconds.extend(sample.seconds)
    if sample.rss_bytes:
        into.rss_bytes = max(into.rss_bytes or 0, sample.rss_bytes)
    into.note = into.note or sample.note
    for key, value in sample.extra.items():
        if key == "load_before":
            into.extra[key] = max(value, into.extra.get(key, 0.0))
        else:
            into.extra.setdefault(key, value)
    return into


def mkdocs_build(config: Path, timeout: float | None, sites: Path) -> ChildResult:
    """``python -m mkdocs build -q -f CONFIG -d <new folder in sites>`` in a fresh child.

    The site is left there: ``run_size`` deletes the size's sites after its
    last build (see the module's notes).
    """
    site = tempfile.mkdtemp(prefix="site-", dir=sites)
    args = python_module("mkdocs", "build", "-q", "-f", str(config), "-d", site)
    # MkDocs 1.6 prints a notice about MkDocs 2 on every build; keep stderr for errors.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return run_child(args, cwd=config.parent, timeout=timeout, env=env)


def _worker(
    n: int,
    task: str,
    config: Path,
    options: RunOptions,
    *,
    profile: Path | None = None,
    edit: Path | None = None,
) -> Measurement:
    args = python_module(
        "beliefbase.bench.worker", task, str(config), "--repeat", str(options.repeat)
    )
    if profile:
        profile.parent.mkdir(parents=True, exist_ok=True)
        args += ["--profile", str(profile)]
    if edit:
        args += ["--edit", str(edit)]
    load = load_average()
    child = run_child(args, cwd=config.parent, timeout=options.timeout)
    failed = _failure(child)
    if failed:
        _progress(n, f"{task}: {failed.status}")
        return failed
    data = child.last_json()
    status, seconds = data.pop("status"), data.pop("seconds", [])
    measurement = Measurement(status, seconds, child.max_rss_bytes, data.pop("reason", ""), data)
    measurement.extra["load_before"] = load
    _progress(n, f"{task}: {_fmt(measurement)}")
    return measurement


def _incremental(n: int, vault: Path, options: RunOptions) -> Measurement:
    """The worker edits one note; restore its bytes and times whatever happens."""
    notes = sorted((vault / "docs").rglob("*.md"))
    edit = notes[len(notes) // 2]
    original, stat = edit.read_bytes(), edit.stat()
    try:
        return _worker(n, "incremental", vault / CONFIG, options, edit=edit)
    finally:
        edit.write_bytes(original)
        os.utime(edit, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def _our_builds(n: int, vault: Path, options: RunOptions) -> tuple[Measurement, Measurement]:
    if n > options.plain_max:
        skipped = Measurement("skipped", note=f"more than --plain-max {options.plain_max} notes")
        return skipped, skipped
    cold = _builds(n, "build_cold", vault / CONFIG, options, clear_cache=True)
    if cold.status != "ok":
        return cold, Measurement("skipped", note="the cold build did not finish")
    return cold, _builds(n, "build_warm", vault / CONFIG, options, clear_cache=False)


def _plain_build(n: int, vault: Path, options: RunOptions) -> Measurement:
    if options.skip_plain:
        return Measurement("skipped", note="--skip-plain")
    if n > options.plain_max:
        return Measurement("skipped", note=f"more than --plain-max {options.plain_max} notes")
    return _builds(n, "plain", vault / PLAIN_CONFIG, options, clear_cache=False)


def _builds(
    n: int, label: str, config: Path, options: RunOptions, *, clear_cache: bool
) -> Measurement:
    measurement = Measurement()
    for _ in range(options.repeat):
        if clear_cache:
            shutil.rmtree(config.parent / CACHE_DIR, ignore_errors=True)
        load = load_average()
        measurement.extra["load_before"] = max(load, measurement.extra.get("load_before", 0.0))
        assert options.sites is not None, "builds run inside run_size"
        child = mkdocs_build(config, options.timeout, options.sites)
        failed = _failure(child)
        if failed:
            _progress(n, f"{label}: {failed.status}")
            return failed
        measurement.seconds.append(child.seconds)
        measurement.rss_bytes = max(measurement.rss_bytes or 0, child.max_rss_bytes)
    _progress(n, f"{label}: {_fmt(measurement)}")
    return measurement


def _failure(child: ChildResult) -> Measurement | None:
    if child.timed_out:
        return Measurement("timeout", note=f"killed after {child.seconds:.0f} s")
    if child.returncode != 0:
        return Measurement("failed", note=child.error_tail())
    return None


def _ratio(ours: float | None, theirs: float | None) -> float | None:
    return ours / theirs if ours is not None and theirs else None


def _fmt(m: Measurement) -> str:
    if m.best is None:
        return f"{m.status} {m.note}".strip()
    rss = f", {m.rss_mb:.0f} MB" if m.rss_mb else ""
    return f"{m.best:.2f} s{rss}"


def _progress(n: int, message: str) -> None:
    print(f"[{n:,} notes] {message}", file=sys.stderr, flush=True)


def load_average() -> float:
    """The 1-minute load average (0.0 where the OS has none): others using the CPUs."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return 0.0


def git_revision() -> str | None:
    """The short commit of the beliefbase checkout being measured, if it is one."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except OSError:
        return None
    return done.stdout.strip() or None

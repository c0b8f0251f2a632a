"""The speed-ups (``speedups/``) change no byte of a site, one option turns them all
off, and on a library version outside their gate they switch themselves off with
one info line while the build still succeeds."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import mkdocs.structure.pages as mkdocs_pages
import pytest
import yaml
from beliefbase import speedups
from beliefbase.site import panels_ahead
from beliefbase.speedups import gate, markdown_reuse, page_writer, render_ahead, search_offload

from tests.conftest import BuildResult, Project
from tests.sitecompare import EPOCH, compare

ROOT = Path(__file__).resolve().parent.parent
VAULTS = {"golden": ROOT / "golden" / "vault", "fidelity": ROOT / "fidelity" / "vault"}


@pytest.fixture(autouse=True)
def every_speedup_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small vaults take the speed-ups' paths too (each waits for 200 pages), at a
    fixed build date."""
    monkeypatch.setattr(render_ahead, "AHEAD_THRESHOLD", 1)
    monkeypatch.setattr(search_offload, "OFFLOAD_THRESHOLD", 1)
    monkeypatch.setattr(panels_ahead, "PANELS_THRESHOLD", 1)
    monkeypatch.setattr(page_writer, "WRITER_THRESHOLD", 1)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    monkeypatch.delenv("BELIEFBASE_SPEEDUPS", raising=False)
    monkeypatch.setattr(speedups, "_said", None)  # a fresh process's gate line


def build(vault: Path, into: Path, **options: Any) -> BuildResult:
    """A copy of ``vault`` built with the plugin's ``options``."""
    root = into / vault.name
    shutil.copytree(vault, root, ignore=shutil.ignore_patterns(".beliefbase"))
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    plugins = []
    for plugin in config["plugins"]:
        if plugin == "beliefbase" or (isinstance(plugin, dict) and "beliefbase" in plugin):
            ours = plugin["beliefbase"] if isinstance(plugin, dict) else {}
            plugin = {"beliefbase": {**(ours or {}), **options}}
        plugins.append(plugin)
    config["plugins"] = plugins
    result = Project(root, config).build()
    assert result.error is None, result.error
    return result


def gate_lines(result: BuildResult) -> list[str]:
    return [line for line in result.lines if "speed-ups off" in line]


@pytest.mark.parametrize("name", sorted(VAULTS))
def test_the_site_is_the_same_with_and_without_speedups(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed: list[str] = []
    real_install = markdown_reuse.MarkdownReuse.install

    def spy(self: markdown_reuse.MarkdownReuse) -> None:
        installed.append("reuse")
        real_install(self)

    monkeypatch.setattr(markdown_reuse.MarkdownReuse, "install", spy)
    on = build(VAULTS[name], tmp_path / "on")
    assert installed == ["reuse"]  # the speed-ups ran
    assert gate_lines(on) == []
    off = build(VAULTS[name], tmp_path / "off", speedups=False)
    assert installed == ["reuse"]  # and here they did not
    assert gate_lines(off) == []
    assert compare(on.site, off.site) == []
    assert mkdocs_pages.markdown.__name__ == "markdown"  # type: ignore[attr-defined]  # unpatched


def test_the_environment_variable_turns_them_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELIEFBASE_SPEEDUPS", "0")
    options = yaml.safe_load("{speedups: true}")
    assert speedups.wanted(_Options(**options)) == gate.ALWAYS


def test_an_untested_version_switches_them_off_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    on = build(VAULTS["golden"], tmp_path / "on")
    for name in gate.TESTED:  # every library a release beyond what was tested
        monkeypatch.setitem(gate.TESTED, name, ("0.0", "0.1"))
    made: list[str] = []
    monkeypatch.setattr(markdown_reuse.MarkdownReuse, "install",
                        lambda self: made.append("reuse"))
    monkeypatch.setattr(render_ahead.RenderAhead, "start",
                        classmethod(lambda cls, *a: made.append("ahead")))
    untested = build(VAULTS["golden"], tmp_path / "untested")
    assert made == []
    lines = gate_lines(untested)
    assert len(lines) == 1, lines
    assert lines[0].startswith("INFO speed-ups off (")
    assert "not tested with" in lines[0] and "mkdocs " in lines[0]
    assert compare(on.site, untested.site) == []


def test_the_gate_reads_versions() -> None:
    assert gate.Gate.check(lambda name: {"mkdocs": "1.6.1"}.get(name)).untested == {}
    outside = gate.Gate.check(lambda name: {"jinja2": "4.0.0", "mkdocs": "1.5.3"}.get(name))
    assert outside.untested == {"jinja2": "4.0.0", "mkdocs": "1.5.3"}
    assert not outside.allows("nav_cache") and not outside.allows("reuse_markdown")
    assert outside.allows("panels_ahead") and outside.allows("search_offload")
    assert gate.Gate.check(lambda name: "not-a-version").untested.keys() == gate.TESTED.keys()
    # one line for all of them, only when one is off
    assert outside.describe_off(["panels_ahead"]) is None
    line = outside.describe_off(["nav_cache", "theme_cache", "panels_ahead"])
    assert line is not None and line.count("\n") == 0
    assert "nav_cache, theme_cache" in line and "jinja2 4.0.0, mkdocs 1.5.3" in line


class _Options:
    """The plugin's options ``speedups.wanted`` reads, every one on."""

    def __init__(self, speedups: bool = True) -> None:
        self.speedups = speedups

    def __getattr__(self, name: str) -> bool:
        return True


def _loaded(text: str) -> tuple[Any, list[tuple[str, str]]]:
    """The plugin's options from mkdocs.yml's YAML text, and the warnings."""
    from beliefbase.config import BeliefbaseConfig

    options = BeliefbaseConfig()
    options.load_dict(yaml.safe_load(text) or {})
    failed, warned = options.validate()
    assert failed == []
    return options, warned


def test_one_option_turns_single_speedups_off() -> None:
    from beliefbase.config import SPEEDUPS

    everything = frozenset(SPEEDUPS) | gate.ALWAYS
    assert set(SPEEDUPS) == set(gate.TOUCHES) - gate.ALWAYS  # every one can be named
    assert speedups.wanted(_loaded("{}")[0]) == everything
    assert speedups.wanted(_loaded("{speedups: true}")[0]) == everything
    assert speedups.wanted(_loaded("{speedups: false}")[0]) == gate.ALWAYS
    options, warned = _loaded("{speedups: {nav_cache: false, link_memo: false, "
                              "theme_cache: true}}")
    assert warned == []
    assert speedups.wanted(options) == everything - {"nav_cache", "link_memo"}
    assert legacy_line(options) is None
    options, warned = _loaded("{speedups: {nav_cahce: false}}")  # a typo: said, not fatal
    assert speedups.wanted(options) == everything
    assert len(warned) == 1 and "unknown speed-up 'nav_cahce'" in warned[0][1]


@pytest.mark.parametrize(("text", "off", "line"), [
    ("{nav_cache: false, reuse_markdown: false}", {"nav_cache", "reuse_markdown"},
     "write 'speedups: {reuse_markdown: false, nav_cache: false}' instead"),
    ("{panels_ahead: true}", set(), "remove it"),
    ("{speedups: {link_memo: false}, search_offload: false}", {"link_memo", "search_offload"},
     "write 'speedups: {search_offload: false, link_memo: false}' instead"),
    ("{speedups: false, theme_cache: true, nav_cache: false}", None, "remove them"),
])
def test_the_old_options_still_work_with_one_line(text: str, off: set[str] | None,
                                                  line: str) -> None:
    from beliefbase.config import SPEEDUPS

    options, warned = _loaded(text)
    assert warned == []
    everything = frozenset(SPEEDUPS) | gate.ALWAYS
    expected = gate.ALWAYS if off is None else everything - off
    assert speedups.wanted(options) == expected
    said = legacy_line(options)
    assert said is not None and said.endswith(line) and "still work" in said


def legacy_line(options: Any) -> str | None:
    from beliefbase.config import legacy_speedups_line

    return legacy_speedups_line(options)


def test_an_old_option_in_a_build_logs_one_info_line(tmp_path: Path) -> None:
    result = build(VAULTS["golden"], tmp_path / "old", nav_cache=False)
    lines = [line for line in result.lines if "now part of 'speedups'" in line]
    assert lines == ["INFO option nav_cache is now part of 'speedups' (it still works): "
                     "write 'speedups: {nav_cache: false}' instead"], result.lines

"""``beliefbase doctor`` (issue 29): which installed host runs the plugin and what
mkdocs.yml asks for; one clear line where a host would drop the plugin silently."""

from __future__ import annotations

from pathlib import Path

import pytest
from beliefbase import doctor
from beliefbase.cli import main
from click.testing import CliRunner

GOOD = "site_name: t\ntheme: {name: material}\nplugins: [search, beliefbase]\n"
MK16 = {"mkdocs": "1.6.1", "properdocs": None, "zensical": None, "mkdocs-material": "9.6"}


def _levels(found: list[doctor.Finding]) -> list[str]:
    return [f.level for f in found]


@pytest.mark.parametrize(("versions", "runners", "says"), [
    (MK16, ["mkdocs"], "MkDocs 1.6.1 runs beliefbase"),
    ({**MK16, "properdocs": "1.6.7"}, ["mkdocs", "properdocs"], "ProperDocs 1.6.7"),
    ({**MK16, "mkdocs": "2.0.0rc1", "properdocs": "1.6.7"}, ["properdocs"],
     "MkDocs 2.0.0rc1 has no plugin system"),
    ({**MK16, "mkdocs": "2.0.0"}, [], "nothing installed here runs beliefbase"),
    ({**MK16, "mkdocs": "1.5.3"}, [], "older than 1.6"),
    ({**MK16, "zensical": "0.1"}, ["mkdocs"], "it ignores third-party MkDocs plugins"),
    ({**MK16, "mkdocs": None, "zensical": "0.1"}, [], "`zensical build` makes the site "
     "without beliefbase"),
])
def test_hosts(versions: dict[str, str | None], runners: list[str], says: str) -> None:
    found, got = doctor.hosts(versions)
    assert got == runners
    assert any(says in f.text for f in found), [str(f) for f in found]


def test_a_good_project(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text(GOOD + "markdown_extensions: [toc, attr_list, pymdownx.superfences]\n")
    report = doctor.report(config, MK16)
    assert report.ok and report.runners == ("mkdocs",)
    assert _levels(list(report.findings)) == ["ok", "ok"]


def test_what_the_project_lacks(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: t\ntheme: readthedocs\nplugins: [search, no-such-plugin]\n"
                      "markdown_extensions:\n  - no_such_ext\n"
                      "  - pymdownx.emoji:\n"
                      "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
                      "extra: {k: !ENV [HOME, x]}\n")
    (tmp_path / "zensical.toml").write_text("[project]\n")
    texts = [str(f) for f in doctor.report(config, MK16).findings]
    assert "error: mkdocs.yml does not list beliefbase under plugins: add " \
           "`plugins: [search, beliefbase]`" in texts
    assert any(t.startswith("error: the plugin 'no-such-plugin'") for t in texts)
    assert any(t.startswith("error: the Markdown extension 'no_such_ext'") for t in texts)
    assert any(t.startswith("info: theme 'readthedocs'") for t in texts)
    assert any(t.startswith("warning: zensical.toml is next to mkdocs.yml") for t in texts)
    assert not doctor.report(config, MK16).ok


def test_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mkdocs.yml").write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 0, result.output
    assert "ok: mkdocs.yml lists beliefbase under plugins" in result.output
    assert result.output.splitlines()[-1].startswith("beliefbase builds this site with: ")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 1
    assert "does not list beliefbase" in result.output
    (tmp_path / "mkdocs.yml").unlink()
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 1 and "error: no mkdocs.yml here" in result.output

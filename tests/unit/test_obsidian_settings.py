"""``obsidian.py``: a vault's .obsidian settings, tolerant of missing and broken files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from beliefbase.obsidian import ObsidianSettings, read_settings


def _write(docs: Path, name: str, text: str) -> None:
    (docs / ".obsidian").mkdir(parents=True, exist_ok=True)
    (docs / ".obsidian" / name).write_text(text, encoding="utf-8")


def test_no_obsidian_folder(tmp_path: Path) -> None:
    assert read_settings(tmp_path) == ObsidianSettings()


def test_empty_folder_is_a_vault_with_obsidian_defaults(tmp_path: Path) -> None:
    (tmp_path / ".obsidian").mkdir()
    settings = read_settings(tmp_path)
    assert settings.present and settings.strict_line_breaks is None
    assert settings.ignore_filters == () and settings.templates_folder is None


def test_settings(tmp_path: Path) -> None:
    _write(tmp_path, "app.json", json.dumps({
        "strictLineBreaks": True, "userIgnoreFilters": ["Archive/", "/\\.excalidraw/", "x"]}))
    _write(tmp_path, "templates.json", json.dumps({"folder": "/Meta/Templates/"}))
    settings = read_settings(tmp_path)
    assert settings.strict_line_breaks is True
    assert settings.templates_folder == "Meta/Templates"
    assert settings.diagnostics == ()
    assert settings.excludes("Archive/old.md")
    assert not settings.excludes("Notes/Archive/old.md")  # a prefix of the vault path
    assert settings.excludes("Notes/sketch.excalidraw.md")  # a regex, searched
    assert settings.excludes("xylophone.md")  # Obsidian's filters are plain prefixes
    assert settings.excludes("Meta/Templates/Daily.md")
    assert not settings.excludes("Meta/Templates2/Daily.md")
    assert not settings.excludes("Kept.md")


@pytest.mark.parametrize(("name", "text", "where"), [
    ("app.json", "{not json", "app.json:1:2"),
    ("app.json", "[1, 2]", "app.json:1:1"),
    ("app.json", '{"strictLineBreaks": "yes"}', "app.json:1:1"),
    ("app.json", '{"userIgnoreFilters": "Archive"}', "app.json:1:1"),
    ("app.json", '{"userIgnoreFilters": ["/(unclosed/"]}', "app.json:1:1"),
    ("templates.json", '{"folder": 3}', "templates.json:1:1"),
])
def test_malformed_settings_are_info_diagnostics(tmp_path: Path, name: str, text: str,
                                                 where: str) -> None:
    _write(tmp_path, name, text)
    settings = read_settings(tmp_path, "docs/")
    assert [str(d).split(": ")[:2] for d in settings.diagnostics] == [
        [f"docs/.obsidian/{where}", "obsidian-settings"]]
    assert settings.diagnostics[0].level.value == "info"
    assert settings.strict_line_breaks is None and settings.ignore_filters == ()
    assert settings.templates_folder is None

"""Every code of docs/reference/diagnostics.md has an example vault on that page, and
building it reports that code (issue 29): the page is read, each example written
into a fresh project and built."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from beliefbase.diagnostics import CODES

from ..conftest import Project

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "diagnostics.md"

#: codes with no example, and why
NO_EXAMPLE = {"invariant": "a bug in beliefbase; no vault should produce it"}

_SECTION = re.compile(r"^### `([a-z-]+)`\n(.*?)(?=^### `|\Z)", re.M | re.S)
_FENCE = re.compile(r'^~~~\w* title="([^"]+)"\n(.*?)^~~~$', re.M | re.S)
_TIMES = re.compile(r"^(.*) \((\d+) times(?:, ([a-z ]+))?\)$")


def examples() -> dict[str, list[tuple[str, str]]]:
    """code -> [(title, text)] of its example's files, in page order."""
    text = PAGE.read_text(encoding="utf-8")
    part = text[text.index("\n## Examples"):text.index("\n## `diagnostics.json`")]
    return {m.group(1): _FENCE.findall(m.group(2)) for m in _SECTION.finditer(part)}


def write_example(project: Project, files: list[tuple[str, str]]) -> dict[str, Any]:
    """Write one example's files; return the mkdocs.yml changes it asks for."""
    changes: dict[str, Any] = {}
    for title, text in files:
        if title == "mkdocs.yml":
            changes = yaml.safe_load(text)
            continue
        path, data = _content(title, text)
        if isinstance(data, str):  # a symlink: "docs/sub/loop (a symlink to ..)"
            link = project.root / path
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(data, link)
            continue
        target = project.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return changes


def _content(title: str, text: str) -> tuple[str, bytes | str]:
    """(path, bytes to write) or (path, where the symlink points)."""
    if title.endswith(")") and " (a symlink to " in title:
        path, _, to = title[:-1].partition(" (a symlink to ")
        return path, to
    if title.endswith(" (Latin-1)"):
        return title.removesuffix(" (Latin-1)"), text.encode("latin-1")
    m = _TIMES.match(title)
    if m is None:
        return title, text.encode()
    path, times, how = m.group(1), int(m.group(2)), m.group(3) or ""
    line = text.rstrip("\n")
    if how == "one line":
        body = line * times + "\n"
    elif how == "numbered":
        body = "".join(line.replace("N", str(i)) + "\n" for i in range(1, times + 1))
    elif how == "nested":
        body = "".join("  " * i + line + "\n" for i in range(times))
    else:
        body = (line + "\n") * times
    return path, body.encode()


def test_every_code_has_an_example() -> None:
    found = examples()
    assert sorted(set(CODES) - set(found) - set(NO_EXAMPLE)) == []
    assert sorted(set(found) - set(CODES)) == []
    assert all(found[code] for code in found if code not in NO_EXAMPLE)


@pytest.mark.parametrize("code", sorted(set(CODES) - set(NO_EXAMPLE)))
def test_the_example_produces_its_code(project: Project, code: str) -> None:
    files = examples()[code]
    if code == "unreadable-file" and os.name == "nt":
        pytest.skip("symlinks")
    changes = write_example(project, files)
    config = dict(project.config)
    if "plugins" in changes:
        config["plugins"] = ["search", *changes.pop("plugins")]
    project.config = {**config, **changes}
    if not (project.docs / "index.md").exists():
        project.write("index.md", "# Home\n")
    result = project.build()
    assert result.error is None, result.error
    reported = json.loads((result.site / "_beliefbase" / "diagnostics.json").read_text())
    codes = {d["code"] for d in reported["diagnostics"]}
    logged = [line for line in result.lines if f": {code}: " in line]
    assert code in codes or logged, (code, sorted(codes), result.lines[-5:])
    # the message names file:line:column and says what to do
    for d in reported["diagnostics"]:
        if d["code"] == code:
            assert d["file"] and d["line"] >= 1 and d["column"] >= 1
            assert len(d["message"]) > 20

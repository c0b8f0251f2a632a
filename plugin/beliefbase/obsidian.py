"""A vault's Obsidian settings that change what is published and how it reads.

Obsidian keeps its settings in ``<vault>/.obsidian/*.json``; the vault is docs_dir.
Three of them matter to a site:

* ``app.json`` ``strictLineBreaks``: when false (Obsidian's default, also when the
  key is absent) a single newline inside a paragraph is a line break;
* ``app.json`` ``userIgnoreFilters`` ("Excluded files"): each entry is a path
  prefix relative to the vault (``Archive/``, ``Daily/2020``) or, written between
  slashes, a regular expression searched in the path (``/\\.excalidraw/``);
* ``templates.json`` ``folder``: the core Templates plugin's folder, whose notes
  are templates with ``{{title}}`` placeholders, not notes.

Missing files are normal (no setting); a file that is not a JSON object, or a
setting of the wrong type, is an info diagnostic and the setting is ignored: a
vault's editor settings must never break its build.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import diagnostics as diag

FOLDER = ".obsidian"


@dataclass(frozen=True, slots=True)
class ObsidianSettings:
    """What the site takes from a vault's ``.obsidian`` folder."""

    present: bool = False  #: docs_dir has a ``.obsidian`` folder
    strict_line_breaks: bool | None = None  #: None: not set (Obsidian's default: false)
    ignore_filters: tuple[str, ...] = ()
    templates_folder: str | None = None  #: relative to docs_dir, no slashes around it
    diagnostics: tuple[diag.Diagnostic, ...] = ()

    def excludes(self, path: str) -> bool:
        """Is ``path`` (relative to docs_dir, POSIX) excluded by these settings?"""
        return self.why_excluded(path) is not None

    def why_excluded(self, path: str) -> str | None:
        """Which setting excludes ``path``, in words (None: none does)."""
        if self.templates_folder and (path + "/").startswith(self.templates_folder + "/"):
            return (f"Obsidian's templates folder {self.templates_folder + '/'!r} "
                    f"({FOLDER}/templates.json)")
        for text in self.ignore_filters:
            if _matches(text, path):
                return f"Obsidian's excluded files ({text!r} in {FOLDER}/app.json)"
        return None


def read_settings(docs_dir: Path, display_prefix: str = "") -> ObsidianSettings:
    """The settings of the vault at ``docs_dir`` (defaults when it has none).

    ``display_prefix`` is docs_dir as diagnostics name it (``docs/``).
    """
    folder = docs_dir / FOLDER
    if not folder.is_dir():
        return ObsidianSettings()
    found: list[diag.Diagnostic] = []
    shown = f"{display_prefix}{FOLDER}/"
    app = _read_json(folder / "app.json", shown, found)
    templates = _read_json(folder / "templates.json", shown, found)
    strict = app.get("strictLineBreaks")
    if strict is not None and not isinstance(strict, bool):
        found.append(_bad(shown, "app.json", "strictLineBreaks should be true or false"))
        strict = None
    filters = app.get("userIgnoreFilters", [])
    if not isinstance(filters, list) or not all(isinstance(f, str) for f in filters):
        found.append(_bad(shown, "app.json", "userIgnoreFilters should be a list of strings"))
        filters = []
    good_filters = []
    for text in filters:
        if _is_regex(text):
            try:
                re.compile(text[1:-1])
            except re.error as exc:
                found.append(_bad(shown, "app.json",
                                  f"the excluded-files filter {text!r} is not a valid regular "
                                  f"expression ({exc}); it is ignored"))
                continue
        if text.strip("/").strip():
            good_filters.append(text)
    folder_name = templates.get("folder")
    if folder_name is not None and not isinstance(folder_name, str):
        found.append(_bad(shown, "templates.json", "folder should be a string"))
        folder_name = None
    folder_name = folder_name.strip().strip("/") if folder_name else None
    return ObsidianSettings(True, strict, tuple(good_filters), folder_name or None, tuple(found))


def _is_regex(text: str) -> bool:
    return len(text) > 2 and text.startswith("/") and text.endswith("/")


def _matches(text: str, path: str) -> bool:
    if _is_regex(text):
        # JavaScript's RegExp.test: a search anywhere in the path, like Obsidian
        return re.search(text[1:-1], path) is not None
    # a plain entry is a prefix of the vault path: "Archive" also hides "Archive 2/"
    # in Obsidian, so no slash is added
    return path.startswith(text.lstrip("/"))


def _read_json(file: Path, shown: str, found: list[diag.Diagnostic]) -> dict[str, Any]:
    try:
        if file.exists() and not file.is_file():  # a pipe would wait forever for a writer
            found.append(_bad(shown, file.name, "is not a regular file"))
            return {}
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        found.append(_bad(shown, file.name, f"cannot be read ({exc})"))
        return {}
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        found.append(diag.make("obsidian-settings", shown + file.name,
                               exc.lineno, exc.colno,
                               f"not valid JSON ({exc.msg}); its settings are ignored: "
                               "fix it in Obsidian or delete it"))
        return {}
    if not isinstance(data, dict):
        found.append(_bad(shown, file.name, "is not a JSON object; its settings are ignored"))
        return {}
    return data


def _bad(shown: str, name: str, message: str) -> diag.Diagnostic:
    return diag.make("obsidian-settings", shown + name, 1, 1,
                     f"{message} (Obsidian setting; the site uses its default)")

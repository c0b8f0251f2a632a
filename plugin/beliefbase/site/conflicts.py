"""The user's file wins over a page or file the plugin makes (issue 32).

Each generated page already steps aside for a file of the site at its source
path (``wanted.md``, ``graph.md``...).  What slips past those checks is caught
here, once, after every generated file is added: a generated page at the URL of
a note with another source path (``wanted/index.md`` against ``wanted.md``), a
generated asset over a user's file of the same path (``docs/_beliefbase/...``),
and a user's file in the folder of the plugin's data (``_beliefbase/``), which
the plugin's files written at the end of the build must not replace
(``restore_user_files``).  Each is a ``page-conflict`` warning naming the
user's file, ``docs/...`` like every other diagnostic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from .. import diagnostics as diag

#: the folder of the plugin's data files (graph.json, the scripts, redirects.json...)
DATA_DIR = "_beliefbase"


def keep_user_files(files: Files, users: Mapping[str, File], display: Any,
                    reserved: Iterable[tuple[str, str, str]] = ()) -> tuple[
                        list[diag.Diagnostic], list[File]]:
    """Drop every generated file that would replace or shadow one of ``users`` (the
    site's files before the plugin added its own), put the user's back, and say so.

    ``reserved``: (source path, what, option) of the pages the plugin makes that
    stepped aside already for a user's file at that path, to be reported here.
    ``display``: a path of the docs folder as diagnostics show it.  Returns the
    diagnostics and the user's files in the data folder (``restore_user_files``).
    """
    # still in the site, or replaced by a generated file of the same path (not dropped
    # as a draft, a sidecar...)
    users = {src: f for src, f in users.items() if files.get_file_from_path(src) is not None}
    found: list[diag.Diagnostic] = []
    for src, what, option in reserved:
        if src in users:
            found.append(_conflict(display(src), f"{src} is where the plugin puts its {what}; "
                                   f"the note keeps it and the site has no {what}: rename the "
                                   f"note or set the plugin's {option} option"))
    by_dest = {f.dest_uri: f for f in users.values()}
    by_url = {f.url: f for f in users.values() if f.is_documentation_page()}
    for file in list(files):
        if users.get(file.src_uri) is file:
            continue
        mine = users.get(file.src_uri) or by_dest.get(file.dest_uri) or (
            by_url.get(file.url) if file.is_documentation_page() else None)
        if mine is None:
            continue
        files.remove(file)
        if files.get_file_from_path(mine.src_uri) is None:
            files.append(mine)
        kind = f"the page {file.url}" if file.is_documentation_page() else file.dest_uri
        found.append(_conflict(display(mine.src_uri),
                               f"{mine.src_uri} takes the place of {kind}, which the plugin "
                               "makes: the file keeps it and the plugin's is not made; rename "
                               "the file (or the plugin's page, by its option)"))
    data = [f for f in users.values()
            if f.src_uri.startswith(DATA_DIR + "/") and files.get_file_from_path(f.src_uri) is f]
    reported = {d.file for d in found}
    for file in data:
        if display(file.src_uri) not in reported:
            found.append(_conflict(display(file.src_uri),
                                   f"{file.src_uri} is in {DATA_DIR}/, the folder of the "
                                   "plugin's data: it is published as it is and no file of "
                                   f"the plugin replaces it; rename the folder"))
    return found, [f for f in data if not f.is_documentation_page()]


def restore_user_files(kept: Iterable[File]) -> None:
    """Copy the user's files of the data folder over whatever the plugin wrote there
    (``on_post_build`` writes its data after MkDocs copied them)."""
    for file in kept:
        target = Path(file.abs_dest_path)
        source = file.abs_src_path
        if source is None:
            continue
        try:
            if target.is_file() and target.read_bytes() == Path(source).read_bytes():
                continue
            file.copy_file(dirty=False)
        except OSError:
            continue  # (its own unreadable-file diagnostic, if any, says why)


def _conflict(file: str, message: str) -> diag.Diagnostic:
    return diag.make("page-conflict", file, 1, 1, message)

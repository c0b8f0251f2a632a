"""Make the theme's search index safe for our user strings.

MkDocs-Material's search treats an entry's ``title`` and ``tags`` as HTML
(headings keep their markup there) and writes them into the page with
``innerHTML``.  Page titles and tags come from our frontmatter, raw, so a
title ``<img src=x onerror=...>`` would run in the search results.  After
the search plugin has written ``search/search_index.json`` we escape exactly
the strings that came from frontmatter (page-level titles and tags), and after
a ``--dirty`` rebuild we first put the index together again (``DirtyMerge``).
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INDEX = Path("search") / "search_index.json"


def fix_search_index(
    site_dir: Path,
    strings: Mapping[str, tuple[str, tuple[str, ...]]],
    dirty: DirtyMerge | None = None,
) -> None:
    """Escape our strings in the theme's search index (and, after a dirty build,
    put it together again first); one read and one write of the file.

    ``strings`` maps a page location to the (title, tags) we gave that page.
    """
    index = read_index(site_dir)
    if index is None:
        return
    if dirty is not None and dirty.previous is not None:
        index["docs"] = _merge(index, dirty)
    escape_entries(index.get("docs", []), strings)
    _write(site_dir / INDEX, index)


def escape_entries(entries: list[Any], strings: Mapping[str, tuple[str, tuple[str, ...]]]) -> None:
    """Escape, in place, the page-level titles and tags that are ours."""
    for entry in entries:
        mine = strings.get(_page_of(entry)) if "#" not in str(entry.get("location", "")) else None
        if mine is None:
            continue
        title, tags = mine
        if entry.get("title") == title:
            entry["title"] = html.escape(title, quote=False)
        if isinstance(entry.get("tags"), list):
            entry["tags"] = [html.escape(str(t), quote=False) if t in tags else t
                             for t in entry["tags"]]


def escape_before_writing(plugins: Mapping[str, Any],
                          strings: Callable[[], Mapping[str, tuple[str, tuple[str, ...]]]]) -> (
    bool
):
    """Escape in Material's search index in memory, before the theme writes it.

    Saves reading, parsing and writing the index once more (25 MB at 5,000
    notes).  False when the site has no Material search plugin to hook into
    (the caller then fixes the written file).
    """
    for plugin in plugins.values():
        index = getattr(plugin, "search_index", None)
        generate = getattr(index, "generate_search_index", None)
        if generate is None or not isinstance(getattr(index, "entries", None), list):
            continue

        def escaped_first(*args: Any, _index: Any = index, _generate: Any = generate,
                          **kwargs: Any) -> Any:
            escape_entries(_index.entries, strings())
            return _generate(*args, **kwargs)

        index.generate_search_index = escaped_first
        return True
    return False


def read_index(site_dir: Path) -> dict[str, Any] | None:
    """The search index as the previous build left it (None when there is none)."""
    try:
        data = json.loads((site_dir / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class DirtyMerge:
    """What a ``--dirty`` rebuild needs to put the search index together again."""

    previous: dict[str, Any] | None  # the index before this build
    rebuilt: set[str]  # locations of the pages rendered in this build
    live: set[str]  # locations of every page that exists now


def _merge(current: dict[str, Any], dirty: DirtyMerge) -> list[Any]:
    """Entries of pages not rebuilt (from the previous index) + this build's pages.

    Material's dirty-reload merge assumes one page changed: it drops the first
    rebuilt page's old entries by prefix (all of them, for the home page) and
    appends the rest, so pages rebuilt as dependents end up twice and others
    vanish; deleted pages stay.
    """
    fresh: dict[str, list[Any]] = {}
    for entry in current.get("docs", []):
        page = _page_of(entry)
        if page in dirty.rebuilt:
            fresh.setdefault(page, []).append(entry)
    assert dirty.previous is not None
    docs = [e for e in dirty.previous.get("docs", [])
            if _page_of(e) not in dirty.rebuilt and (not dirty.live or _page_of(e) in dirty.live)]
    for entries in fresh.values():
        docs.extend(_last_block(entries))
    return docs


def _page_of(entry: Any) -> str:
    return str(entry.get("location", "")).split("#", 1)[0]


def _last_block(entries: list[Any]) -> list[Any]:
    """A page's newest entries: from its last page-level entry (no #anchor) on."""
    starts = [i for i, e in enumerate(entries) if "#" not in str(e.get("location", ""))]
    return entries[starts[-1]:] if starts else entries


def _write(file: Path, data: dict[str, Any]) -> None:
    tmp = file.with_name(file.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, file)

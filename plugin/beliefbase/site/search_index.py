"""Make the theme's search index safe for our user strings.

MkDocs-Material's search treats an entry's ``title`` and ``tags`` as HTML
(headings keep their markup there) and writes them into the page with
``innerHTML``.  Page titles and tags come from our frontmatter, raw, so a
title ``<img src=x onerror=...>`` would run in the search results.  After
the search plugin has written ``search/search_index.json`` we escape exactly
the strings that came from frontmatter (page-level titles and tags).
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..builder.documents import Document

INDEX = Path("search") / "search_index.json"


def escape_user_strings(site_dir: Path, by_url: Mapping[str, Document]) -> bool:
    """Rewrite the search index in place; False when there is none."""
    file = site_dir / INDEX
    try:
        index = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    changed = False
    for entry in index.get("docs", []):
        location = str(entry.get("location", ""))
        doc = by_url.get(location) or (by_url.get("./") if location == "" else None)
        if doc is None:
            continue
        if entry.get("title") == doc.title:
            entry["title"] = html.escape(doc.title, quote=False)
            changed = True
        if isinstance(entry.get("tags"), list):
            entry["tags"] = [html.escape(str(t), quote=False) if t in doc.tags else t
                             for t in entry["tags"]]
            changed = True
    if changed:
        tmp = file.with_name(file.name + ".tmp")
        tmp.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")),
                       encoding="utf-8")
        os.replace(tmp, file)
    return True


def read_index(site_dir: Path) -> dict[str, Any] | None:
    """The search index as the previous build left it (None when there is none)."""
    try:
        data = json.loads((site_dir / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def repair_after_dirty_build(
    site_dir: Path, previous: dict[str, Any] | None, rebuilt: set[str], live: set[str]
) -> None:
    """Rebuild Material's search index after a ``--dirty`` build of several pages.

    Material's dirty-reload merge assumes one page changed: it drops the first
    rebuilt page's old entries by prefix (all of them, for the home page) and
    appends the rest, so pages rebuilt as dependents end up twice and others
    vanish.  The index is put together again from the index before this build
    (pages not rebuilt) and this build's entries (pages rebuilt), keeping only
    pages that still exist.
    """
    current = read_index(site_dir)
    if current is None or previous is None:
        return
    fresh: dict[str, list[Any]] = {}
    for entry in current.get("docs", []):
        page = _page_of(entry)
        if page in rebuilt:
            fresh.setdefault(page, []).append(entry)
    docs = [e for e in previous.get("docs", [])
            if _page_of(e) not in rebuilt and (not live or _page_of(e) in live)]
    for entries in fresh.values():
        docs.extend(_last_block(entries))
    current["docs"] = docs
    _write(site_dir / INDEX, current)


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

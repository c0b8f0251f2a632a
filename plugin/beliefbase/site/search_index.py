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


def repair_after_dirty_build(site_dir: Path, rebuilt: set[str], live: set[str]) -> None:
    """Fix Material's search index after a ``--dirty`` rebuild of several pages.

    Material's dirty-reload merge assumes one page was rebuilt: it replaces the
    first rebuilt page's entries and appends everyone else's, so a page rebuilt
    as a dependent would appear twice, and a deleted page would stay.  Each
    rebuilt page keeps only its newest (last) block of entries; pages that no
    longer exist are dropped.
    """
    file = site_dir / INDEX
    try:
        index = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    docs = index.get("docs", [])
    kept_reversed: list[dict[str, object]] = []
    finished: set[str] = set()  # rebuilt pages whose newest block we have passed
    current: str | None = None
    for entry in reversed(docs):
        page = str(entry.get("location", "")).split("#", 1)[0]
        if current is not None and page != current and current in rebuilt:
            finished.add(current)
        current = page
        if page in finished or (live and page not in live):
            continue
        kept_reversed.append(entry)
    if len(kept_reversed) != len(docs):
        index["docs"] = list(reversed(kept_reversed))
        tmp = file.with_name(file.name + ".tmp")
        tmp.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")),
                       encoding="utf-8")
        os.replace(tmp, file)

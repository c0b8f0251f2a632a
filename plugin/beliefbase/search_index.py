"""Make the theme's search index safe for our user strings.

MkDocs-Material's search treats an entry's ``title`` and ``tags`` as HTML
(headings keep their markup there) and writes them into the page with
``innerHTML``.  Page titles and tags come from our frontmatter, raw, so a
title ``<img src=x onerror=...>`` would run in the search results.  We escape
exactly the strings that came from frontmatter (page-level titles and tags) in
the search plugin's entries just before it writes them, and after a ``--dirty``
rebuild first put the index together again (``merged_and_escaped_entries``): Material's own
merge assumes one changed page.  Without Material's plugin to hook into, the
same is done to the written file (``fix_search_index``).
"""

from __future__ import annotations

import codecs
import html
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .atomic import replacing, write_text
from .html_json import html_safe
from .identity_texts import TextsByIdentity

INDEX = Path("search") / "search_index.json"


def fix_search_index(
    site_dir: Path,
    strings: Mapping[str, tuple[str, tuple[str, ...]]],
    dirty: DirtyMerge | None = None,
    ascii_only: bool = False,
) -> None:
    """Escape our strings in the theme's search index (and, after a dirty build,
    put it together again first); one read and one write of the file.

    ``strings`` maps a page location to the (title, tags) we gave that page.
    ``ascii_only``: write non-ASCII characters as ``\\u`` escapes, as Material's
    search plugin does (the same bytes as when the speed-ups escape its index in
    memory).
    """
    index = read_index(site_dir)
    if index is None:
        return
    previous = dirty.previous.get("docs", []) if dirty and dirty.previous else None
    index["docs"] = merged_and_escaped_entries(previous, index.get("docs", []), dirty, strings)
    write_text(site_dir / INDEX, html_safe(json.dumps(index, ensure_ascii=ascii_only,
                                                       separators=(",", ":"))))


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


_SEPARATORS = (",", ":")


class EntryTexts:
    """Material's search index as JSON, kept from one ``mkdocs serve`` rebuild to the
    next: an edit changes a few pages' entries, and merging and serialising all
    45,000 of them again (5,000 notes) took a quarter of a second of every rebuild.

    The entries are held as *runs*: the consecutive entries of one page, a tuple
    whose JSON is made once.  A dirty rebuild keeps the runs of the pages it did
    not rebuild (the same tuples, so the same texts) and appends the rebuilt
    pages' entries: per page, not per entry.  The result equals
    ``merged_and_escaped_entries``, entry for entry.  An entry must not change
    once its text is made (``escape_entries`` runs on the entries new to a
    build only).
    """

    def __init__(self) -> None:
        self._texts = TextsByIdentity()
        self._runs: list[tuple[str, tuple[Any, ...]]] = []
        self._entries: list[Any] | None = None  # the list ``_runs`` hold, flattened

    def merged_and_escaped(
        self, previous: list[Any] | None, current: list[Any], dirty: DirtyMerge | None,
        strings: Mapping[str, tuple[str, tuple[str, ...]]],
    ) -> list[Any]:
        """``merged_and_escaped_entries``, from the last build's runs when ``previous``
        is the list this object returned last (as the theme hands it back)."""
        last = self._runs if previous is not None and previous is self._entries else None
        self._runs = _merged_runs(previous, last, current, dirty, strings)
        self._entries = [entry for _, run in self._runs for entry in run]
        return self._entries

    @property
    def last(self) -> list[Any] | None:
        """The entries this object returned last (the last build's index)."""
        return self._entries

    def index_json(self, config: Mapping[str, Any]) -> str:
        """What Material's ``generate_search_index`` returns for the entries
        ``merged_and_escaped`` gave last, byte for byte."""
        parts = [self._texts.text(run, _run_json) for _, run in self._runs]
        self._texts.end_round()
        return html_safe(_index_head(config) + ",".join(parts) + "]}")


def _index_head(config: Mapping[str, Any]) -> str:
    """The start of Material's index text, up to its first entry: ``{"config":…,"docs":[``."""
    head = {key: config[key] for key in ("lang", "separator", "pipeline", "fields")}
    return '{"config":' + json.dumps(head, separators=_SEPARATORS, default=str) + ',"docs":['


class IndexBytes:
    """Material's search index as the UTF-8 bytes its ``on_post_build`` writes: what
    our ``generate_search_index`` returns in a one-off build, for Material to call
    ``encode("utf-8")`` on, as on the text it returns itself.

    The bytes are made entry by entry (``chunks``).  ``streamed`` (set by
    ``speedups.search_escape``, which swapped ``mkdocs.utils.write_file`` for the one
    write that follows): ``encode`` returns this object and the swapped ``write_file``
    writes the chunks into the file (``write``), so that the whole index is never held
    (5,000 notes: 34 MB at the build's end).  Otherwise ``encode`` gives the bytes."""

    __slots__ = ("_config", "_entries", "streamed")

    def __init__(self, config: Mapping[str, Any], entries: list[Any]) -> None:
        self._config = config
        self._entries = entries
        self.streamed = False

    def chunks(self) -> Iterator[bytes]:
        """The index's bytes, an entry at a time.  ``json.dumps`` writes ASCII only
        (``ensure_ascii``), and ``html_safe`` escapes each character alone, so escaping
        each entry's JSON is escaping the whole."""
        yield html_safe(_index_head(self._config)).encode()
        for i, entry in enumerate(self._entries):
            yield (b"," if i else b"") + html_safe(_entry_json(entry)).encode()
        yield b"]}"

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> IndexBytes | bytearray:
        """The bytes, for ``encoding`` UTF-8 (or ASCII: the text is all ASCII); this
        object itself when ``streamed``, for the swapped ``write_file``."""
        if codecs.lookup(encoding).name not in ("utf-8", "ascii"):
            raise LookupError(f"the search index is UTF-8, not {encoding}")
        if self.streamed:
            return self
        data = bytearray()
        for chunk in self.chunks():
            data += chunk
        return data

    def write(self, path: Path) -> None:
        """The bytes written into ``path`` (its folder made if needed), a buffer at a time."""
        with replacing(path, "wb") as handle:
            handle.writelines(self.chunks())


def index_bytes(config: Mapping[str, Any], entries: list[Any]) -> IndexBytes:
    """``html_safe(json.dumps({"config": head, "docs": entries}, separators=(",", ":"),
    default=str)).encode()`` (what Material's ``generate_search_index`` returns, escaped
    and encoded), made entry by entry: no whole text, no escaped copy of it, and no
    list of the encoder's pieces of every entry at once."""
    return IndexBytes(config, entries)


def _runs(entries: list[Any]) -> list[tuple[str, tuple[Any, ...]]]:
    """``entries`` cut where the page changes: (page, its consecutive entries)."""
    runs: list[tuple[str, tuple[Any, ...]]] = []
    page, start = None, 0
    for i, entry in enumerate(entries):
        of = _page_of(entry)
        if of != page:
            if i > start:
                runs.append((page, tuple(entries[start:i])))  # type: ignore[arg-type]
            page, start = of, i
    if len(entries) > start:
        runs.append((page, tuple(entries[start:])))  # type: ignore[arg-type]
    return runs


def _run_json(run: tuple[Any, ...]) -> str:
    return ",".join(_entry_json(entry) for entry in run)


def _entry_json(entry: dict[str, Any]) -> str:
    return json.dumps(entry, separators=_SEPARATORS, default=str)


def material_search(plugins: Mapping[str, Any]) -> bool:
    """Does the site use Material's own search plugin?"""
    return any(is_material_index(getattr(p, "search_index", None)) for p in plugins.values())


def is_material_index(index: Any) -> bool:
    """Is ``index`` Material's own search index (whose methods and JSON we know)?"""
    try:
        from material.plugins.search.plugin import SearchIndex
    except ImportError:
        return False
    return type(index) is SearchIndex


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


def merged_and_escaped_entries(
    previous: list[Any] | None, current: list[Any], dirty: DirtyMerge | None,
    strings: Mapping[str, tuple[str, tuple[str, ...]]],
) -> list[Any]:
    """``current`` with our strings escaped, or after a dirty rebuild (``previous``:
    the last index's entries) merged with ``previous``.  Only entries new to this
    build are escaped: the kept ones were when they were new (escaping is not
    idempotent for a tag like ``a&amp;b``, and ``EntryTexts`` relies on kept
    entries never changing)."""
    return [entry for _, run in _merged_runs(previous, None, current, dirty, strings)
            for entry in run]


def _merged_runs(
    previous: list[Any] | None, last: list[tuple[str, tuple[Any, ...]]] | None,
    current: list[Any], dirty: DirtyMerge | None,
    strings: Mapping[str, tuple[str, tuple[str, ...]]],
) -> list[tuple[str, tuple[Any, ...]]]:
    """The merge, as runs of entries: the runs of ``previous`` (``last``, when they
    are known already) for pages not rebuilt and still there, then this build's.

    Material's own dirty-reload merge assumes one page changed: it drops the first
    rebuilt page's old entries by prefix (all of them, for the home page) and
    appends the rest, so pages rebuilt as dependents end up twice and others
    vanish; deleted pages stay.
    """
    if previous is None or dirty is None:
        escape_entries(current, strings)
        return _runs(current)
    rebuilt, live = dirty.rebuilt, dirty.live
    kept = [run for run in (last if last is not None else _runs(previous))
            if run[0] not in rebuilt and (not live or run[0] in live)]
    fresh = _fresh_entries(current, rebuilt)
    escape_entries(fresh, strings)
    return kept + _runs(fresh)


def _fresh_entries(current: list[Any], rebuilt: set[str]) -> list[Any]:
    """The entries of this build's pages, each page's newest block only."""
    fresh: dict[str, list[Any]] = {}
    for entry in current:
        page = _page_of(entry)
        if page in rebuilt:
            fresh.setdefault(page, []).append(entry)
    return [e for entries in fresh.values() for e in _last_block(entries)]


def _page_of(entry: Any) -> str:
    location = entry.get("location", "")
    return (location if isinstance(location, str) else str(location)).partition("#")[0]


def _last_block(entries: list[Any]) -> list[Any]:
    """A page's newest entries: from its last page-level entry (no #anchor) on."""
    starts = [i for i, e in enumerate(entries) if "#" not in str(e.get("location", ""))]
    return entries[starts[-1]:] if starts else entries

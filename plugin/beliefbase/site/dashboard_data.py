"""``KeptDashboardData``: the Bases and Dataview data of one build, kept for the next
under ``mkdocs serve``, and made again only where a save changed it.

A build's dashboards read every published file through the engines' records:
``VaultFile``s (``compile.vault_files``), Bases' ``FileRecord``s
(``bases.records``) and Dataview's ``PageRecord``s and index rows
(``dataview.records``, ``dataview.index``).  Made from every note on every save,
they were most of what a save with dashboards cost.  Kept here instead (in the
serve session's ``Kept``), each build's are made from the last ones:

* a ``VaultFile`` is kept when its document, links and backlinks are the same
  (the compile keeps an unchanged note's ``Document`` and resolved links, the same
  objects); an attachment when its size is;
* a Bases record, a Dataview record, its index row and outlinks are kept when the
  file's ``VaultFile`` is, and (Bases records, index rows: they hold the links
  written in values, resolved against the vault's names) when every link resolves
  as before (``VaultFiles.same_names``: the same documents, none whose title,
  aliases, ids, publication or network changed); a Dataview record also needs its
  file's times to be the same (``file.ctime``, ``file.mtime``);
* everything derived from many notes (a file's backlinks, Dataview's
  ``file.inlinks``, the pages of a tag) is derived again when a note it reads
  changed; the Dataview index is updated in place (``DataviewIndex.update``).

So a save makes again the edited notes' records and their link neighbours' (a
link added or removed changes its target's backlinks), or every record when the
names changed (a new, deleted or renamed note).  Each engine's data is kept with
the ``VaultFiles`` it was made from: a build that used only one engine leaves
the other's to be brought up to date from further back.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from .. import bases
from .. import dataview as dv
from ..compile.compiled import Compiled
from ..compile.vault_files import VaultFiles
from ..dataview.records import stat_times as dv_stat_times

log = logging.getLogger(__name__)


@dataclass
class KeptDashboardData:
    """The last build's engine data (see the module doc); one per serve session."""

    #: the plugin's options of the build that made it (``configured``)
    options: str = ""
    #: the last build's shared records, the ones the next build's keep from
    last_files: VaultFiles | None = None
    #: Bases' records, and the shared records they were made from
    records: bases.RecordSet | None = None
    records_from: VaultFiles | None = None
    #: Dataview's index (updated in place), and the shared records it was made from
    index: dv.DataviewIndex | None = None
    index_from: VaultFiles | None = None
    #: builds whose data was brought up to date rather than made anew (for tests)
    updates: int = 0
    #: bumped whenever Bases' records are all made anew (the first build, names that
    #: changed): a view's HTML kept from before may show a link's old target or URL
    names: int = 0
    #: each base view's HTML and what it was made from (``base_shown``)
    shown: dict[Hashable, _BaseShown] = field(default_factory=dict)
    #: views shown again unchanged (for tests)
    reused: int = 0
    #: as ``names``, for Dataview's index
    dataview_names: int = 0
    #: each Dataview table's or list's HTML and what it was made from
    dataview: dict[Hashable, _DataviewShown] = field(default_factory=dict)
    #: each Cypher result's columns, rows and HTML (``cypher_shown``)
    cypher: dict[Hashable, tuple[Any, Any, Markup]] = field(default_factory=dict)
    _changes: dict[int, frozenset[str]] = field(default_factory=dict)
    #: each note's file times and the stamps they were read from (``_file_times``)
    _times: dict[str, tuple[tuple[float, float], tuple[Any, Any]]] = \
        field(default_factory=dict)
    _times_dir: str = ""
    #: bases parsed, by text, file and first line (``parsed_base``)
    _bases: dict[tuple[str, str, int], bases.Base] = field(default_factory=dict)
    _used: set[Hashable] = field(default_factory=set)  # the views shown in this build

    def configured(self, options: str) -> None:
        """The build's options, as text: when they differ from the last build's, let
        everything kept go (an edited ``mkdocs.yml``)."""
        if options != self.options:
            fresh = KeptDashboardData(options=options)
            self.__dict__.update(fresh.__dict__)

    def vault_files(self, compiled: Compiled) -> VaultFiles:
        """This build's shared records, keeping every unchanged ``VaultFile``."""
        files = compiled.vault_files()
        if self.last_files is not None and self.last_files.made:
            files.previous = self.last_files
        self.last_files = files
        return files

    def bases_records(self, files: VaultFiles) -> bases.RecordSet:
        """Bases' ``RecordSet`` of ``files``: the records of the files unchanged since
        the last one kept (all made again when the names changed)."""
        before, old = self.records_from, self.records
        kept = None
        if before is not None and old is not None and before is not files \
                and files.same_names(before):
            changed = files.changed_since(before)
            kept = {p: r for p, r in old.by_path.items() if p not in changed}
        self.records = bases.records_from_files(files, kept=kept)
        self.records_from = files
        self.updates += kept is not None
        self.names += kept is None
        self._changes = {}
        return self.records

    def _file_times(self, docs_dir: str) -> Callable[[str], tuple[Any, Any]]:
        """``dataview.records.stat_times``, each file's answer kept while its stamps
        (birth or change time, modification time) are the same."""
        made = self._times
        if self._times_dir != docs_dir:
            made.clear()
            self._times_dir = docs_dir
        times = dv_stat_times(docs_dir)

        def kept_times(path: str) -> tuple[Any, Any]:
            try:
                st = os.stat(os.path.join(docs_dir, path))
            except OSError:
                return (None, None)
            stamp = (getattr(st, "st_birthtime", None) or st.st_ctime, st.st_mtime)
            found = made.get(path)
            if found is None or found[0] != stamp:
                found = made[path] = (stamp, times(path))
            return found[1]

        return kept_times

    # -- a base view's HTML, kept -------------------------------------------------------

    def base_shown(self, key: Hashable, base: bases.Base, view_name: str | None,
                   records: bases.RecordSet, this: bases.FileRecord | None,
                   now: dt.datetime) -> Markup | None:
        """The HTML the view ``key`` (its base's text, view, page, place, the views'
        fingerprint) showed last, if it shows the same now, else None.

        It does when the records are those of the last evaluation but for some
        (``changed``) that it neither let through its filters then, nor lets through
        now, nor reached through a link, with the same names (``names``), the same
        ``this`` record if it read it and the same moment if it read the clock.  Then
        its filters let the same records through (each unchanged record's answer read
        only unchanged records), so its rows, order, groups and summaries are the same,
        and so is the HTML (the same views, every linked file's URL the same: a URL
        is among the names).  The changed records are run through the filters alone
        (``evaluate(only=changed)``) to say they are let through now."""
        self._used.add(key)
        kept = self.shown.get(key)
        if kept is None or kept.names != self.names or kept.records is None:
            return None
        reads = kept.reads
        if reads.now and kept.now != now or reads.this and kept.this is not this:
            return None
        changed = self._changed(kept.records, records)
        if changed & reads.passed or changed & reads.records:
            return None
        if changed:
            probe = bases.Reads()
            result = bases.evaluate(base, view_name, records, this, now=now, reads=probe,
                                    only=changed)
            if probe.passed or result.errors or probe.now and kept.now != now:
                return None
        kept.records, kept.this = records, this
        self.reused += 1
        return kept.html

    def keep_base(self, key: Hashable, html: Markup, reads: bases.Reads,
                  records: bases.RecordSet, this: bases.FileRecord | None,
                  now: dt.datetime) -> None:
        """Keep the view ``key``'s HTML, made from ``records`` (``base_shown``)."""
        self._used.add(key)
        self.shown[key] = _BaseShown(html, reads, records, this, now, self.names)

    # -- a Dataview table's or list's HTML, kept ----------------------------------------

    def dataview_shown(self, key: Hashable, index: dv.DataviewIndex, this_path: str,
                       now: dt.datetime) -> Markup | None:
        """The HTML the query ``key`` (its text, page, place, the views' fingerprint)
        showed last, if it shows the same now, else None.

        It does when it read no page but its source's (no link followed, no
        ``file.inlinks``/``outlinks``, no link source) and its source gives the same
        pages now, each with the same row object (a row is made again when its note
        changed), with the same names (``dataview_names``: every link written in a row
        resolves as before, every URL is the same), the same ``this`` row if it read it
        and the same moment if it read the clock: its commands then see the same rows
        and make the same result, and the same views render the same HTML."""
        self._used.add(key)
        kept = self.dataview.get(key)
        if kept is None or kept.names != self.dataview_names:
            return None
        reads = kept.reads
        if reads.now and kept.now != now or \
                reads.this and index.rows.get(this_path) is not kept.this:
            return None
        pages = dv.source_pages(kept.query, index, this_path)
        rows = index.rows
        if len(pages) != len(kept.rows) or any(
                rows.get(p) is not row for p, row in zip(pages, kept.rows, strict=True)):
            return None
        self.reused += 1
        return kept.html

    def keep_dataview(self, key: Hashable, html: Markup, text: str, reads: dv.Reads,
                      index: dv.DataviewIndex, this_path: str, now: dt.datetime) -> None:
        """Keep the query ``key``'s HTML (``dataview_shown``), unless it read other
        pages than its source's."""
        self._used.add(key)
        if reads.other:
            self.dataview.pop(key, None)
            return
        rows = index.rows
        self.dataview[key] = _DataviewShown(
            html, dv.parse_query(text), reads, tuple(rows[p] for p in sorted(reads.source)),
            rows.get(this_path), now, self.dataview_names)

    # -- a Cypher result's HTML, kept -------------------------------------------------------

    def cypher_shown(self, key: Hashable, result: Any) -> Markup | None:
        """The HTML the query ``key`` (its text, view, page, place, the views'
        fingerprint) showed last, if its result is the same now (value for value, and
        type for type: ``1`` and ``1.0`` and ``True`` render differently).  The caller
        keeps none for a result holding a ``[[wikilink]]`` text (a view resolves it
        against the compile): any other value renders from the result alone."""
        self._used.add(key)
        kept = self.cypher.get(key)
        if kept is None or not same_values(kept[0], result.columns) or \
                not same_values(kept[1], result.rows):
            return None
        self.reused += 1
        return kept[2]

    def keep_cypher(self, key: Hashable, result: Any, html: Markup) -> None:
        self._used.add(key)
        self.cypher[key] = (result.columns, result.rows, html)

    def parsed_base(self, text: str, display: str, first_line: int) -> bases.Base:
        """``bases.parse_base`` of ``text``, kept while a build shows it (a parsed base
        is frozen, a function of these three)."""
        key = (text, display, first_line)
        self._used.add(key)
        found = self._bases.get(key)
        if found is None:
            found = self._bases[key] = bases.parse_base(text, display, first_line=first_line)
        return found

    def build_done(self) -> None:
        """The build's pages are done: let go of the views it did not show (each holds
        the records it was made from)."""
        self.shown = {k: v for k, v in self.shown.items() if k in self._used}
        self.dataview = {k: v for k, v in self.dataview.items() if k in self._used}
        self.cypher = {k: v for k, v in self.cypher.items() if k in self._used}
        self._bases = {k: v for k, v in self._bases.items() if k in self._used}
        self._used = set()

    def _changed(self, before: bases.RecordSet, after: bases.RecordSet) -> frozenset[str]:
        """The paths whose record in ``after`` is not ``before``'s (once a build)."""
        if before is after:
            return frozenset()
        found = self._changes.get(id(before))
        if found is None:
            old = before.by_path
            found = frozenset(p for p, r in after.by_path.items() if old.get(p) is not r)
            found |= {p for p in old if p not in after.by_path}
            self._changes[id(before)] = found
        return found

    def dataview_index(self, files: VaultFiles,
                       read_text: Callable[[str], str]) -> dv.DataviewIndex:
        """Dataview's index of ``files``: the kept one brought up to date in place
        (``DataviewIndex.update``), its records made again for the changed notes."""
        before, index = self.index_from, self.index
        self.index, self.index_from = None, None  # while it changes: a failure keeps none
        times = self._file_times(files.docs_dir)
        if before is None or index is None:
            index = dv.DataviewIndex(dv.records_from_files(files, read_text, times),
                                     files.resolve)
            self.dataview_names += 1
        elif before is not files:
            changed = files.changed_since(before)
            kept = {p: r for p, r in index.by_path.items() if p not in changed}
            records = dv.records_from_files(files, read_text, times, kept=kept)
            same = files.same_names(before)
            try:
                index.update(records, files.resolve, same)
                self.updates += 1
                self.dataview_names += not same
            except Exception:  # noqa: BLE001 - a bug here costs a new index, not the page
                log.debug("updating the Dataview index failed: made anew", exc_info=True)
                index.release()
                index = dv.DataviewIndex(records, files.resolve)
                self.dataview_names += 1
        self.index, self.index_from = index, files
        return index


def same_values(a: Any, b: Any) -> bool:
    """Are ``a`` and ``b`` the same value, type for type and in the same order (a
    mapping's keys too)?"""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return len(a) == len(b) and all(
            same_values(ka, kb) and same_values(va, vb)
            for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True))
    if isinstance(a, float):  # -0.0 == 0.0, but each shows as written
        return repr(a) == repr(b)
    return bool(a == b)


@dataclass
class _BaseShown:
    """A base view's HTML and what it was made from (``KeptDashboardData.base_shown``)."""

    html: Markup
    reads: bases.Reads
    records: bases.RecordSet | None
    this: bases.FileRecord | None
    now: dt.datetime
    names: int


@dataclass
class _DataviewShown:
    """A Dataview query's HTML and what it was made from (``dataview_shown``)."""

    html: Markup
    query: Any  # its parsed query (``dataview.nodes.Query``)
    reads: dv.Reads
    rows: tuple[Any, ...]  # the rows of its source's pages, in their order
    this: Any  # the row of the page holding it
    now: dt.datetime
    names: int


__all__ = ["KeptDashboardData"]

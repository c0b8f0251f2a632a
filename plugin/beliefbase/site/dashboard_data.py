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

import logging
from collections.abc import Callable
from dataclasses import dataclass

from .. import bases
from .. import dataview as dv
from ..compile.compiled import Compiled
from ..compile.vault_files import VaultFiles

log = logging.getLogger(__name__)


@dataclass
class KeptDashboardData:
    """The last build's engine data (see the module doc); one per serve session."""

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

    def vault_files(self, compiled: Compiled) -> VaultFiles:
        """This build's shared records, keeping every unchanged ``VaultFile``."""
        files = compiled.vault_files()
        if self.last_files is not None and self.last_files._files is not None:
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
        return self.records

    def dataview_index(self, files: VaultFiles,
                       read_text: Callable[[str], str]) -> dv.DataviewIndex:
        """Dataview's index of ``files``: the kept one brought up to date in place
        (``DataviewIndex.update``), its records made again for the changed notes."""
        before, index = self.index_from, self.index
        self.index, self.index_from = None, None  # while it changes: a failure keeps none
        if before is None or index is None:
            index = dv.index_from_files(files, read_text)
        elif before is not files:
            changed = files.changed_since(before)
            kept = {p: r for p, r in index.by_path.items() if p not in changed}
            records = dv.records_from_files(files, read_text, kept=kept)
            try:
                index.update(records, files.resolve, files.same_names(before))
                self.updates += 1
            except Exception:  # noqa: BLE001 - a bug here costs a new index, not the page
                log.debug("updating the Dataview index failed: made anew", exc_info=True)
                index.release()
                index = dv.DataviewIndex(records, files.resolve)
        self.index, self.index_from = index, files
        return index


__all__ = ["KeptDashboardData"]

"""Diagnostics: what the compiler tells the author.

A ``Diagnostic`` has a stable code, a level, a location (file relative to the
project, 1-based line and column) and a message that says what to do.  The
compiler collects them; the plugin logs them through MkDocs' plugin logger (so
``mkdocs build --strict`` fails on warnings), the CLI prints them, and
``diagnostics.json`` publishes them.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum


class Level(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


#: Every code the project emits, with its level and a one-line meaning
#: (printed by ``beliefbase check --codes`` and documented in docs/).
CODES: dict[str, tuple[Level, str]] = {
    "unresolved-link": (Level.WARNING, "a link whose target matches no note, heading or file"),
    "unresolved-anchor": (Level.WARNING, "a #heading or #^block that the target page lacks"),
    "ambiguous-link": (Level.WARNING, "several notes match a link; the nearest was chosen"),
    "bad-frontmatter": (Level.WARNING, "frontmatter that is not valid YAML or TOML, or a bid "
                        "or sha256 value that is not a UUID / SHA-256"),
    "bad-canvas": (Level.WARNING, "a .canvas file that is not valid JSON Canvas 1.0, or a "
                   "node or edge of it that is not"),  # issue 28 (codecs/canvas.py)
    "bad-encoding": (Level.WARNING, "a file that is not valid UTF-8"),
    "duplicate-id": (Level.WARNING, "two notes share an id, a bid or a block id (an id that "
                     "no link uses: info)"),
    "cycle": (Level.WARNING, "a cycle in a relation declared acyclic (e.g. depends_on)"),
    "embed-cycle": (Level.WARNING, "a transclusion that embeds itself, directly or not"),
    "embed-depth": (Level.WARNING, "transclusions nested deeper than embed_depth"),
    "embed-too-large": (Level.WARNING, "a page transcluding more than 200 notes or 20,000 "
                        "lines in all"),
    "nesting-depth": (Level.WARNING, "lists, quotes or emphasis nested too deeply to render "
                      "as such"),
    "path-escape": (Level.WARNING, "a path or symlink that leaves docs_dir (or the project)"),
    "math-error": (Level.WARNING, "a formula (`$…$`, `$$…$$`) that cannot be converted to MathML"),
    "link-to-unpublished": (Level.INFO, "a link to a draft / publish: false note, or to a "
                            "file the site leaves out (exclude_docs, Obsidian's excluded "
                            "files or templates folder)"),
    "too-many-tags": (Level.INFO, "a note with more different tags than a note may have (100)"),
    "too-many-fields": (Level.INFO, "a note with more different inline-field keys than "
                        "become graph properties (200)"),
    "too-many-entities": (Level.INFO,
                          "a note tagging more different entities than a note may (100)"),
    "excalidraw-embed": (Level.INFO, "an Excalidraw drawing with no exported SVG/PNG next to it"),
    "obsidian-settings": (Level.INFO, "a .obsidian/*.json setting that cannot be read"),
    "source-ref-drift": (Level.WARNING, "a source file changed since its hash was recorded"),
    "page-conflict": (Level.WARNING, "two sources want the same page URL"),
    "invariant": (Level.ERROR, "a graph invariant does not hold (a bug: please report)"),
    "schema-violation": (Level.WARNING, "a node that breaks its NodeType"),
    "bad-sidecar": (Level.WARNING, "a *.beliefs.json sidecar that is not valid"),
    "belief-coverage": (Level.WARNING, "footnotes without beliefs, or beliefs citing no footnote"),
    "belief-provenance": (Level.WARNING, "a belief citing provenance that does not exist"),
    "belief-supersession": (Level.WARNING, "a supersession that is missing, cyclic or unjustified"),
    "quote-drift": (Level.WARNING, "a quoted source no longer contains the quote"),
    "query-error": (Level.WARNING, "a query that fails"),
    # issue 27: Obsidian Bases and Dataview (site/dashboards.py)
    "base-error": (Level.WARNING, "an Obsidian base (a .base file or a base block) that "
                   "cannot be read or evaluated: bad YAML, an unknown function or property, "
                   "a formula cycle, a type error"),
    "base-view-fallback": (Level.INFO, "a base view of a type the site does not draw (map, "
                           "a plugin's view): shown as a table"),
    "dataview-error": (Level.WARNING, "a Dataview query or an inline query (`` `= expr` ``) "
                       "that fails: a syntax error, an unknown function, a type error"),
    "dataview-js-not-run": (Level.INFO, "DataviewJS (a dataviewjs block or an inline "
                            "`` `$= …` ``): JavaScript is never run; it is shown as code"),
    "query-property-type": (Level.INFO, "a frontmatter field with values of different types "
                            "in notes of one label; queries see it as text"),
    "query-property-renamed": (Level.INFO, "a frontmatter field named like a built-in "
                               "property (kind, path, url, label...); queries see it as "
                               "field_NAME"),
    "entity-type-conflict": (Level.WARNING, "an entity tagged with different types"),
    "bad-date": (Level.INFO, "a frontmatter created/modified/date/updated that is not a date"),
    "render-error": (Level.WARNING, "a page that could not be read, converted or rendered; "
                     "it shows its source"),
    "unreadable-file": (Level.WARNING, "a file not read: not a regular file (a pipe, a "
                        "device), inside a symlink loop, or named with bytes that are not UTF-8"),
    "bad-template": (Level.WARNING, "a frontmatter template: naming no file of the theme; "
                     "the default is used"),
}


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One message for the author, anchored at ``file:line:column``."""

    file: str
    line: int
    column: int
    code: str
    message: str
    level: Level = Level.WARNING

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.code}: {self.message}"

    def as_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "level": self.level.value,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }


def make(code: str, file: str, line: int, column: int, message: str,
         level: Level | None = None) -> Diagnostic:
    """A diagnostic with the level registered for ``code`` (``level``: a lower one, for
    the cases the code's table entry names, e.g. an ``id`` no link uses)."""
    return Diagnostic(file, max(line, 1), max(column, 1), code, message,
                      CODES[code][0] if level is None else level)


def summary(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Counts per code, sorted by code."""
    counts = Counter(d.code for d in diagnostics)
    return dict(sorted(counts.items()))


def capped(found: Iterable[Diagnostic], per_file: int) -> list[tuple[Diagnostic, int]]:
    """``found`` with at most ``per_file`` diagnostics of each code in each file, in
    their order; the last one kept of a cut group carries how many were left out."""
    kept: list[tuple[Diagnostic, int]] = []
    last: dict[tuple[str, str], int] = {}  # (file, code) -> index of its last kept one
    counts: Counter[tuple[str, str]] = Counter()
    for d in found:
        key = (d.file, d.code)
        counts[key] += 1
        if counts[key] <= per_file:
            last[key] = len(kept)
            kept.append((d, 0))
        else:
            index = last[key]
            kept[index] = (kept[index][0], counts[key] - per_file)
    return kept


def sort_key(d: Diagnostic) -> tuple[str, int, int, str, str]:
    return (d.file, d.line, d.column, d.code, d.message)


def did_you_mean(word: str, candidates: Sequence[str], n: int = 3) -> str:
    """`` (did you mean 'A' or 'B'?)`` for the closest candidates, or ``""``."""
    if not word or not candidates:
        return ""
    lowered: dict[str, str] = {}
    for cand in candidates:
        lowered.setdefault(cand.casefold(), cand)
    close = difflib.get_close_matches(word.casefold(), list(lowered), n=n, cutoff=0.6)
    if not close:
        return ""
    names = [repr(lowered[c]) for c in close]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f" (did you mean {joined}?)"

"""Dates on the page, recent notes and the Atom feed (SPEC §9, issue 21).

``SiteBuild`` owns one ``RecentSite`` per build (after the compile, with the
notes' dates from ``dates.note_dates``) and asks it for:

* the line under a note's title, "Created 3 March 2026 · Updated 5 May 2026 ·
  4 min read" (``theme/note-meta.html``; option ``dates``, ``reading_time``);
* the "Recent notes" page (option ``recent_page``, ``recent/``;
  ``theme/recent.html``): the ``RECENT_PAGE_SIZE`` most recently modified
  notes, each linked, dated and with its first sentence (the hover preview's
  excerpt);
* the home page's short list of the ``recent_notes`` latest (0: none), added
  after the page's text like the panels (not searchable text);
* ``feed.xml`` at the site root (option ``feed``; ``theme/feed.xml``), the
  ``FEED_SIZE`` latest as Atom, and the ``<link rel="alternate">`` every page's
  head gets (``head_link``).

Reading time: the words of the note's body, as whitespace separates them (its
frontmatter and ``%%comments%%`` left out; code and Markdown syntax counted, as
Quartz's reading-time counts them; each CJK character counts as a word too), at
``WORDS_PER_MINUTE``, rounded up, at least one minute.

Drafts have no dates, are in no list and no feed (only published notes are
dated).  When ``mkdocs-git-revision-date-localized-plugin`` is enabled it shows
the dates itself: our line under the title then gives only the reading time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from ... import diagnostics as diag
from ...builder.documents import Document
from ...codecs.snippet import (
    excerpt_marked,
    first_paragraph,
    first_sentence,
    parts_text,
    snippet_parts,
)
from ...compile.compiled import Compiled
from ...graph.graphml import xml_text
from ...ids import SrcPath, root_url
from ..escape import UserText
from ..feature import Change, FeatureContext, Shown, SiteFeature
from ..output import write_text
from ..panels import _titles
from ..templates import Templates
from .dates import DatesCache, NoteDates, note_dates, sort_key
from .generated import GeneratedPages

#: Reading speed, words a minute (the common figure for prose on a screen).
WORDS_PER_MINUTE = 200
#: Notes listed on the "Recent notes" page and in the feed.
RECENT_PAGE_SIZE = 50
FEED_SIZE = 20
FEED_XML = "feed.xml"

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
# CJK characters: those scripts write no spaces, and each character reads like a short word.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# The end of a paragraph's first sentence: . ! ? (or their CJK forms) and a space or the end.


@dataclass(frozen=True)
class RecentOptions:
    dates: bool  # the plugin option ``dates``
    reading_time: bool  # ``reading_time``
    recent_page: str  # ``recent_page``: "recent/"
    recent_notes: int  # ``recent_notes``: how many on the home page, 0 = none
    feed: bool  # ``feed``
    site_url: str  # mkdocs.yml ``site_url`` ("" when unset)
    site_name: str
    dates_elsewhere: bool = False  # git-revision-date-localized shows the dates


def reading_minutes(body: str) -> int:
    """Minutes to read ``body`` at ``WORDS_PER_MINUTE``, rounded up (at least 1)."""
    # whitespace-separated words (str.split, in C: a regex over every letter was many
    # times slower), plus one per CJK character
    words = len(body.split()) + (0 if body.isascii() else len(_CJK.findall(body)))
    return max(1, -(-words // WORDS_PER_MINUTE))


def display_date(when: date | datetime) -> dict[str, str]:
    """``{"iso": "2026-03-03", "text": "3 March 2026"}`` for a ``<time>`` element."""
    day = when.date() if isinstance(when, datetime) else when
    return {"iso": when.isoformat(), "text": f"{day.day} {_MONTHS[day.month - 1]} {day.year}"}



def dates_plugin_enabled(plugins: Any) -> bool:
    """Is ``mkdocs-git-revision-date-localized-plugin`` enabled (it shows the dates)?"""
    return any(type(p).__module__.startswith("mkdocs_git_revision_date_localized_plugin")
               and getattr(p, "config", {}).get("enabled", True)
               for p in plugins.values())


class RecentSite(SiteFeature):
    """The dates, reading times, recent lists and feed of one build."""

    name = "recent"
    row_rank = 10  # the dates right under the title
    panel_rank = 10  # the home page's list first, like the end of its text

    @classmethod
    def make(cls, ctx: FeatureContext) -> RecentSite:
        """Date every published note (one ``git log``)."""
        o = ctx.options
        options = RecentOptions(o.dates, o.reading_time, o.recent_page, o.recent_notes, o.feed,
                                ctx.config.site_url or "", ctx.config.site_name,
                                dates_plugin_enabled(ctx.config.plugins))
        dates, found = note_dates(ctx.compiled, ctx.kept.get(DatesCache))
        return cls(ctx.compiled, ctx.templates, ctx.read_text, dates, options, found)

    def __init__(self, compiled: Compiled, templates: Templates,
                 read_text: Callable[[SrcPath], str], dates: dict[SrcPath, NoteDates],
                 options: RecentOptions, dating: list[diag.Diagnostic] | None = None) -> None:
        self._dating = dating or []  # what dating the notes found wrong
        self.compiled = compiled
        self.templates = templates
        self.read_text = read_text
        self.dates = dates
        self.options = options
        self.src = SrcPath(options.recent_page.rstrip("/") + ".md")
        self.generated = False
        self._summaries: dict[SrcPath, str] = {}
        # newest first; a tie (same day) by title, so two builds list the same
        self.recent = sorted(
            (doc for path, doc in compiled.published.items()
             if doc.url is not None and path in dates),
            key=lambda d: (-sort_key(dates[d.path].latest), d.title.casefold(), d.path))

    # -- files -------------------------------------------------------------------------

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        """The "Recent notes" page, unless a page of the site has its URL."""
        file, added = GeneratedPages(files, config).add(self.src)
        if not added:
            taken = files.get_file_from_path(self.src) or next(
                (f for f in files if f.url == file.url), file)  # the note there: named
            return [*self._dating, diag.make(
                "page-conflict", self.compiled.options.display(taken.src_uri), 1, 1,
                f"{taken.src_uri} has the URL of the recent notes page "
                f"({self.options.recent_page}); the note keeps it: rename it or "
                "set the plugin's recent_page option")]
        self.generated = True
        return list(self._dating)

    def owns(self, src: str) -> bool:
        return self.generated and src == self.src

    def meta(self, src: str) -> dict[str, Any]:
        """``page.meta`` of the recent page (its titles are the notes', searched there)."""
        if not self.owns(src):
            return {}
        return {"title": UserText("Recent notes"), "search": {"exclude": True}}

    def content(self, src: str, page_url: str) -> str | None:
        return self.page_html(page_url) if self.owns(src) else None

    def panel(self, doc: Document, page_url: str) -> str:
        return self.home_html(page_url) if self.is_home(doc) else ""

    def head(self, page_url: str) -> str:
        return self.head_link(page_url)

    def shown(self, change: Change) -> Shown:
        """What the home note's list shows: its page is rendered again when it changed."""
        signature = repr(self.home_signature())
        return Shown(notes={d.path: signature for d in self.compiled.published.values()
                            if self.is_home(d)})

    # -- pages -------------------------------------------------------------------------

    def listed_date(self, doc: Document) -> dict[str, str] | None:
        """A note's date in lists (last updated, else created), for ``<time>``."""
        dates = self.dates.get(doc.path)
        latest = dates.latest if dates is not None and self.options.dates else None
        return display_date(latest) if latest is not None else None

    def title_row(self, doc: Document, page_url: str) -> str:
        """The dates and reading time under its title."""
        dates = self.dates.get(doc.path)
        created = modified = None
        if dates is not None and self.options.dates and not self.options.dates_elsewhere:
            created = display_date(dates.created) if dates.created else None
            modified = display_date(dates.modified) if dates.modified else None
        if created and modified and created["text"] == modified["text"]:
            modified = None  # created and updated the same day: said once
        minutes = None
        if self.options.reading_time and doc.kind == "markdown":
            minutes = reading_minutes(self.read_text(doc.path)[doc.parsed.body_offset:])
        if not (created or modified or minutes):
            return ""
        return self.templates.render("note-meta.html", created=created, modified=modified,
                                     minutes=minutes)

    def page_html(self, page_url: str) -> str:
        """The "Recent notes" page."""
        return self.templates.render("recent.html", notes=self._listed(RECENT_PAGE_SIZE, page_url),
                                     heading=None, more_href=None)

    def is_home(self, doc: Document) -> bool:
        return doc.url == root_url(self.compiled.options.use_directory_urls)

    def home_html(self, page_url: str) -> str:
        """The home page's "Recent notes" list ("" when ``recent_notes`` is 0)."""
        count = self.options.recent_notes
        if count <= 0:
            return ""
        more = get_relative_url(self.options.recent_page, page_url) if self.generated else None
        notes = self._listed(count, page_url, home=True)
        return self.templates.render("recent.html", notes=notes, heading="Recent notes",
                                     more_href=more)

    def home_signature(self) -> tuple[Any, ...]:
        """What the home page's list shows: a ``--dirty`` rebuild re-renders the home
        page when it changed."""
        count = max(self.options.recent_notes, 0)
        return tuple((d.path, d.title, self.dates[d.path].latest, d.parsed.digest)
                     for d in self.recent[:count + 1])

    def _listed(self, count: int, page_url: str, home: bool = False) -> list[dict[str, Any]]:
        base = get_relative_url("index.html", page_url).removesuffix("index.html")
        notes: list[dict[str, Any]] = []
        for doc in self.recent[:count + 1]:  # the home page is not in its own list
            if len(notes) == count or (home and self.is_home(doc)):
                continue
            url = doc.url or ""
            latest = self.dates[doc.path].latest
            notes.append({"title": UserText(doc.title),
                          "href": base + url if url != "./" else base or "./",
                          "date": display_date(latest) if latest is not None else None,
                          "summary": snippet_parts(first_sentence(self._summary(doc)))})
        return notes

    def _summary(self, doc: Document) -> str:
        """The hover preview's excerpt of ``doc``: its first paragraph as the page shows
        it (marked text: ``codecs/snippet.py``)."""
        found = self._summaries.get(doc.path)
        if found is None:
            paragraph = (first_paragraph(self.read_text(doc.path)[doc.parsed.body_offset:])
                         if doc.kind == "markdown" else "")
            found = excerpt_marked(paragraph, _titles(self.compiled, doc)) if paragraph else ""
            self._summaries[doc.path] = found
        return found

    # -- the feed ----------------------------------------------------------------------

    def head_link(self, page_url: str) -> str:
        """The ``<link rel="alternate">`` to the feed for ``page_url``'s head ("" if none).

        Relative to the page even with ``site_url``: Material's script reads every
        ``link[rel=alternate]`` as a language version and fetches ``sitemap.xml``
        from its host, so an absolute address made every page load ask another host
        when the site is previewed locally or served from a mirror (an error
        offline).  The feed itself keeps absolute addresses."""
        if not self.options.feed:
            return ""
        href = get_relative_url(FEED_XML, page_url)
        return self.templates.render_same("feed-link.html", href=href,
                                          title=UserText(self.options.site_name or "Feed"))

    def write_compile_outputs(self, site_dir: Path) -> None:
        if self.options.feed:
            write_text(site_dir / FEED_XML, self.feed_xml())

    def feed_xml(self) -> str:
        """``feed.xml``: the ``FEED_SIZE`` latest notes as Atom.

        With ``site_url`` every link and id is absolute.  Without it, links are
        relative to the feed (which Atom resolves against the feed's own URL) and
        ids are ``tag:`` URIs made of the site's name and the note's path, stable
        from one build to the next."""
        site = self._site_url()
        entries = []
        for doc in self.recent[:FEED_SIZE]:
            dates = self.dates[doc.path]
            url = "" if doc.url == "./" else quote(doc.url or "", safe="/#%")
            href = urljoin(site, url) if site else (url or "./")
            entries.append({
                "title": xml_text(doc.title),
                "id": href if site else self._tag_uri(doc.path),
                "href": href,
                "updated": _atom_time(dates.latest),
                "published": _atom_time(dates.created) if dates.created else None,
                "summary": xml_text(parts_text(self._summary(doc))),
            })
        newest = entries[0]["updated"] if entries else _atom_time(None)
        return self.templates.render(
            "feed.xml", title=xml_text(self.options.site_name or "Notes"),
            id=site or self._tag_uri(""), updated=newest,
            self_href=urljoin(site, FEED_XML) if site else FEED_XML,
            site_href=site or "./", entries=entries) + "\n"

    def _site_url(self) -> str:
        url = self.options.site_url
        return url if not url or url.endswith("/") else url + "/"

    def _tag_uri(self, path: str) -> str:
        # RFC 4151: tag:<authority>,<date>:<specific>; the authority is the site's
        # name made a domain-like word, the date fixed so an id never changes
        name = re.sub(r"[^a-z0-9.-]+", "-", (self.options.site_name or "site").lower())
        return f"tag:{name.strip('-') or 'site'},2026:{quote(path, safe='/')}"


def _atom_time(when: date | datetime | None) -> str:
    """An RFC 3339 date-time (Atom wants a time and a zone: a day is its midnight UTC)."""
    if when is None:
        return "1970-01-01T00:00:00Z"
    if not isinstance(when, datetime):
        when = datetime(when.year, when.month, when.day, tzinfo=UTC)
    elif when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


__all__ = ["FEED_XML", "RecentOptions", "RecentSite", "dates_plugin_enabled", "display_date",
           "first_sentence", "reading_minutes"]

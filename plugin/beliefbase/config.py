"""The plugin's options (SPEC §2), declared and validated MkDocs-style.

Every option is optional.  Paths are resolved against the folder of
mkdocs.yml (``raw_dir``, ``cache_dir``) or docs_dir (``views_dir``).
"""

from __future__ import annotations

import re

from mkdocs.config import base
from mkdocs.config import config_options as c

_URL_SEGMENT = re.compile(r"^[A-Za-z0-9._~\-]+(?:/[A-Za-z0-9._~\-]+)*/?$")


class PageUrl(c.Type[str]):
    """A site-relative URL folder such as ``graph/`` (no scheme, no ``..``)."""

    def __init__(self, default: str) -> None:
        super().__init__(str, default=default)

    def run_validation(self, value: object) -> str:
        text = super().run_validation(value)
        text = text.strip().strip("/")
        if not text or not _URL_SEGMENT.match(text) or ".." in text.split("/"):
            raise base.ValidationError(
                f"expected a site-relative folder such as 'graph/', got {value!r}"
            )
        return text + "/"


#: the speed-ups the ``speedups`` option turns off one by one (``{name: false}``);
#: what each does and saves: docs/develop/speed.md
SPEEDUPS = ("reuse_markdown", "markdown_offload", "search_offload", "search_flat",
            "search_in_memory", "nav_cache", "theme_cache", "template_lookups",
            "panels_ahead", "link_memo", "dirty_stats", "plain_serve", "page_writer",
            "inline_literals")
#: the options that once switched one speed-up each (still accepted, see ``speedups``)
LEGACY_SPEEDUP_OPTIONS = ("reuse_markdown", "markdown_offload", "nav_cache", "theme_cache",
                          "search_offload", "panels_ahead")


class SpeedupsOption(base.BaseConfigOption[bool | dict[str, bool]]):
    """``true``, ``false``, or a mapping of speed-up names to ``true``/``false`` (a name
    left out is on).  An unknown name is a warning (and ignored): a typo must not
    fail a build that --strict does not."""

    def __init__(self) -> None:
        super().__init__()
        self.default = True

    def run_validation(self, value: object) -> bool | dict[str, bool]:
        if isinstance(value, bool):
            return value
        if not isinstance(value, dict):
            raise base.ValidationError(
                f"expected true, false or a mapping such as {{nav_cache: false}}, got {value!r}")
        chosen: dict[str, bool] = {}
        for name, on in value.items():
            if name not in SPEEDUPS:
                self.warnings.append(f"unknown speed-up {name!r} ignored (known: "
                                     f"{', '.join(SPEEDUPS)})")
            elif not isinstance(on, bool):
                raise base.ValidationError(f"{name}: expected true or false, got {on!r}")
            else:
                chosen[name] = on
        return chosen


def speedups_off(config: BeliefbaseConfig) -> frozenset[str]:
    """The speed-ups the options turn off: all with ``speedups: false``; else those the
    mapping sets false, and those an old per-mechanism option sets false."""
    choice = config.speedups
    if choice is False:
        return frozenset(SPEEDUPS)
    off = {name for name, on in choice.items() if not on} if isinstance(choice, dict) else set()
    off.update(name for name in LEGACY_SPEEDUP_OPTIONS if getattr(config, name, None) is False)
    return frozenset(off)


def legacy_speedups_line(config: BeliefbaseConfig) -> str | None:
    """The one info line for old per-mechanism options in mkdocs.yml: what to write."""
    used = [name for name in LEGACY_SPEEDUP_OPTIONS if getattr(config, name, None) is not None]
    if not used:
        return None
    off = [name for name in used if getattr(config, name, None) is False]
    choice = config.speedups
    if isinstance(choice, dict):
        off += [name for name, on in choice.items() if not on and name not in off]
    instead = ("speedups: {" + ", ".join(f"{name}: false" for name in off) + "}"
               if off and choice is not False else None)
    what = f"write '{instead}' instead" if instead else \
        ("remove them" if len(used) > 1 else "remove it")
    named = (f"options {', '.join(used)} are now part of 'speedups' (they still work)"
             if len(used) > 1 else
             f"option {used[0]} is now part of 'speedups' (it still works)")
    return f"{named}: {what}"


class BeliefbaseConfig(base.Config):
    raw_dir = c.Type(str, default="raw")
    """Raw sources that beliefs cite, relative to mkdocs.yml; never published
    unless they lie inside docs_dir."""

    views_dir = c.Type(str, default="_views")
    """User Jinja view templates, relative to docs_dir; not published as pages."""

    cache_dir = c.Type(str, default=".beliefbase")
    """Persistent compile cache and SQLite indexes, relative to mkdocs.yml.
    Safe to delete: output never depends on it."""

    graph_page = PageUrl("graph/")
    """URL of the graph viewer."""

    beliefs_page = PageUrl("beliefs/")
    """URL root of belief pages."""

    recent_days = c.Type(int, default=30)
    """The belief index's "changed recently" list shows supersessions of this many
    days before the build date."""

    entities_page = PageUrl("entities/")
    """URL root of entity pages."""

    wanted_page = PageUrl("wanted/")
    """URL of the "Wanted notes" page (every unresolved link target)."""

    tags_page = PageUrl("tags/")
    """URL of the tag index; each tag gets a page under it (``tags/project/``, nested
    tags ``tags/project/alpha/``) listing the notes that carry it, and every
    ``#tag`` in a note links there."""

    explorer = c.Type(bool, default=False)
    """Replace Material's navigation (the whole site tree in every page, so builds
    grow with pages x pages) by an explorer loaded once per visit: recommended
    for knowledge bases of more than a few hundred notes."""

    all_notes_page = PageUrl("notes/")
    """URL of the "All notes" page (the explorer tree as HTML), with ``explorer``."""

    # The six options that once switched one speed-up each, before ``speedups`` took
    # them in (``speedups: {nav_cache: false}``).  Still declared, so that an old
    # mkdocs.yml builds (MkDocs refuses unknown plugin options under --strict); a
    # build that sets one logs one info line saying what to write instead.
    nav_cache = c.Optional(c.Type(bool))
    theme_cache = c.Optional(c.Type(bool))
    reuse_markdown = c.Optional(c.Type(bool))
    search_offload = c.Optional(c.Type(bool))
    markdown_offload = c.Optional(c.Type(bool))
    panels_ahead = c.Optional(c.Type(bool))

    watcher = c.Choice(("native", "polling"), default="native")
    """How ``mkdocs serve`` notices saved files: ``native`` (the operating system
    reports changes at once) or ``polling`` (MkDocs' own: every file stat-ed twice a
    second; needed on network drives and some container mounts)."""

    backlinks = c.Type(bool, default=True)
    """A "Linked from" panel on every page."""

    local_graph = c.Type(bool, default=True)
    """A small neighbourhood graph on every page."""

    raw_toggle = c.Type(bool, default=True)
    """A "show source" toggle on every page."""

    auto_entities = c.Type(bool, default=True)
    """Highlight known entities mentioned without tags."""

    embed_depth = c.Type(int, default=5)
    """Maximum transclusion depth."""

    strict = c.Optional(c.Type(bool))
    """Diagnostics of level warning fail the build.  Unset: follows
    ``mkdocs build --strict``.  ``false``: warnings are printed but never fail."""

    markdown_defaults = c.Type(bool, default=True)
    """Add the Markdown extensions a vault needs to render as Obsidian's reading view
    shows it (footnotes, ``==mark==``, ``~~strike~~``, task lists with Obsidian's
    custom statuses, fenced code with Pygments highlighting, Mermaid fences shown as
    source, admonitions, lists right after a paragraph line), each one only when
    mkdocs.yml does not configure it or an alternative already
    (``markdown_policy.py``).  Off: only what mkdocs.yml lists."""

    line_breaks = c.Choice(("auto", "breaks", "strict"), default="auto")
    """What a single newline inside a paragraph is.  ``breaks``: a line break, as in
    Obsidian by default (Python-Markdown's ``nl2br``); ``strict``: a space, as in
    MkDocs and CommonMark.  ``auto``: the vault's Obsidian setting ("Strict line
    breaks" in ``.obsidian/app.json``, off unless set) when docs_dir has a
    ``.obsidian`` folder and ``markdown_defaults`` is on, else ``strict``."""

    exclude = c.ListOfItems(c.Type(str), default=[])
    """More files not to publish nor compile, as gitignore-style patterns relative to
    docs_dir like MkDocs' ``exclude_docs`` (``drafts/``, ``*.excalidraw.md``).
    Besides these, nothing MkDocs excludes is compiled (``exclude_docs``, dot-files
    and dot-folders such as ``.obsidian/`` and ``.trash/``, ``/templates/``), nor
    Obsidian's "Excluded files" (``userIgnoreFilters``) and templates folder."""

    views = c.DictOfItems(c.Type(str), default={})
    """Map of schema name -> default view name (settings chain, SPEC §8)."""

    dates = c.Type(bool, default=True)
    """Under every note's title, when it was created and last updated: from its
    frontmatter (``created`` or ``date``, ``modified`` or ``updated``), else its git
    history (first and last commit), else the file's modification time."""

    reading_time = c.Type(bool, default=True)
    """Under every note's title, its reading time: the body's words at 200 a minute,
    rounded up."""

    properties = c.Type(bool, default=True)
    """Under every note's title, a collapsible "Properties" block with its frontmatter
    fields as Obsidian's reading view shows them (``site/properties.py``); a note's
    own ``properties: false`` hides its block."""

    recent_page = PageUrl("recent/")
    """URL of the "Recent notes" page: the 50 most recently modified notes, each with
    its date and first sentence."""

    recent_notes = c.Type(int, default=5)
    """How many recently modified notes the home page lists after its text (0: none)."""

    feed = c.Type(bool, default=True)
    """An Atom feed of the 20 most recently modified notes at ``feed.xml`` (the site
    root), linked from every page's head.  Absolute links need ``site_url``."""

    palette_toggle = c.Type(bool, default=True)
    """When mkdocs.yml sets no Material ``theme.palette``: a light and a dark scheme,
    the first paint following the reader's system setting, and a toggle in the
    header.  A site's own ``theme.palette`` always wins.  Off: Material's single
    light scheme."""

    breadcrumbs = c.Type(bool, default=True)
    """Above the title of every note in a folder: Home › folder › sub › Note, each
    folder linking to its folder page.  Off: no row."""

    folder_pages = c.Type(bool, default=True)
    """A page for every folder of notes at the folder's URL (``projects/``) listing
    its sub-folders and notes (title, first sentence); a folder note
    (``index.md``/``README.md``) keeps its text and gets the listing under it.
    Breadcrumbs above every note in a folder link to these pages."""

    query_timeout = c.Type((int, float), default=5)
    """Seconds one query may run (``{{query:…}}``, ```` ```query ````, Query pages,
    ``beliefbase query``); a longer one stops with ``query-error`` and the build goes on."""

    query_max_rows = c.Type(int, default=1000)
    """Rows one query may return; more is a ``query-error`` (add a ``LIMIT``)."""

    speedups = SpeedupsOption()
    """Speed-ups that reach into MkDocs', Material's, Jinja's or Python-Markdown's
    internals (one Markdown instance reused, pages converted and search sections
    parsed on a second core, Material's navigation and constant blocks rendered once,
    the search index escaped in memory; docs/develop/speed.md).  The site is the same
    either way.  Each switches itself off, with one info line, on a version of those
    libraries it was not tested with.  ``true`` (the default): all of them;
    ``false`` (or ``BELIEFBASE_SPEEDUPS=0`` in the environment): none, MkDocs' and
    the theme's own code paths, slower; a mapping turns single ones off
    (``{nav_cache: false, markdown_offload: false}``; the names: ``SPEEDUPS``)."""

    def validate(self) -> tuple[base.ConfigErrors, base.ConfigWarnings]:
        failed, warnings = super().validate()
        depth = self.get("embed_depth")
        if isinstance(depth, int) and not 0 <= depth <= 50:
            failed.append(("embed_depth", base.ValidationError(
                f"must be between 0 and 50, got {depth}")))
        recent = self.get("recent_days")
        if isinstance(recent, int) and not 0 <= recent <= 3650:
            failed.append(("recent_days", base.ValidationError(
                f"must be between 0 and 3650 days, got {recent}")))
        shown = self.get("recent_notes")
        if isinstance(shown, int) and not 0 <= shown <= 100:
            failed.append(("recent_notes", base.ValidationError(
                f"must be between 0 and 100 notes, got {shown}")))
        timeout = self.get("query_timeout")
        if isinstance(timeout, int | float) and not 0 < timeout <= 600:
            failed.append(("query_timeout", base.ValidationError(
                f"must be between 0 and 600 seconds, got {timeout}")))
        rows = self.get("query_max_rows")
        if isinstance(rows, int) and not 1 <= rows <= 1_000_000:
            failed.append(("query_max_rows", base.ValidationError(
                f"must be between 1 and 1000000 rows, got {rows}")))
        return failed, warnings

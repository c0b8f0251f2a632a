"""Parts of the theme's page that come out the same on every page, rendered once.

Material renders, for every page, parts that depend on nothing but the site's
configuration and the page's depth: the ``<script id="__config">`` block with its
translations (ten lookups, each a macro building a dictionary of a hundred strings),
the search form (seven more), the logo: a quarter of the template loop, which runs
on one core (docs/develop/speed.md). ``BlockMemo`` renders each such part once per
``base_url`` (pages at the same depth share it) and hands the same HTML to the other
pages, its links made relative to each page as ``NavMemo`` does for navigation
subtrees.

Which parts qualify is observed, not assumed.  While a part renders for the
first time, every variable it (and whatever it includes or calls) looks up
in a Jinja context is noted; a part that read anything but the build's
constants (``config``, ``features``, the translations, ``base_url``...) —
``page``, ``nav``, ``toc``, a page's own values — is rendered as usual on
every page from then on.  A part that read only constants took the same
branches, and printed the same text, as it would on any page of that depth:
what varies from page to page is only reachable through what it did not
read.  A name it looked up and did not find (a variable it sets itself
further on) must still be missing on a page that reuses it.  A placeholder
that did not come out as printed (``tojson`` escapes some characters) makes
the part one that is rendered on every page too.  The ``url`` filter,
which reads the page behind Jinja's back, prints placeholders while a part
is recorded (``NavMemo``), and only Material's own templates take part: a
user's override or a plugin's filter may read the page in ways no lookup
shows.

Candidates are the blocks of Material's ``base.html`` and the partials that
``header.html`` includes for the search form and the logo; tests build sites
with and without the memo and compare every byte.
"""

from __future__ import annotations

import sys
from collections import ChainMap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jinja2
from jinja2.runtime import Context
from jinja2.utils import missing

from .language_memo import LANGUAGE, LanguageMemo
from .nav_memo import NavMemo, PageLinks

#: What a part may look up and still be the same on every page of a depth
#: (``base_url`` is part of the memo's key; MkDocs' ``extra_css`` and
#: ``extra_javascript`` are relative to the page, so they are not here).
CONSTANTS = frozenset({
    "config", "features", "lang", "base_url", "namespace", "range", "dict",
    "mkdocs_version", "build_date_utc",
})

#: Partials memoised when included (never imported: ``TemplateModule`` bypasses); the
#: palette's toggles are in every page's header whenever ``theme.palette`` is a list
#: (the plugin's default: ``site/theme_defaults.py``).
PARTIALS = ("partials/search.html", "partials/logo.html", "partials/palette.html")

#: Blocks of the page templates worth the bookkeeping (the rest are cheap, or read
#: the page: ``scripts`` and ``libs`` through ``script_tag``, ``styles`` a
#: namespace ``base.html`` makes for each page).
BLOCKS = ("config", "analytics", "fonts")

_Render = Callable[[Context], Iterator[str]]


class _Reads:
    """The names looked up in any Jinja context while a part records."""

    def __init__(self) -> None:
        self.names: set[str] = set()  # found in the context
        self.absent: set[str] = set()  # looked up but not there (a local set later)
        self.depth = 0
        self._resolve: Any = None
        self._getitem: Any = None

    def __enter__(self) -> _Reads:
        if self.depth == 0:
            names: set[str] = set()
            absent: set[str] = set()
            self.names, self.absent = names, absent
            resolve, getitem = Context.resolve_or_missing, Context.__getitem__
            self._resolve, self._getitem = resolve, getitem

            def traced_resolve(context: Context, key: str) -> Any:
                value = resolve(context, key)
                (absent if value is missing else names).add(key)
                return value

            def traced_getitem(context: Context, key: str) -> Any:
                names.add(key)
                return getitem(context, key)

            Context.resolve_or_missing = traced_resolve  # type: ignore[method-assign,assignment]
            Context.__getitem__ = traced_getitem  # type: ignore[method-assign]
        self.depth += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if self.depth == 0:
            Context.resolve_or_missing = self._resolve  # type: ignore[method-assign]
            Context.__getitem__ = self._getitem  # type: ignore[method-assign]


class BlockMemo:
    """One build's memo of the theme's page-independent parts."""

    def __init__(self, nav: NavMemo, theme_dir: Path) -> None:
        self.nav = nav  # its url filter prints placeholders while recording
        self.theme_dir = theme_dir.resolve()
        self._reads = _Reads()
        #: part -> base_url -> (recorded HTML, names it looked up and did not find);
        #: a part in ``_varies`` is never memoised
        self._made: dict[str, dict[str, tuple[Any, frozenset[str]]]] = {}
        self._varies: set[str] = set()
        self.hits = 0
        self.language = LanguageMemo()  # ``lang.t``: the translations, once
        self._links: tuple[str, PageLinks] | None = None  # the last page's

    def _page_links(self, url: str) -> PageLinks:
        """The page's ``PageLinks``: a page asks for it once per memoised part."""
        if self._links is None or self._links[0] != url:
            self._links = (url, PageLinks(url))
        return self._links[1]

    def _ours(self, filename: str | None) -> bool:
        return filename is not None and Path(filename).resolve().is_relative_to(self.theme_dir)

    def wrap(self, template: jinja2.Template) -> None:
        """Memoise ``template``'s parts, if it is one of Material's (once per template:
        ``remember_lookups`` calls it when the build first loads it)."""
        if not self._ours(template.filename):
            return
        for name in BLOCKS:
            render = template.blocks.get(name)
            if render is not None:
                template.blocks[name] = self._memoised(f"{template.name}#{name}", render)
        if template.name == LANGUAGE:
            self.language.wrap(template)
        if template.name in PARTIALS:
            part = self._memoised(template.name, template.root_render_func, imported_ok=False)
            template.root_render_func = part

    def _memoised(self, part: str, render: _Render, imported_ok: bool = True) -> _Render:
        def memo(context: Context) -> Iterator[str]:
            if (part in self._varies or self._reads.depth or self.nav.recording
                    or (not imported_ok and _imported())):
                # inside a recording (the outer one notes what this reads) or not a
                # part of a page: as Jinja would
                yield from render(context)
                return
            key, page = context.get("base_url"), context.get("page")
            if not isinstance(key, str) or not isinstance(getattr(page, "url", None), str):
                yield from render(context)  # not a page (404.html, sitemap.xml)
                return
            links = self._page_links(page.url)
            made = self._made.setdefault(part, {})
            entry = made.get(key)
            if entry is not None:
                subtree, absent = entry
                if not any(name in context for name in absent):
                    self.hits += 1
                    yield self.nav.relative(subtree, context, links)
                    return
                # a name the recording did not find is there on this page: as it is
                yield from render(context)
                return
            with self._reads as reads:
                subtree = self.nav.record(lambda: "".join(render(context)))
            if subtree is not None and reads.names <= CONSTANTS:
                made[key] = (subtree, frozenset(reads.absent))
                yield self.nav.relative(subtree, context, links)
                return
            self._varies.add(part)
            self._made.pop(part, None)
            yield from render(context)  # as it is, on this page and every other

        memo.__name__ = getattr(render, "__name__", "memo")
        return memo


def remember_lookups(env: jinja2.Environment,
                     first_load: Callable[[jinja2.Template], None] | None = None) -> None:
    """``env.get_template`` answered from a dict for the rest of the build;
    ``first_load`` sees each template once, when it is first found (``BlockMemo``).

    Material includes about 32 templates per page; each include asks Jinja's
    ``get_template``, which takes a lock and reorders its LRU cache, and makes a
    context, which iterates the template's globals (``flatten_globals``).  A build loads
    no template twice (``auto_reload`` is off and MkDocs makes a new environment per
    build), so the first answer for a name is every later one.  Environments that
    join template paths their own way, or calls passing ``globals``, go to Jinja as
    before.
    """
    if type(env).join_path is not jinja2.Environment.join_path:
        return
    get_template = env.get_template
    found: dict[str, jinja2.Template] = {}

    def remembered(name: Any, parent: str | None = None, globals: Any = None) -> Any:
        if globals is not None or not isinstance(name, str):
            return get_template(name, parent, globals)
        template = found.get(name)
        if template is None:
            template = found[name] = get_template(name, parent)
            flatten_globals(template)
            if first_load is not None:
                first_load(template)
        return template

    env.get_template = remembered  # type: ignore[method-assign]


class FlatGlobals(ChainMap[str, Any]):
    """A template's globals as Jinja makes them (``Environment.make_globals``: the
    template's own over the environment's), iterated without building a dict when
    the template has none of its own: what every ``Context`` does when it is made
    (``set(globals)``, about 30 times a page).  The same keys in the same order."""

    def __iter__(self) -> Iterator[str]:
        maps = self.maps
        if len(maps) == 2 and not maps[0]:
            return iter(maps[1])
        return super().__iter__()


def flatten_globals(template: jinja2.Template) -> None:
    """``template.globals`` as a ``FlatGlobals`` over the same mappings."""
    if type(template.globals) is ChainMap:
        template.globals = FlatGlobals(*template.globals.maps)


def remember_script_tags(env: jinja2.Environment) -> None:
    """MkDocs' ``script_tag`` filter, its ``<script>`` line kept per script and URL.

    Material prints every ``extra_javascript`` entry on every page through it, and
    most of its cost is ``Markup.format`` (an escaping formatter); what it prints
    depends only on the script (its path, ``type``, ``defer``, ``async``) and the
    path's URL relative to the page, which pages at one depth share."""
    from mkdocs.utils import templates

    original = env.filters.get("script_tag")
    if original is not templates.script_tag_filter:
        return
    made: dict[tuple[int, str], tuple[Any, Any]] = {}

    @jinja2.pass_context
    def script_tag(context: Any, extra_script: Any) -> Any:
        url = templates.url_filter(context, str(extra_script))
        key = (id(extra_script), url)
        found = made.get(key)
        if found is None or found[0] is not extra_script:
            found = made[key] = (extra_script, original(context, extra_script))
        return found[1]

    env.filters["script_tag"] = script_tag


def material_templates(theme_name: str | None) -> Path | None:
    """Material's own template folder, if the site uses Material."""
    if theme_name != "material":
        return None
    try:
        import material
    except ImportError:
        return None
    folder = Path(material.__file__).parent / "templates"
    return folder if folder.is_dir() else None


def _imported() -> bool:
    """Is the template being rendered as a module (``{% import %}``), not included?"""
    frame = sys._getframe(2)  # memo's caller: the include site, or TemplateModule
    return frame.f_code.co_name in ("__init__", "make_module", "_get_default_module")

"""The one version gate of the speed-ups: which of them may run with what is installed.

Every speed-up in this package reaches into a library's non-public internals
(a module attribute swapped, a class method replaced, a private field read),
which a new release may change without notice.  Each was tested against the
versions in ``TESTED`` (the ones installed when it was last checked); outside
them it switches itself off, ``describe_off`` gives the one info line the build
logs, and the build takes the public path: the same site, only slower.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

#: distribution -> (lowest tested, first untested): the minor series each speed-up
#: was tested against (mkdocs 1.6.1, mkdocs-material 9.8.2, Jinja2 3.1.6,
#: Markdown 3.11.3 at the time).  A new minor release is "untested" until someone
#: runs ``tests/speedups`` and ``python -m tests.sitecompare`` against it and
#: widens its range here.
TESTED: dict[str, tuple[str, str]] = {
    "mkdocs": ("1.6.0", "1.7"),
    "mkdocs-material": ("9.8.0", "9.9"),
    "jinja2": ("3.1.0", "3.2"),
    "markdown": ("3.11.0", "3.12"),
}

#: speed-up -> the distributions whose internals it touches (what it reaches into:
#: see each module's docstring and docs/develop/speed.md)
TOUCHES: dict[str, tuple[str, ...]] = {
    # mkdocs.structure.pages.markdown swapped for one reused instance (markdown_reuse)
    "reuse_markdown": ("mkdocs", "markdown"),
    # MkDocs' page loop re-run in a fork up to the conversion; Logger.callHandlers (render_ahead)
    "markdown_offload": ("mkdocs", "markdown"),
    # Material's nav-item.html macro replaced through a loader (nav_memo)
    "nav_cache": ("jinja2", "mkdocs-material"),
    # jinja2.runtime.Context patched while a block records; sys._getframe (block_memo);
    # make_module of Material's language.html (language_memo); MkDocs' script_tag
    # filter replaced by one kept per script and URL (block_memo.remember_script_tags)
    "theme_cache": ("jinja2", "mkdocs-material", "mkdocs"),
    # Environment.get_template answered from a dict; Template.globals swapped for a
    # FlatGlobals (block_memo.remember_lookups)
    "template_lookups": ("jinja2",),
    # SearchIndex.add_entry_from_context replaced; Parser run in a worker, its handlers
    # written again (search_parse.QuickParser) and fed by our tokenizer; the search
    # plugin's page_context handler swapped in MkDocs' event list, its substitution
    # made without the regular expression (search_offload)
    "search_offload": ("mkdocs-material",),
    # SearchIndex.generate_search_index replaced, mkdocs.utils.write_file swapped for its
    # one write of the index (search_escape); off: the file is fixed
    "search_in_memory": ("mkdocs-material", "mkdocs"),
    # SearchIndex.add_entry_from_context replaced: Material's Parser reads the page with
    # the tags of plain inline elements removed (search_flat)
    "search_flat": ("mkdocs-material",),
    # _RelativePathTreeprocessor.path_to_url memoised per page (link_memo)
    "link_memo": ("mkdocs",),
    # InlineProcessor's private __handleInline and its run swapped: a pattern skipped on a
    # text lacking the literals its expression needs (inline_literals)
    "inline_literals": ("markdown",),
    # File.is_modified memoised on each file of a --dirty build
    "dirty_stats": ("mkdocs",),
    # plain `mkdocs serve`: LiveReloadServer.builder wrapped, mkdocs.commands.serve.build
    # swapped while it runs, so a save is rebuilt dirty (plain_serve)
    "plain_serve": ("mkdocs",),
    # our own forked workers; no internals, switched with the others
    "panels_ahead": (),
    # mkdocs.utils.write_file swapped during the template loop: pages written by a
    # child interpreter (page_writer)
    "page_writer": ("mkdocs",),
    # not a speed-up: Page.render, _populate_page, _build_page wrapped (render_guard);
    # runs whatever `speedups` says, only the gate turns it off (and then the site's
    # public path, site/page_guard.py, still catches a page's conversion)
    "render_guard": ("mkdocs",),
    # not switched by `speedups` either (its own option `watcher`): LiveReloadServer's
    # private fields (watcher)
    "native_watcher": ("mkdocs",),
}

#: what runs whatever the ``speedups`` option says (correctness, or an option of its own)
ALWAYS = frozenset({"render_guard", "native_watcher"})


def installed_version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


@dataclass(frozen=True)
class Gate:
    """Which speed-ups may run: each is on when wanted and every library it touches
    is in its tested range."""

    untested: Mapping[str, str]  # distribution -> its installed, untested version

    @classmethod
    def check(cls, version: Callable[[str], str | None] = installed_version) -> Gate:
        untested: dict[str, str] = {}
        for name, (low, high) in TESTED.items():
            found = version(name)
            if found is None:
                continue  # not installed: whatever touches it finds nothing to patch
            try:
                ok = Version(low) <= Version(found) < Version(high)
            except InvalidVersion:
                ok = False
            if not ok:
                untested[name] = found
        return cls(untested)

    def allows(self, speedup: str) -> bool:
        return not any(name in self.untested for name in TOUCHES[speedup])

    def active(self, wanted: Iterable[str]) -> frozenset[str]:
        return frozenset(s for s in wanted if self.allows(s))

    def describe_off(self, wanted: Iterable[str]) -> str | None:
        """The one info line for the speed-ups this gate turns off, or None."""
        off = sorted(s for s in wanted if not self.allows(s))
        if not off:
            return None
        versions = ", ".join(f"{n} {v}" for n, v in sorted(self.untested.items()))
        return (f"speed-ups off ({', '.join(off)}): they were not tested with {versions}; "
                "the site is the same, the build slower (a page that cannot be converted "
                "still builds; another plugin's page hook or the theme failing on a page "
                "ends the build)" if "render_guard" in off else
                f"speed-ups off ({', '.join(off)}): they were not tested with {versions}; "
                "the site is the same, the build slower")

"""One Python-Markdown instance per build instead of one per page.

MkDocs builds a new ``markdown.Markdown`` for every page, which loads and configures
every extension again: more than our whole compile in a large build
(docs/develop/speed.md).  Python-Markdown is made to be reused: ``reset()`` clears a
document's state (its own and that of every extension that keeps any).  So while a
build runs, ``mkdocs.structure.pages`` gets the same instance back, reset, for each
page; MkDocs then registers its per-page processors on it by name, which replaces
the previous page's.

Only extensions known to reset cleanly take part (Python-Markdown's own,
pymdownx, Material's, MkDocs', ours): with any other extension in
``markdown_extensions`` MkDocs builds its instances as usual.  A nested call
while the instance is converting (a plugin rendering a page inside another)
gets a fresh instance.  Tests build sites both ways and compare every byte.
The option ``reuse_markdown: false`` turns this off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import mkdocs.structure.pages as mkdocs_pages
from markdown import Markdown

# Python-Markdown's built-in extensions, by the short names mkdocs.yml uses.
_BUILTIN = {"abbr", "admonition", "attr_list", "codehilite", "def_list", "extra",
            "fenced_code", "footnotes", "legacy_attrs", "legacy_em", "md_in_html", "meta",
            "nl2br", "sane_lists", "smarty", "tables", "toc", "wikilinks"}
# The module globals of mkdocs.structure.pages, where ``Page.render`` looks up ``markdown``
# (an import there, not an attribute MkDocs exports): the name this module swaps.
_PAGES_GLOBALS: dict[str, Any] = vars(mkdocs_pages)
_SAFE_MODULES = ("markdown.extensions.", "pymdownx.", "material.", "mkdocs.", "beliefbase.")


def reusable(extensions: Sequence[Any]) -> bool:
    """Do all ``extensions`` reset their state between documents?"""
    for ext in extensions:
        name = ext if isinstance(ext, str) else type(ext).__module__ + "."
        if name in _BUILTIN or name.startswith(_SAFE_MODULES):
            continue
        return False
    return True


class ConvertedAhead(Protocol):
    """Pages converted ahead of MkDocs' loop (``render_ahead.RenderAhead``)."""

    def converted(self, md: Markdown, markdown: str) -> str | None:
        """The HTML of ``markdown`` converted ahead (``md`` left as converting it
        would), or None."""

    def record(self, md: Markdown, markdown: str, html: str) -> None:
        """``markdown`` was converted here (the worker's process records its pages)."""


class _MarkdownModule:
    """``markdown`` as ``mkdocs.structure.pages`` sees it, with our ``Markdown``."""

    def __init__(self, real: Any, reuse: MarkdownReuse) -> None:
        self._real = real
        self.reuse = reuse

    def Markdown(self, *args: Any, **kwargs: Any) -> Markdown:  # noqa: N802
        return self.reuse.markdown(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class MarkdownReuse:
    """The instance of one build, handed out again for every page."""

    def __init__(self, extensions: list[Any], configs: dict[str, Any]) -> None:
        self.extensions = extensions
        self.configs = configs
        self._md: Markdown | None = None
        #: made by ``prepare`` with these extensions, not handed out yet
        self._prepared: list[Any] | None = None
        self._busy = False
        self._handed = False  # the instance was handed out (the next one is reset first)
        self.reused = 0
        #: pages converted by a worker ahead of MkDocs' loop (see ``render_ahead``)
        self.ahead: ConvertedAhead | None = None

    def install(self) -> None:
        """Hand MkDocs this build's instance (replacing a previous build's)."""
        current = _PAGES_GLOBALS["markdown"]
        real = current._real if isinstance(current, _MarkdownModule) else current
        _PAGES_GLOBALS["markdown"] = _MarkdownModule(real, self)

    @staticmethod
    def uninstall() -> None:
        current = _PAGES_GLOBALS["markdown"]
        if isinstance(current, _MarkdownModule):
            _PAGES_GLOBALS["markdown"] = current._real

    def markdown(self, extensions: Any = None, extension_configs: Any = None,
                 **kwargs: Any) -> Markdown:
        same = (not kwargs and extensions == self.extensions
                and (extension_configs or {}) == self.configs)
        if not same or self._busy:
            return Markdown(extensions=extensions or [],
                                     extension_configs=extension_configs or {}, **kwargs)
        if self._prepared is not None:
            made_with, self._prepared = self._prepared, None
            if len(made_with) != len(self.extensions) or any(
                    a is not b for a, b in zip(made_with, self.extensions, strict=True)):
                self._md = None  # an extension came or went since: made anew, as it was
        if self._md is None:
            self._md = self._new()
        elif self._handed:
            self._md.reset()
            self.reused += 1
        self._handed = True
        self._busy = True
        return self._md

    def prepare(self) -> None:
        """Make the instance now, before a fork (``render_ahead``): the worker converting
        pages ahead inherits it instead of making its own.  Making one configures every
        extension and compiles their regular expressions (pymdownx's emphasis
        patterns among them): 0.017 s of CPU in each process at 1,000 notes."""
        if self._md is None:
            self._md = self._new()
            self._prepared = list(self.extensions)

    def _new(self) -> Markdown:
        md = Markdown(extensions=self.extensions, extension_configs=self.configs)
        convert: Callable[[str], str] = md.convert

        def convert_then_release(source: str) -> str:
            try:
                ahead = self.ahead
                if ahead is None:
                    return convert(source)
                html = ahead.converted(md, source)
                if html is None:
                    html = convert(source)
                    ahead.record(md, source, html)
                return html
            finally:
                self._busy = False

        md.convert = convert_then_release
        return md

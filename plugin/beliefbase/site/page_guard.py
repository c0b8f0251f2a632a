"""The render guard's path through public APIs: on an MkDocs the gate has not tested.

A page whose Markdown cannot be converted (Python-Markdown's ``RecursionError`` on
thousands of nested runs, an extension raising on input nobody foresaw) is a
``render-error`` at that file, shown as its escaped source, and the build goes
on.  Behind the version gate, ``speedups/render_guard.py`` does it by wrapping
three of MkDocs' private page steps (and so also catches another plugin's page
hook or the theme's template raising).  Outside the gate's tested range, or if
it is ever switched off, that guard is off and this one takes its place, with
public APIs only:

* the conversion: ``ConversionGuard`` is a Markdown extension (Python-Markdown's
  public extension API) put last in the site's ``markdown_extensions``; each
  Markdown instance MkDocs makes from that list gets its ``convert`` wrapped, so
  a conversion that raises returns the page's error HTML (``on_failure``, which
  also reports the ``render-error``).  The nested Markdown that renders embeds is
  made without it: an embed that fails shows its source in the embedding page,
  and its own page reports it (``session.py``).
* our own page hooks (``on_page_read_source``, ``on_page_markdown``): one that
  raises is recorded (``read_failed``), MkDocs reads the file itself, and the
  conversion is skipped for the error HTML.
* ``on_page_content`` (``failed``): the page's table of contents and anchors are
  emptied, as the private path leaves them.

What needs MkDocs' internals stays behind the gate: another plugin's page hook,
or the theme's template, raising ends the build as in plain MkDocs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown import Extension, Markdown
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from ..speedups.render_guard import FAILED_CONVERSION, FAILED_READING, OnFailure


class PageGuard:
    """The public path of one build: which page converts, which failed."""

    def __init__(self, on_failure: OnFailure) -> None:
        self.on_failure = on_failure
        self.page: Page | None = None  # the page MkDocs converts next
        #: src_uri -> (the exception, what failed): a hook of ours raised on that page
        self._read_errors: dict[str, tuple[Exception, str]] = {}
        #: src_uri -> what failed: pages whose content is their error HTML
        self._failed: dict[str, str] = {}

    def extension(self) -> ConversionGuard:
        return ConversionGuard(self)

    def begin(self, page: Page) -> None:
        """MkDocs reads ``page`` (our first page hook): its conversion comes next."""
        self.page = page

    def read_failed(self, page: Page, error: Exception) -> None:
        """A page hook of ours raised on ``page``: it shows its source instead."""
        self.page = page
        self._read_errors[page.file.src_uri] = (error, FAILED_READING)

    def convert(self, convert: Callable[[str], str], source: str) -> str:
        """``convert(source)``, or the page's error HTML if reading it or this raised."""
        page = self.page
        if page is None:  # not a page's conversion (a plugin of the site converting)
            return convert(source)
        self.page = None  # once: a conversion inside this one is another's
        uri = page.file.src_uri
        failure = self._read_errors.pop(uri, None)
        if failure is None:
            try:
                return convert(source)
            except Exception as error:  # noqa: BLE001 - this page's alone
                failure = (error, FAILED_CONVERSION)
        self._failed[uri] = failure[1]
        return self.on_failure(page, failure[0], failure[1])

    def failed(self, page: Page) -> str | None:
        """At ``on_page_content``: what failed, if the page got its error HTML (one
        of ``FAILED_*``).  Its table of contents and anchors are emptied then (the
        conversion's are partial)."""
        failed = self._failed.pop(page.file.src_uri, None)
        if failed is not None:
            page.toc = get_toc([])
            page.present_anchor_ids = set()
            page.links_to_anchors = {}
        return failed


class ConversionGuard(Extension):
    """Wraps each Markdown instance's ``convert`` with the build's ``PageGuard``."""

    def __init__(self, guard: PageGuard, **kwargs: Any) -> None:
        self.guard = guard
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        convert = md.convert
        guard = self.guard

        def guarded(source: str) -> str:
            return guard.convert(convert, source)

        md.convert = guarded

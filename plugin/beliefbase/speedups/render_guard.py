"""One page that cannot be converted or rendered never ends the build.

Python-Markdown recurses over the element tree (``toc``'s ``iterparent``, the
inline patterns, the serializer), so a few thousand nested ``**strong**`` or
``*emphasis*`` runs end in ``RecursionError``, and an extension, a plugin's
hook or a theme template may raise on input nobody foresaw.  MkDocs'
``_populate_page`` and ``_build_page`` log such an exception and re-raise it:
the whole ``mkdocs build`` stops, every other page unbuilt.

While a build runs, three of MkDocs' steps are wrapped, innermost first:

* ``Page.render``, the conversion (whichever Markdown instance it uses: ours
  from ``markdown_reuse``, MkDocs' own per page with ``reuse_markdown: false``,
  or a worker of ``render_ahead``): an exception leaves the page with its
  source, escaped, in a ``<pre>`` made by ``on_failure``, which also reports it
  (a ``render-error`` at that file); the page's other hooks still run.
* ``_populate_page`` (reading the source, every plugin's page hooks): the same.
* ``_build_page`` (the theme's template, ``on_page_context``, ``on_post_page``):
  the page is rendered again with its source as content and no ``template:``;
  if that fails too, ``standalone`` writes a page of its own.

Only ``Exception`` is caught: an interrupt still stops the build.  MkDocs' own
``ERROR`` line for a step that raised ("Error building page ...") is filtered out
while the guard is installed: the ``render-error`` says it, at the file, and an
``ERROR`` counted by MkDocs would fail a ``--strict`` build for a page that was built.
Not a speed-up but a patch of MkDocs' private functions all the same, so it
lives here behind the version gate: on an untested MkDocs it is off (one info
line says so) and the site's public path takes its place (``site/page_guard.py``:
a Markdown extension wraps each instance's ``convert``, and the plugin's own page
hooks catch what they raise), so a page that cannot be converted still builds;
only another plugin's page hook or the theme's template raising then ends the
build as in plain MkDocs.  ``site/render_errors.py`` says what failed and drops a
``template:`` or ``icon:`` the theme lacks before any page is rendered.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

import mkdocs.commands.build as mkdocs_build
from mkdocs import utils
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

#: (page, exception, what failed) -> the HTML the page shows instead of its conversion
#: (and a diagnostic reported); what failed is one of the ``FAILED_*`` below
OnFailure = Callable[[Page, Exception, str], str]

#: what the ``render-error`` says failed, by the step that raised
FAILED_CONVERSION = "its Markdown could not be converted"
FAILED_READING = "it could not be read (reading its source or a plugin's page hook failed)"
FAILED_THEME = ("the theme could not render it (its template or a plugin's page-context "
                "hook failed)")
#: (page, content) -> a whole HTML page, for a page the theme cannot render
Standalone = Callable[[Page, str], str]

#: How MkDocs' ``_populate_page`` and ``_build_page`` begin the ERROR they log before
#: re-raising (mkdocs/commands/build.py).
_PAGE_ERRORS = ("Error reading page '", "Error building page '")


class _GuardedPageErrors(logging.Filter):
    """Drops MkDocs' ERROR for a page step the guard catches (it reports its own)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith(_PAGE_ERRORS))


_FILTER = _GuardedPageErrors()

#: what the wrappers replaced: (owner, attribute) -> the original
_ORIGINALS: dict[tuple[Any, str], Any] = {}


class RenderGuard:
    """The wrappers of one build (``install`` / ``uninstall``)."""

    def __init__(self, on_failure: OnFailure, standalone: Standalone) -> None:
        self.on_failure = on_failure
        self.standalone = standalone

    def install(self) -> None:
        """Wrap MkDocs' page steps for this guard (replacing a previous build's)."""
        _wrap(Page, "render", self._render)
        _wrap(mkdocs_build, "_populate_page", self._populate)
        _wrap(mkdocs_build, "_build_page", self._build)
        mkdocs_build.log.addFilter(_FILTER)  # (added once, however often installed)

    @staticmethod
    def uninstall() -> None:
        mkdocs_build.log.removeFilter(_FILTER)
        for (owner, name), original in _ORIGINALS.items():
            setattr(owner, name, original)
        _ORIGINALS.clear()

    def _render(self, original: Any, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            original(page, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - any failure is this page's alone
            self.fallback(page, error, FAILED_CONVERSION)

    def _populate(self, original: Any, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            original(page, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - MkDocs logged it; the page goes on
            self.fallback(page, error, FAILED_READING)

    def _build(self, original: Any, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            original(page, *args, **kwargs)
            return
        except Exception as error:  # noqa: BLE001 - MkDocs logged it; try the source alone
            self.fallback(page, error, FAILED_THEME)
        if page.meta:
            page.meta.pop("template", None)
            page.meta.pop("icon", None)
        content = page.content or ""
        try:
            original(page, *args, **kwargs)
        except Exception:  # noqa: BLE001 - the theme fails on any content: a page of ours
            with contextlib.suppress(OSError):
                utils.write_file(self.standalone(page, content).encode("utf-8"),
                                 page.file.abs_dest_path)

    def fallback(self, page: Page, error: Exception, failed: str) -> None:
        """What a failed step leaves: the page's source, escaped, as its content."""
        # a RecursionError unwound: the stack is shallow again here
        if not page.markdown:  # never read, or released once converted (plugin.py)
            page.markdown = _source(page)
        page.content = self.on_failure(page, error, failed)
        page.toc = get_toc([])
        page._title_from_render = None
        page.present_anchor_ids = set()
        page.links_to_anchors = {}


def _wrap(owner: Any, name: str, wrapper: Callable[..., None]) -> None:
    """``owner.name`` calls ``wrapper(original, *args)`` (the original kept once)."""
    original = _ORIGINALS.setdefault((owner, name), getattr(owner, name))

    def wrapped(*args: Any, **kwargs: Any) -> None:
        wrapper(original, *args, **kwargs)

    wrapped.__doc__ = original.__doc__
    setattr(owner, name, wrapped)


def _source(page: Page) -> str:
    """The page's file as text, for a page whose source was never read."""
    try:
        return page.file.content_bytes.decode("utf-8", "replace")
    except (OSError, TypeError, ValueError):
        return ""

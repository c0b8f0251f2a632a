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

Only ``Exception`` is caught: an interrupt still stops the build.
``missing_theme_files`` drops a ``template:`` or ``icon:`` the theme lacks
before any page is rendered.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

import mkdocs.commands.build as mkdocs_build
from jinja2 import Environment, TemplateNotFound
from mkdocs import utils
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from ..diagnostics import Diagnostic, make

#: (page, exception) -> the HTML the page shows instead of its conversion (and a
#: diagnostic reported)
OnFailure = Callable[[Page, Exception], str]
#: (page, content) -> a whole HTML page, for a page the theme cannot render
Standalone = Callable[[Page, str], str]

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

    @staticmethod
    def uninstall() -> None:
        for (owner, name), original in _ORIGINALS.items():
            setattr(owner, name, original)
        _ORIGINALS.clear()

    def _render(self, original: Any, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            original(page, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - any failure is this page's alone
            self.fallback(page, error)

    def _populate(self, original: Any, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            original(page, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - MkDocs logged it; the page goes on
            self.fallback(page, error)

    def _build(self, original: Any, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            original(page, *args, **kwargs)
            return
        except Exception as error:  # noqa: BLE001 - MkDocs logged it; try the source alone
            self.fallback(page, error)
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

    def fallback(self, page: Page, error: Exception) -> None:
        """What a failed step leaves: the page's source, escaped, as its content."""
        # a RecursionError unwound: the stack is shallow again here
        if not page.markdown:  # never read, or released once converted (plugin.py)
            page.markdown = _source(page)
        page.content = self.on_failure(page, error)
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


def describe(error: BaseException) -> str:
    """The reason shown to the author: the exception's type and first line."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def advice(error: BaseException) -> str:
    """What the author can do about ``error``."""
    if isinstance(error, RecursionError):
        return ("the Markdown nests too deeply for Python-Markdown (thousands of nested "
                "emphasis, lists or quotes); flatten or split that part")
    return "simplify the part of the note that triggers it, or report it as a bug"


def missing_theme_files(env: Environment, pages: Iterable[Page],
                        display: Callable[[str], str]) -> list[Diagnostic]:
    """Drop a page's ``template:`` or ``icon:`` that names no file of the theme.

    MkDocs renders a page with ``env.get_template(page.meta["template"])`` and
    Material includes ``.icons/<icon>.svg`` in the page's title and in every nav
    entry: a missing name, or one leaving the theme (``../``, refused by Jinja),
    is a ``TemplateNotFound`` that ends the build.  Checked once per name, at
    ``on_env`` (after every page's meta is read, before any is rendered); the
    page then gets the default.
    """
    found: list[Diagnostic] = []
    known: dict[str, bool] = {}
    for page in pages:
        meta = page.meta
        if not meta:
            continue
        for key, name in (("template", meta.get("template")), ("icon", meta.get("icon"))):
            if name is None:
                continue
            wanted = f".icons/{name}.svg" if key == "icon" and isinstance(name, str) else name
            if not isinstance(wanted, str):
                ok = False
            elif wanted in known:
                ok = known[wanted]
            else:
                ok = known[wanted] = _exists(env, wanted)
            if ok:
                continue
            del meta[key]
            shown = ascii(name) if not isinstance(name, str) else repr(str(name))
            what = "template" if key == "template" else "icon"
            found.append(make(
                "bad-template", display(page.file.src_uri), 1, 1,
                f"{key}: {shown} names no {what} of the theme, so the page has the default "
                f"(name a file of the theme or of its custom_dir, without ../)"))
    return found


def _exists(env: Environment, name: str) -> bool:
    if env.loader is None:
        return False
    try:
        env.loader.get_source(env, name)
    except TemplateNotFound:
        return False
    except Exception:  # noqa: BLE001 - a name the loader cannot even look up
        return False
    return True

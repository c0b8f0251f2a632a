"""One page that cannot be converted never ends the build.

Python-Markdown recurses over the element tree (``toc``'s ``iterparent``, the
inline patterns, the serializer), so a few thousand nested ``**strong**`` or
``*emphasis*`` runs end in ``RecursionError``, and an extension may raise on
input nobody foresaw.  MkDocs' ``_populate_page`` logs such an exception and
re-raises it: the whole ``mkdocs build`` stops, every other page unbuilt.

While a build runs, ``Page.render`` (the conversion, whichever Markdown
instance it uses: ours from ``markdown_reuse``, MkDocs' own per page with
``reuse_markdown: false``, or a worker of ``render_ahead``) is wrapped: an
exception leaves the page with its source, escaped, in a ``<pre>`` made by
``on_failure``, and is reported to it (a ``render-error`` at that file); the
loop goes on with the next page.  Only ``Exception`` is caught: an interrupt
still stops the build.

``missing_theme_files`` does the same for a page's ``template:`` and ``icon:``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, TemplateNotFound
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from ..diagnostics import Diagnostic, make

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

#: (page, exception) -> the HTML the page shows instead of its conversion
OnFailure = Callable[[Page, Exception], str]

_ORIGINAL = "_beliefbase_unguarded_render"


class RenderGuard:
    """The wrapper around ``Page.render`` of one build (``install`` / ``uninstall``)."""

    def __init__(self, on_failure: OnFailure) -> None:
        self.on_failure = on_failure
        self.failed: list[str] = []  # src_uri of the pages shown as source, this build

    def install(self) -> None:
        """Wrap ``Page.render`` for this guard (replacing a previous build's wrapper)."""
        original = getattr(Page, _ORIGINAL, None) or Page.render
        setattr(Page, _ORIGINAL, original)
        guard = self

        def render(page: Page, config: MkDocsConfig, files: Files) -> None:
            try:
                original(page, config, files)
            except Exception as error:  # noqa: BLE001 - any failure is this page's alone
                guard.fallback(page, error)

        render.__doc__ = original.__doc__
        Page.render = render  # type: ignore[method-assign,assignment]

    @staticmethod
    def uninstall() -> None:
        original: Any = getattr(Page, _ORIGINAL, None)
        if original is not None:
            Page.render = original  # type: ignore[method-assign]
            delattr(Page, _ORIGINAL)

    def fallback(self, page: Page, error: Exception) -> None:
        """What ``Page.render`` leaves when the conversion raised: the escaped source."""
        # a RecursionError unwound: the stack is shallow again here
        page.content = self.on_failure(page, error)
        page.toc = get_toc([])
        page._title_from_render = None
        page.present_anchor_ids = set()
        page.links_to_anchors = {}
        self.failed.append(page.file.src_uri)


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

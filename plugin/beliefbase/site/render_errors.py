"""What a page that cannot be converted or rendered reports, and theme files a page
names that do not exist (a ``template:`` or ``icon:`` the theme lacks).

The render guard (``speedups/render_guard.py`` behind the version gate, else
``page_guard.py`` through public APIs) catches the failure; this module
says what went wrong and what the author can do about it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from jinja2 import Environment, TemplateNotFound
from mkdocs.structure.pages import Page

from ..diagnostics import Diagnostic, make

# A top-level key of a YAML mapping at the start of a line: ``template: x``, ``"icon": y``.
_TOP_KEY = re.compile(r"""^["']?([A-Za-z_][\w-]*)["']?[ \t]*:""")


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

    Only a ``template:`` is reported.  An ``icon:`` Material lacks is dropped
    without a word: in an Obsidian vault ``icon:`` belongs to icon plugins
    (``icon: trees``, ``icon: LiHome``), so Material's lookup failing is not the
    author's error; the note's frontmatter keeps the value.
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
            if key == "icon":
                continue
            shown = ascii(name) if not isinstance(name, str) else repr(str(name))
            found.append(make(
                "bad-template", display(page.file.src_uri), _key_line(page, key), 1,
                f"{key}: {shown} names no template of the theme, so the page has the default "
                f"(name a file of the theme or of its custom_dir, without ../)"))
    return found


def _key_line(page: Page, key: str) -> int:
    """The line of the frontmatter that sets ``key`` (1: not found, or unreadable)."""
    try:
        text = page.file.content_string
    except (OSError, TypeError, ValueError):
        return 1
    lines = text.splitlines()
    if not lines or lines[0].rstrip() != "---":
        return 1
    for number, line in enumerate(lines[1:], start=2):
        if line.rstrip() in ("---", "..."):
            break
        m = _TOP_KEY.match(line)
        if m is not None and m.group(1) == key:
            return number
    return 1


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

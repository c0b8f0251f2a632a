"""Material's default navigation without its quadratic cost.

Material prints the whole navigation tree into every page, so a site of n
pages renders n² navigation items: most of a large build (docs/develop/speed.md).
But a subtree that does not hold the page being rendered comes out the same
on every page — except for its links, which MkDocs' ``url`` filter makes
relative to that page.  So we render each such subtree once, with links
written as placeholders, and per page only substitute the links.  The HTML
is byte-for-byte what Material prints (tests build a vault both ways).

How it hooks in: when Jinja loads Material's ``partials/nav-item.html``,
``MemoLoader`` appends one line, ``{% set render = bb_nav_memo(render) %}``,
which replaces the template's recursive ``render`` macro by
``NavMemo.wrap``'s function (the macro calls itself through that name, so
nested items go through it too).  A theme whose ``nav-item.html`` has another
``render`` signature is left alone.  The option ``nav_cache: false`` turns
this off.
"""

from __future__ import annotations

import posixpath
import re
import secrets
from collections.abc import Callable
from typing import Any

import jinja2
from jinja2 import pass_context

from ..ids import common_prefix_length, relative_segments

NAV_ITEM = "partials/nav-item.html"
_SIGNATURE = re.compile(r"{%-?\s*macro\s+render\(nav_item,\s*path,\s*level,\s*parent\)\s*-?%}")
_HOOK = "\n{% set render = bb_nav_memo(render) %}\n"
# A path MkDocs' normalize_url passes to get_relative_url unchanged: no scheme,
# host, query, fragment, backslash, leading slash or dot-segment.
_PLAIN_PATH = re.compile(r"[^/.:?#\\][^/:?#\\]*(?:/[^/.:?#\\][^/:?#\\]*)*/?")


def plain_parts(path: str) -> list[str] | None:
    """The segments of a plain path (``a/b/`` -> ``[a, b]``), None if not plain."""
    if not _PLAIN_PATH.fullmatch(path):
        return None
    parts = path.split("/")
    if not parts[-1]:
        parts.pop()
    return parts


class PageLinks:
    """``mkdocs.utils.normalize_url(path, page)`` for one page, fast for plain paths.

    The page's own path is split once instead of once per link (n²
    links).  ``relative`` returns None for a path that is not plain: the caller asks
    MkDocs.
    """

    def __init__(self, page_url: str) -> None:
        dirname, _, basename = page_url.rpartition("/")
        other = dirname if "." in basename else page_url
        other = posixpath.normpath(other if other.startswith("/") else "/" + other)[1:]
        self.parts = other.split("/") if other else []  # as mkdocs.utils._norm_parts

    def relative(self, path: str) -> str | None:
        dest = plain_parts(path)
        if dest is None:
            return None
        rel = relative_segments(dest, self.parts)
        return rel + "/" if path.endswith("/") else rel


class MemoLoader(jinja2.BaseLoader):
    """The theme's loader, with the memo hook appended to ``nav-item.html``."""

    def __init__(self, inner: jinja2.BaseLoader) -> None:
        self.inner = inner

    def get_source(self, environment: jinja2.Environment, template: str) -> Any:
        source, filename, uptodate = self.inner.get_source(environment, template)
        if template == NAV_ITEM and _SIGNATURE.search(source):
            source += _HOOK
        return source, filename, uptodate

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()


class _Subtree:
    """One inactive subtree's HTML, links as placeholders, and the folder holding them."""

    __slots__ = ("html", "links", "prefix", "relative")

    def __init__(self, html: Any, prefix: tuple[str, ...] | None, links: bool = True) -> None:
        self.html = html
        self.links = links  # any placeholder at all (else the HTML serves every page)
        self.prefix = prefix  # segments every link starts with; None: some link is not plain
        # the subtree made relative, by (page depth, segments the page shares with prefix)
        self.relative: dict[tuple[int, int], Any] = {}


class NavMemo:
    """Rendered inactive navigation subtrees of one build, links as placeholders."""

    def __init__(self, url_filter: Callable[..., str]) -> None:
        self.url_filter = url_filter  # MkDocs' own, relative to the page in the context
        # A per-build nonce: no page title can forge a placeholder.  Letters, digits
        # and brackets only, which HTML escaping and JSON (`tojson`) leave alone.
        nonce = secrets.token_hex(8)
        self._open, self._close = f"bb{nonce}[", f"]{nonce}bb"
        self._placeholder = re.compile(f"{re.escape(self._open)}(.*?){re.escape(self._close)}")
        self._emitted = 0  # placeholders printed (a filter that changed one loses it)
        self._subtrees: dict[tuple[int, str, int, bool], _Subtree] = {}
        self._recording = 0  # > 0 while a subtree renders into the memo

    def install(self, env: jinja2.Environment, nav: bool = True) -> None:
        """The ``url`` filter that records placeholders; ``nav``: and the navigation hook."""
        if nav:
            env.loader = MemoLoader(env.loader) if env.loader is not None else None
            env.globals["bb_nav_memo"] = self.wrap
        env.filters["url"] = self.url

    @pass_context
    def url(self, context: Any, value: Any) -> str:
        if self._recording:
            self._emitted += 1
            return f"{self._open}{value}{self._close}"
        return self.url_filter(context, value)

    @property
    def recording(self) -> bool:
        """Is a subtree (or a part of the page, see ``block_memo``) being recorded?"""
        return self._recording > 0

    def record(self, render: Callable[[], str]) -> _Subtree | None:
        """``render()``'s HTML with every ``url`` link as a placeholder; None if some
        placeholder did not come out as printed (a filter escaped it): render it as
        usual then."""
        self._recording += 1
        emitted = self._emitted
        try:
            html = render()
        finally:
            self._recording -= 1
        paths = self._placeholder.findall(html)
        if len(paths) != self._emitted - emitted:
            return None
        if not paths:
            return _Subtree(html, None, links=False)
        prefix: tuple[str, ...] | None = None
        for path in paths:
            parts = plain_parts(path)
            if parts is None:
                return _Subtree(html, None)
            if prefix is None:
                prefix = tuple(parts)
            else:
                prefix = prefix[:common_prefix_length(prefix, parts)]
        return _Subtree(html, prefix)

    def relative(self, subtree: _Subtree, context: Any, links: PageLinks | None) -> Any:
        """A recorded subtree with its links made relative to the page in ``context``."""

        def one(match: re.Match[str]) -> str:
            path = match.group(1)
            url = links.relative(path) if links is not None else None
            return url if url is not None else self.url_filter(context, path)

        html, prefix = subtree.html, subtree.prefix
        if not subtree.links:
            return html
        key = None
        if links is not None and prefix is not None:
            shared = common_prefix_length(links.parts, prefix)
            if shared < len(prefix):  # the page lies outside the links' folder:
                # every link's URL depends only on the page's depth and on ``shared``
                key = (len(links.parts), shared)
                out = subtree.relative.get(key)
                if out is not None:
                    return out
        out = html.__class__(self._placeholder.sub(one, html))
        if key is not None:
            subtree.relative[key] = out
        return out

    @pass_context
    def wrap(self, context: Any, render: Any) -> Callable[..., Any]:
        """The memoising ``render`` for the page in ``context``."""
        page = context.get("page")
        links = PageLinks(page.url) if page is not None else None

        def memo_render(nav_item: Any, path: str, level: int, *parent: Any) -> Any:
            if nav_item.active or getattr(nav_item, "pages", None):
                return render(nav_item, path, level, *parent)
            key = (id(nav_item), path, level, bool(parent and getattr(parent[0], "active", False)))
            subtree = self._subtrees.get(key)
            if subtree is None:
                subtree = self.record(lambda: render(nav_item, path, level, *parent))
                if subtree is None:
                    return render(nav_item, path, level, *parent)
                self._subtrees[key] = subtree
            return subtree.html if self._recording else self.relative(subtree, context, links)

        return memo_render

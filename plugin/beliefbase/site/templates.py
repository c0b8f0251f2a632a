"""Our Jinja environment: every fragment the plugin adds comes from a template.

Templates ship in the package's ``theme/`` folder.  A site overrides any of
them by putting a file of the same name in ``<custom_dir>/beliefbase/``
(MkDocs' ``theme.custom_dir``).  Autoescape is on: Python passes data, never
HTML, except for values it marks ``Markup`` itself (rendered Markdown).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from .escape import json_for_html
from .output import write_bytes


@cache
def theme_dir() -> Path:
    """The ``theme/`` folder shipped with the package (or of a source checkout)."""
    try:
        import beliefbase.theme as theme_pkg

        for entry in getattr(theme_pkg, "__path__", []):
            if (Path(entry) / "assets").is_dir():
                return Path(entry)
    except ImportError:
        pass
    return Path(__file__).resolve().parents[3] / "theme"


def templates_stamp(custom_dir: str | None) -> str:
    """The names and times of every template a page may be rendered with (the site's
    ``custom_dir``, ours): a generated page is rendered again when one changed."""
    stamps: list[tuple[str, int]] = []
    for root in (Path(custom_dir) if custom_dir else None, theme_dir()):
        if root is None or not root.is_dir():
            continue
        for path in root.rglob("*.html"):
            with contextlib.suppress(OSError):
                stamps.append((str(path), path.stat().st_mtime_ns))
    return json.dumps(sorted(stamps))


class Templates:
    """Renders our fragments, looking in the site's override folder first."""

    def __init__(self, override_dir: Path | None = None) -> None:
        loaders: list[jinja2.BaseLoader] = []
        if override_dir is not None and override_dir.is_dir():
            loaders.append(jinja2.FileSystemLoader(str(override_dir)))
        loaders.append(jinja2.FileSystemLoader(str(theme_dir())))
        self.env = jinja2.Environment(
            loader=jinja2.ChoiceLoader(loaders),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=False,
            # a page renders dozens of fragments, and with auto_reload Jinja stat()ed
            # the template's file at each; ``refresh`` looks once per build instead
            auto_reload=False,
        )
        # JSON with <, >, & as \u escapes: safe inside <script>, so not HTML-escaped again.
        self.env.filters["json_html"] = lambda value: Markup(json_for_html(value))

        self._recording = False
        #: ``render_same``'s HTML by template and context
        self._same: dict[tuple[Any, ...], str] = {}

    def refresh(self) -> None:
        """Forget the templates whose file changed since they were loaded (a rebuild
        under ``mkdocs serve`` renders an edited template anew): once per build."""
        self._same.clear()
        cache = self.env.cache
        if cache is None:
            return
        for key, template in list(cache.items()):
            if not template.is_up_to_date:
                del cache[key]

    def render(self, name: str, **context: Any) -> str:
        if self._recording:
            # what the HTML is made of, cheaper than the HTML: an object JSON cannot
            # write shows as its ``str`` (an id in it: never equal, so always "changed")
            return json.dumps([name, context], default=str, ensure_ascii=False)
        return self.env.get_template(name).render(**context)

    def render_same(self, name: str, **context: str) -> str:
        """``render`` for a fragment many pages print alike (the feed's ``<link>``,
        the same for every page of a depth): rendered once per context.  Only
        strings: ``str`` and ``UserText`` print differently, so the type is in the key."""
        if self._recording:
            return self.render(name, **context)
        key = (name, *((k, type(v), v) for k, v in sorted(context.items())))
        html = self._same.get(key)
        if html is None:
            html = self._same[key] = self.render(name, **context)
        return html

    @contextlib.contextmanager
    def recording(self) -> Iterator[None]:
        """Within: ``render`` returns the template's name and context as JSON, not
        HTML; equal texts make equal HTML (``SiteBuild.shown``)."""
        self._recording = True
        try:
            yield
        finally:
            self._recording = False


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled theme templates kept for the whole ``mkdocs serve``, and in
    ``directory`` (the plugin's ``cache_dir``) from one build to the next.

    MkDocs makes a new Jinja environment for every build, so Material's
    templates would be compiled again each time (about half a second).  Jinja
    keys the cache by template name, and checks the source's checksum and its
    own and Python's version when loading: an edited template, or another
    interpreter, compiles it again.  A file that cannot be read or written
    only costs the compilation.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self._code: dict[str, bytes] = {}
        self.directory = directory

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is None and self.directory is not None:
            try:
                code = self._code[bucket.key] = (self.directory / f"{bucket.key}.jinja"
                                                 ).read_bytes()
            except OSError:
                return
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code[bucket.key] = bucket.bytecode_to_string()
        if self.directory is not None:
            with contextlib.suppress(OSError):
                write_bytes(self.directory / f"{bucket.key}.jinja", code)

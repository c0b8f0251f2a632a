"""Navigation for large knowledge bases: the explorer, breadcrumbs, "All notes".

Wires ``site/explorer.py`` into a build when the plugin option ``explorer``
is on: Material's ``partials/nav.html`` is overridden (``theme/overrides/``),
``explorer.json`` is written once, every page gets a link to the "All notes"
page (a generated page listing the whole tree as HTML, for readers without
JavaScript).  Breadcrumbs are in each page's content (``site/reader/folders.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.utils import get_relative_url

from .. import diagnostics as diag
from ..builder.documents import Document
from ..compile.compiled import Compiled
from .escape import json_for_html
from .explorer import EXPLORER_JSON, build_tree, explorer_json, flat_index
from .feature import FeatureContext, SiteFeature
from .generated_page import generated_page
from .templates import Templates, theme_dir

OVERRIDES = "overrides"
OUTPUT_DIR = "_beliefbase"  # session.OUTPUT_DIR (session imports this module)


@dataclass(frozen=True)
class NavigationOptions:
    explorer: bool
    all_notes_page: str  # "notes/"


def install_theme_overrides(config: Any) -> None:
    """Put ``theme/overrides`` before Material's templates (after a site's custom_dir)."""
    folder = str(theme_dir() / OVERRIDES)
    dirs = config.theme.dirs
    if folder in dirs:
        return
    custom = getattr(config.theme, "custom_dir", None)
    dirs.insert(1 if custom and dirs and dirs[0] == custom else 0, folder)


class NavigationSite(SiteFeature):
    """The explorer tree of one build and the pages/outputs that come with it."""

    name = "navigation"

    @classmethod
    def make(cls, ctx: FeatureContext) -> NavigationSite | None:
        """The explorer (plugin option ``explorer``): tree, breadcrumbs, "All notes"."""
        if not ctx.options.explorer:
            return None
        return cls(ctx.compiled, ctx.templates,
                   NavigationOptions(ctx.options.explorer, ctx.options.all_notes_page))

    def __init__(self, compiled: Compiled, templates: Templates,
                 options: NavigationOptions) -> None:
        self.compiled = compiled
        self.templates = templates
        self.options = options
        self.tree = build_tree(compiled)
        self.all_notes_src = options.all_notes_page.rstrip("/") + ".md"
        self.all_notes_url: str | None = None

    def add_files(self, files: Files, config: Any) -> list[diag.Diagnostic]:
        if files.get_file_from_path(self.all_notes_src) is None:
            file = generated_page(config, self.all_notes_src, "# All notes\n",
                                  InclusionLevel.NOT_IN_NAV)
            files.append(file)
            self.all_notes_url = file.url
        files.append(File.generated(config, f"{OUTPUT_DIR}/explorer.js",
                                    abs_src_path=str(theme_dir() / "assets" / "explorer.js")))
        return []

    def owns(self, src: str) -> bool:
        return self.all_notes_url is not None and src == self.all_notes_src

    def meta(self, src: str) -> dict[str, Any]:
        # every title once more: the notes themselves are searched already
        return {"title": "All notes", "search": {"exclude": True}} if self.owns(src) else {}

    def content(self, src: str, page_url: str) -> str | None:
        if not self.owns(src):
            return None
        base = get_relative_url("index.html", page_url).removesuffix("index.html")
        return self.templates.render("all-notes.html", tree=flat_index(self.tree), base=base)

    def page_context(self, context: dict[str, Any], doc: Document | None) -> None:
        """Template variables for ``partials/nav.html`` (our override)."""
        context["bb_all_notes"] = self.all_notes_url

    def write_compile_outputs(self, site_dir: Path) -> None:
        out = site_dir / OUTPUT_DIR
        out.mkdir(parents=True, exist_ok=True)
        data = json_for_html(explorer_json(self.tree), separators=(",", ":"))
        (out / EXPLORER_JSON).write_text(data, encoding="utf-8")

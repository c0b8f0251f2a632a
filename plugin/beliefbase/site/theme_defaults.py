"""What the plugin sets on the Material theme when mkdocs.yml does not: a light and a
dark palette with a toggle, and a word about the fonts Material loads from Google."""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger

log = get_plugin_logger(__name__)

#: Material's two schemes, each chosen by the reader's system setting on the first
#: paint (``media``) and switched by the header's toggle: Material's own palette
#: CSS and script, shipped with the theme, do the rest (nothing from the network).
_PALETTE: tuple[dict[str, Any], ...] = (
    {"media": "(prefers-color-scheme: light)", "scheme": "default",
     "toggle": {"icon": "material/brightness-7", "name": "Switch to dark mode"}},
    {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
     "toggle": {"icon": "material/brightness-4", "name": "Switch to light mode"}},
)


def default_palette(config: MkDocsConfig) -> None:
    """Give Material a light and a dark scheme with a toggle when mkdocs.yml sets no
    ``theme.palette`` (a site's own palette always wins; other themes are left alone)."""
    if config.theme.name != "material" or "palette" in config.theme:
        return
    config.theme["palette"] = [
        {**scheme, "toggle": dict(scheme["toggle"])} for scheme in _PALETTE
    ]


class FontNotice:
    """Say once per process that Material would load Google Fonts (the site is meant
    to work offline)."""

    def __init__(self) -> None:
        self.said = False

    def __call__(self, config: MkDocsConfig) -> None:
        if self.said or config.theme.name != "material":
            return
        if config.theme.get("font") is not False:
            self.said = True
            log.info("the Material theme loads its fonts from Google Fonts; for a site that "
                     "works offline set `theme: font: false` in mkdocs.yml")


#: one per process, as the module-level flag it replaces (serve rebuilds say it once)
font_notice = FontNotice()

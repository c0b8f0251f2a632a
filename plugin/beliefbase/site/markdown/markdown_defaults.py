"""The Markdown extensions a vault needs to render as Obsidian's reading view.

With ``plugins: [search, beliefbase]`` and nothing else, MkDocs converts pages
with ``toc``, ``tables`` and ``fenced_code`` only.  ``add_markdown_defaults``
adds, at ``on_config`` (before MkDocs builds any Markdown instance, and before
our own extensions are appended), each extension below unless mkdocs.yml
already lists it or an alternative to it; a listed extension keeps the user's
``mdx_configs``.  ``markdown_defaults: false`` adds none of them.

Each choice, and why (the table in docs/ says the same to users):

* ``footnotes``: Obsidian renders ``[^1]`` footnotes.
* ``admonition`` and ``pymdownx.details``: Obsidian's callouts are ours already;
  these keep MkDocs' ``!!! note`` / ``??? note`` working for sites that mix.
* ``pymdownx.superfences``: fenced code inside lists and quotes, as Obsidian
  shows it; its ``mermaid`` fence shows the diagram's source with a note
  (``obsidian_markdown.mermaid_source``): no Mermaid renderer ships offline and
  Material would fetch one from a CDN for ``pre.mermaid``.  Not with
  ``codehilite``: superfences would replace it by ``pymdownx.highlight``.
* ``pymdownx.highlight`` (Pygments: highlighted at build time, no script, no
  network; Material styles ``.highlight`` in both palettes) and
  ``pymdownx.inlinehilite``; neither when ``codehilite`` is configured.
* ``pymdownx.tasklist`` (``custom_checkbox``: Material's styled boxes), plus
  our custom statuses ``[/]``, ``[-]``, ``[>]`` … (``obsidian_markdown``).
* ``pymdownx.mark`` (``==highlight==``) and ``pymdownx.tilde`` (``~~strike~~``;
  ``subscript`` off: Obsidian shows ``~x~`` as typed).
* ``sane_lists``: a bulleted and a numbered list one after the other stay two
  lists, and a numbered list keeps its first number (CommonMark, Obsidian);
  Python-Markdown alone merges them into one.
* ``nl2br`` when a single newline is a line break (``line_breaks``).
* Not added: ``attr_list`` (Obsidian shows ``{#id}`` as text, and it would
  change heading ids), ``md_in_html`` (Obsidian does not render Markdown inside
  HTML), ``toc`` permalinks (Obsidian shows none; MkDocs' ``toc`` stays as
  configured).
"""

from __future__ import annotations

from typing import Any

from ...config import BeliefbaseConfig
from ...obsidian import ObsidianSettings
from .obsidian_markdown import ObsidianMarkdownExtension, mermaid_source

# Extensions that bundle others (what they include counts as configured).
_BUNDLES: dict[str, tuple[str, ...]] = {
    "extra": ("footnotes", "attr_list", "md_in_html", "tables", "abbr", "def_list",
              "fenced_code"),
    "pymdownx.extra": ("footnotes", "attr_list", "md_in_html", "tables", "abbr", "def_list",
                       "pymdownx.superfences", "pymdownx.betterem"),
}

#: (extension, its configuration, extensions that replace it)
DEFAULTS: tuple[tuple[str, dict[str, Any], tuple[str, ...]], ...] = (
    ("footnotes", {}, ()),
    ("admonition", {}, ()),
    ("pymdownx.details", {}, ()),
    ("pymdownx.superfences", {"custom_fences": [
        {"name": "mermaid", "class": "bb-mermaid", "format": mermaid_source},
    ]}, ("codehilite",)),  # superfences highlights with pymdownx.highlight only
    ("pymdownx.highlight", {"use_pygments": True}, ("codehilite",)),
    ("pymdownx.inlinehilite", {}, ("codehilite",)),
    ("pymdownx.tasklist", {"custom_checkbox": True}, ()),
    ("pymdownx.mark", {}, ()),
    ("pymdownx.tilde", {"subscript": False}, ()),
    ("sane_lists", {}, ()),
)


def extension_name(ext: object) -> str:
    """``footnotes`` for ``footnotes``, ``markdown.extensions.footnotes`` or an instance."""
    name = ext if isinstance(ext, str) else type(ext).__module__
    return name.removeprefix("markdown.extensions.")


def configured(extensions: list[Any]) -> set[str]:
    """The names of ``extensions`` and of the ones they bundle."""
    names = {extension_name(e) for e in extensions}
    for bundle, parts in _BUNDLES.items():
        if bundle in names:
            names.update(parts)
    return names


def line_breaks(plugin_config: BeliefbaseConfig, settings: ObsidianSettings) -> bool:
    """Is a single newline inside a paragraph a line break (``nl2br``)?"""
    choice = plugin_config.line_breaks
    if choice != "auto":
        return choice == "breaks"
    # no .obsidian folder: not an Obsidian vault, keep MkDocs' behaviour (hard-wrapped
    # prose such as this project's own docs/ stays one paragraph)
    return bool(plugin_config.markdown_defaults and settings.present
                and not settings.strict_line_breaks)


def add_markdown_defaults(config: Any, plugin_config: BeliefbaseConfig,
                          settings: ObsidianSettings) -> list[str]:
    """Add the default extensions to an MkDocs ``config``; returns the names added.

    Idempotent: a second call (the CLI loads a config, a build's ``on_config`` runs
    again) finds them listed and adds nothing.
    """
    extensions: list[Any] = config.markdown_extensions
    mdx_configs: dict[str, Any] = config.mdx_configs
    present = configured(extensions)
    added: list[str] = []
    if plugin_config.markdown_defaults:
        for name, options, replaced_by in DEFAULTS:
            if name in present or present.intersection(replaced_by):
                continue  # the user's own choice (or its alternative) wins
            extensions.append(name)
            mdx_configs[name] = {k: list(v) if isinstance(v, list) else v
                                 for k, v in options.items()}
            added.append(name)
        if not any(isinstance(e, ObsidianMarkdownExtension) for e in extensions):
            extensions.append(ObsidianMarkdownExtension())
    if line_breaks(plugin_config, settings) and "nl2br" not in present:
        extensions.append("nl2br")
        added.append("nl2br")
    return added

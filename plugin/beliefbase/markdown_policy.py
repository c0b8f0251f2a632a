"""Which Markdown extensions a vault needs to render as Obsidian's reading view.

The policy, below the site: names and options only, decided from the plugin's
options and the vault's ``.obsidian`` settings.  The site applies it at
``on_config`` (``site/markdown/markdown_defaults.py``: it adds the names to
mkdocs.yml's list with the site's own objects, such as the Mermaid fence's
formatter and our ``ObsidianMarkdownExtension``); the compile reads the list
(``project.compile_options``: ``attr_list`` gives headings their ids), and no
default below is one it reads, so a compile sees the same options whether the
defaults were added yet or not (the CLI compiles without adding them).

With ``plugins: [search, beliefbase]`` and nothing else, MkDocs converts pages
with ``toc``, ``tables`` and ``fenced_code`` only.  Each extension below is
added unless mkdocs.yml already lists it or an alternative to it; a listed
extension keeps the user's ``mdx_configs``.  ``markdown_defaults: false`` adds
none of them.

Each choice, and why (the table in docs/ says the same to users):

* ``footnotes``: Obsidian renders ``[^1]`` footnotes.
* ``admonition`` and ``pymdownx.details``: Obsidian's callouts are ours already;
  these keep MkDocs' ``!!! note`` / ``??? note`` working for sites that mix.
* ``pymdownx.superfences``: fenced code inside lists and quotes, as Obsidian
  shows it; its ``mermaid`` fence shows the diagram's source with a note
  (the site's ``obsidian_markdown.mermaid_source``): no Mermaid renderer ships
  offline and Material would fetch one from a CDN for ``pre.mermaid``.  Not with
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

from collections.abc import Sequence
from typing import Any

from .config import BeliefbaseConfig
from .obsidian import ObsidianSettings

# Extensions that bundle others (what they include counts as configured).
BUNDLES: dict[str, tuple[str, ...]] = {
    "extra": ("footnotes", "attr_list", "md_in_html", "tables", "abbr", "def_list",
              "fenced_code"),
    "pymdownx.extra": ("footnotes", "attr_list", "md_in_html", "tables", "abbr", "def_list",
                       "pymdownx.superfences", "pymdownx.betterem"),
}

#: the class of the ``mermaid`` fence: the site gives it its formatter
MERMAID_CLASS = "bb-mermaid"

#: (extension, its configuration, extensions that replace it)
DEFAULTS: tuple[tuple[str, dict[str, Any], tuple[str, ...]], ...] = (
    ("footnotes", {}, ()),
    ("admonition", {}, ()),
    ("pymdownx.details", {}, ()),
    ("pymdownx.superfences", {"custom_fences": [
        {"name": "mermaid", "class": MERMAID_CLASS},
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


def configured(extensions: Sequence[Any]) -> set[str]:
    """The names of ``extensions`` and of the ones they bundle."""
    names = {extension_name(e) for e in extensions}
    for bundle, parts in BUNDLES.items():
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


def missing_defaults(extensions: Sequence[Any], plugin_config: BeliefbaseConfig
                     ) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The defaults ``extensions`` lacks, in order, with their options (none with
    ``markdown_defaults: false``; the user's own choice, or its alternative, wins)."""
    if not plugin_config.markdown_defaults:
        return ()
    present = configured(extensions)
    return tuple((name, options) for name, options, replaced_by in DEFAULTS
                 if name not in present and not present.intersection(replaced_by))


def wants_nl2br(extensions: Sequence[Any], plugin_config: BeliefbaseConfig,
                settings: ObsidianSettings) -> bool:
    """Must ``nl2br`` be added (a single newline is a line break, and it is not listed)?"""
    return line_breaks(plugin_config, settings) and "nl2br" not in configured(extensions)

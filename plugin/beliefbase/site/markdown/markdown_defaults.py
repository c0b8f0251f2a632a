"""The Markdown defaults a vault needs, added to an MkDocs config with the site's objects.

Which extensions, with which options, and why: ``markdown_policy.py`` (below the
site; the compile reads the same names).  Here the policy is applied, at
``on_config`` (before MkDocs builds any Markdown instance, and before our own
extensions are appended): the ``mermaid`` fence of ``pymdownx.superfences`` gets
its formatter (``obsidian_markdown.mermaid_source``), and our
``ObsidianMarkdownExtension`` comes after the defaults, ``nl2br`` last.
"""

from __future__ import annotations

from typing import Any

from ...config import BeliefbaseConfig
from ...markdown_policy import DEFAULTS as POLICY
from ...markdown_policy import MERMAID_CLASS, line_breaks, missing_defaults, wants_nl2br
from ...obsidian import ObsidianSettings
from .obsidian_markdown import ObsidianMarkdownExtension, mermaid_source

__all__ = ["DEFAULTS", "add_markdown_defaults", "line_breaks"]

#: the site's formatter of each custom fence the policy names (by its class)
_FENCE_FORMATS = {MERMAID_CLASS: mermaid_source}


def _bound(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with each custom fence's formatter (a copy: the policy stays as is)."""
    if "custom_fences" not in options:
        return options
    fences = [{**fence, "format": _FENCE_FORMATS[fence["class"]]}
              for fence in options["custom_fences"]]
    return {**options, "custom_fences": fences}


#: the policy's (extension, its configuration, extensions that replace it), as the
#: site configures them (the Mermaid fence with its formatter)
DEFAULTS: tuple[tuple[str, dict[str, Any], tuple[str, ...]], ...] = tuple(
    (name, _bound(options), replaced_by) for name, options, replaced_by in POLICY)
_OPTIONS = {name: options for name, options, _ in DEFAULTS}


def add_markdown_defaults(config: Any, plugin_config: BeliefbaseConfig,
                          settings: ObsidianSettings) -> list[str]:
    """Add the default extensions to an MkDocs ``config``; returns the names added.

    Idempotent: a second call (a build's ``on_config`` runs again under serve)
    finds them listed and adds nothing.
    """
    extensions: list[Any] = config.markdown_extensions
    mdx_configs: dict[str, Any] = config.mdx_configs
    nl2br = wants_nl2br(extensions, plugin_config, settings)
    added: list[str] = []
    for name, _policy in missing_defaults(extensions, plugin_config):
        extensions.append(name)
        mdx_configs[name] = {k: list(v) if isinstance(v, list) else v
                             for k, v in _OPTIONS[name].items()}
        added.append(name)
    if plugin_config.markdown_defaults and not any(
            isinstance(e, ObsidianMarkdownExtension) for e in extensions):
        extensions.append(ObsidianMarkdownExtension())
    if nl2br:
        extensions.append("nl2br")
        added.append("nl2br")
    return added

"""``beliefbase doctor``: what will and will not run the plugin, here and for this project.

The MkDocs platform under the plugin is moving: MkDocs 1.6 is the last 1.x release,
MkDocs 2 has no plugin system, Zensical (Material's successor) ignores third-party
MkDocs plugins, and ProperDocs, a drop-in fork of MkDocs 1.x, loads them.  A host
that drops the plugin builds a site without a word: no wikilinks, backlinks,
graph or queries.  This module reads the installed packages and ``mkdocs.yml``
(never imports a host, never builds) and says which command builds the site.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

import yaml

Level = Literal["ok", "info", "warning", "error"]

#: the distributions a report reads (their versions, None: not installed)
PACKAGES = ("mkdocs", "properdocs", "zensical", "mkdocs-material")


@dataclass(frozen=True, slots=True)
class Finding:
    level: Level
    text: str

    def __str__(self) -> str:
        return f"{self.level}: {self.text}"


@dataclass(frozen=True, slots=True)
class Report:
    findings: tuple[Finding, ...]
    runners: tuple[str, ...]  # the hosts whose `build` makes the site with the plugin
    project_ok: bool  # mkdocs.yml lists the plugin, and all it names is installed

    @property
    def ok(self) -> bool:
        """Some host here builds this project with the plugin."""
        return bool(self.runners) and self.project_ok

    def summary(self) -> str:
        if self.ok:
            return "beliefbase builds this site with: " + ", ".join(
                f"`{r} build`" for r in self.runners)
        if not self.runners:
            return "nothing installed here builds this site with beliefbase"
        return "fix the errors above: the build would stop or leave beliefbase out"


def installed_versions(names: Iterable[str] = PACKAGES) -> dict[str, str | None]:
    """Each distribution's installed version, None when it is not installed."""
    found: dict[str, str | None] = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def _major_minor(version: str) -> tuple[int, int]:
    m = re.match(r"(\d+)(?:\.(\d+))?", version)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else (0, 0)


def hosts(versions: Mapping[str, str | None]) -> tuple[list[Finding], list[str]]:
    """What each installed host does with the plugin; the commands that run it."""
    found: list[Finding] = []
    runners: list[str] = []
    mkdocs = versions.get("mkdocs")
    if mkdocs is None:
        found.append(Finding("info", "MkDocs is not installed"))
    elif _major_minor(mkdocs) >= (2, 0):
        found.append(Finding("error", f"MkDocs {mkdocs} has no plugin system: `mkdocs build` "
                             "would make the site without beliefbase. Install "
                             "'mkdocs>=1.6,<2', or build with ProperDocs"))
    elif _major_minor(mkdocs) < (1, 6):
        found.append(Finding("error", f"MkDocs {mkdocs} is older than 1.6, which beliefbase "
                             "needs: install 'mkdocs>=1.6,<2'"))
    else:
        found.append(Finding("ok", f"MkDocs {mkdocs} runs beliefbase: `mkdocs build`, "
                             "`mkdocs serve`"))
        runners.append("mkdocs")
    properdocs = versions.get("properdocs")
    if properdocs is not None:
        if _major_minor(properdocs) >= (2, 0):
            found.append(Finding("warning", f"ProperDocs {properdocs} is not the MkDocs 1.x "
                                 "fork beliefbase is tested with (1.6)"))
        else:
            found.append(Finding("ok", f"ProperDocs {properdocs} (a drop-in fork of MkDocs "
                                 "1.x) runs beliefbase: `properdocs build -f mkdocs.yml`, "
                                 "`properdocs serve -f mkdocs.yml`"))
            runners.append("properdocs")
    zensical = versions.get("zensical")
    if zensical is not None:
        found.append(Finding("warning", f"Zensical {zensical} is installed: it ignores "
                             "third-party MkDocs plugins, so `zensical build` makes the site "
                             "without beliefbase (no wikilinks, backlinks, graph or queries). "
                             "Build with " + (" or ".join(f"`{r} build`" for r in runners)
                                              or "MkDocs 1.6 or ProperDocs")))
    if versions.get("mkdocs-material") is None:
        found.append(Finding("warning", "Material for MkDocs is not installed: the theme "
                             "beliefbase's pages are made for (pip install mkdocs-material)"))
    if not runners:
        found.append(Finding("error", "nothing installed here runs beliefbase: install "
                             "'mkdocs>=1.6,<2' or 'properdocs'"))
    return found, runners


class _Loader(yaml.SafeLoader):  # type: ignore[misc]
    """mkdocs.yml's YAML, its tags (``!ENV``, ``!!python/name:``) read as plain values."""


def _any_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)


_Loader.add_multi_constructor("!", _any_tag)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _any_tag)


def _names(entries: Any) -> list[str]:
    """The names in a ``plugins`` or ``markdown_extensions`` list (or mapping)."""
    if isinstance(entries, dict):
        return [str(k) for k in entries]
    names: list[str] = []
    for entry in entries or ():
        if isinstance(entry, str):
            names.append(entry)
        elif isinstance(entry, dict):
            names += [str(k) for k in entry]
    return names


def _plugin_names() -> set[str]:
    groups = ("mkdocs.plugins", "properdocs.plugins")
    return {ep.name for group in groups for ep in metadata.entry_points(group=group)}


def _extension_found(name: str) -> bool:
    module = name.partition(":")[0]
    candidates = (module, f"markdown.extensions.{module}") if "." not in module else (module,)
    for candidate in candidates:
        try:
            if importlib.util.find_spec(candidate) is not None:
                return True
        except (ImportError, ValueError):
            continue
    return False


def project(config_file: Path, plugins: Callable[[], set[str]] = _plugin_names,
            extension_found: Callable[[str], bool] = _extension_found) -> list[Finding]:
    """What ``mkdocs.yml`` asks for, and whether it is there."""
    found: list[Finding] = []
    try:
        config = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 - a SafeLoader
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        return [Finding("error", f"{config_file}: cannot be read ({type(error).__name__}: "
                        f"{str(error).splitlines()[0] if str(error) else ''})")]
    if not isinstance(config, dict):
        return [Finding("error", f"{config_file}: not a YAML mapping")]
    listed = _names(config.get("plugins", ["search"]))
    if "beliefbase" not in listed:
        found.append(Finding("error", f"{config_file.name} does not list beliefbase under "
                             "plugins: add `plugins: [search, beliefbase]`"))
    else:
        found.append(Finding("ok", f"{config_file.name} lists beliefbase under plugins"))
    known = plugins() | {"search"}
    for name in listed:
        if name not in known:
            found.append(Finding("error", f"the plugin {name!r} of {config_file.name} is not "
                                 "installed: the build stops there (pip install it, or remove "
                                 "it from plugins)"))
    theme = config.get("theme")
    theme_name = theme.get("name") if isinstance(theme, dict) else theme
    if theme_name != "material":
        found.append(Finding("info", f"theme {theme_name!r}: beliefbase's pages and panels "
                             "are made for Material (theme: material); with another theme "
                             "some of them may look plain"))
    for name in _names(config.get("markdown_extensions")):
        if not extension_found(name):
            found.append(Finding("error", f"the Markdown extension {name!r} of "
                                 f"{config_file.name} is not installed: the build stops there"))
    folder = config_file.parent
    for other in ("zensical.toml", "properdocs.yml", "properdocs.yaml"):
        if (folder / other).is_file():
            level: Level = "warning" if other == "zensical.toml" else "info"
            what = ("Zensical reads it and builds the site without beliefbase"
                    if other == "zensical.toml" else
                    "`properdocs build` reads it before mkdocs.yml (pass -f mkdocs.yml)")
            found.append(Finding(level, f"{other} is next to {config_file.name}: {what}"))
    return found


def report(config_file: Path | None, versions: Mapping[str, str | None] | None = None) -> Report:
    """The findings about the hosts installed here and about ``config_file``."""
    found, runners = hosts(installed_versions() if versions is None else versions)
    mine = ([Finding("error", "no mkdocs.yml here (pass -f PATH)")] if config_file is None
            else project(config_file))
    return Report((*found, *mine), tuple(runners),
                  not any(f.level == "error" for f in mine))

"""The Obsidian Bases file codec: a ``*.base`` file (YAML) as a document.

A base is a page of its own (``X.base/``), found by ``[[X.base]]`` and embedded
by ``![[X.base]]``.  This codec only makes its ``ParsedDoc``: the YAML is read,
checked and evaluated by the ``bases`` engine when the site renders it
(``site/dashboards.py``), which reports ``base-error`` at file:line; a base has no
links of its own (its results link, not the file).

Its named views are its headings, each with the id its tab has on the base's page
(``view_ids``): ``[[X.base#Shelf]]`` links to that tab, and a link to a view the
base does not have is an ``unresolved-anchor`` diagnostic, as for a note's heading.
"""

from __future__ import annotations

import re

import yaml

from .. import diagnostics as diag
from ..ids import SrcPath
from .markdown import decode, digest
from .model import Heading, ParsedDoc

_NOT_ID = re.compile(r"[^\w-]+")
#: A base's file is small; a larger one is not read for its views' names here (the
#: engine reports what is wrong with it when the site renders it).
_MAX_TEXT = 1 << 20
_NULL = "tag:yaml.org,2002:null"


def parse_base_file(path: SrcPath, data: bytes, display: str) -> ParsedDoc:
    """A ``.base`` file as a document of kind ``base`` (no links, no frontmatter; its
    named views as headings)."""
    text, utf8 = decode(data)
    found: list[diag.Diagnostic] = []
    if not utf8:
        found.append(diag.make("bad-encoding", display, 1, 1,
                               "the file is not valid UTF-8 (re-save it as UTF-8)"))
    return ParsedDoc(path=path, kind="base", digest=digest(data), headings=view_headings(text),
                     line_count=text.count("\n") + 1, diagnostics=tuple(found))


def view_name(written: str | None, index: int) -> str:
    """A view's name: as written, or "View N" (N from 1) when it has none: the one rule
    for the Bases engine (``bases.model``) and this codec's headings."""
    return written or f"View {index + 1}"


def view_ids(names: list[str]) -> list[str]:
    """Unique element ids for a base's views on its page, from their names (a link
    to ``#bb-view-shelf`` selects that tab with Material's script), numbered where
    a name gives none or repeats one."""
    ids: list[str] = []
    for index, name in enumerate(names, 1):
        slug = _NOT_ID.sub("-", name.casefold()).strip("-_") or str(index)
        candidate, n = f"bb-view-{slug}", 1
        while candidate in ids:
            n += 1
            candidate = f"bb-view-{slug}-{n}"
        ids.append(candidate)
    return ids


def view_headings(text: str) -> tuple[Heading, ...]:
    """The base's views as level-2 headings, named as the engine names them (its
    ``name``, else "View N") at their lines, with their tabs' ids; none when the
    YAML does not read (the engine says why when the page renders)."""
    if len(text) > _MAX_TEXT:
        return ()
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return ()
    views = _value(root, "views")
    if not isinstance(views, yaml.SequenceNode):
        return ()
    names: list[tuple[str, int, int]] = []
    for index, view in enumerate(views.value):
        if not isinstance(view, yaml.MappingNode):
            continue  # not a view (the engine says so)
        name = _value(view, "name")
        written = name.value if isinstance(name, yaml.ScalarNode) and name.tag != _NULL \
            else None
        # an unnamed view's heading is at the view's first line
        at = (name if written and name is not None else view).start_mark
        names.append((view_name(written, index), at.line + 1, at.column + 1))
    ids = view_ids([name for name, _, _ in names])
    return tuple(Heading(2, name, ids[k], line, column)
                 for k, (name, line, column) in enumerate(names))


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """A mapping node's value for ``key`` (the last, as YAML's loaders keep it)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            found = v
    return found

"""The explorer: a folder/note tree for large knowledge bases, built once per site.

MkDocs-Material renders the whole navigation tree into every page, so a build
grows with pages × pages (minutes for a few thousand notes; docs/develop/speed.md).
With ``explorer: true`` the theme's ``partials/nav.html`` is replaced
(``theme/overrides/``) by a small container; the tree is written once to
``_beliefbase/explorer.json`` and rendered in the browser by ``explorer.js``
(current note revealed, folders collapsible, a filter box).  Without
JavaScript, every page still has its breadcrumbs and a link to the "All notes"
page, which lists the same tree as plain HTML.

The tree follows the folders of docs_dir: a folder's label is the title of its
``index.md``/``README.md`` if it has one, else its name; folders come before
notes, each sorted by label.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from ..builder.documents import Document, page_path
from ..compile.compiled import Compiled
from ..ids import is_index_name, normalize_name

EXPLORER_JSON = "explorer.json"
EXPLORER_VERSION = 1


@dataclass
class Folder:
    path: str  # "" for the root
    label: str
    url: str | None = None  # the folder's index note, if any
    folders: dict[str, Folder] = field(default_factory=dict)
    notes: list[Document] = field(default_factory=list)


def build_tree(compiled: Compiled) -> Folder:
    """Every published page, by folder."""
    root = Folder("", compiled.options.site_name or "Home")
    for doc in compiled.published.values():
        if doc.url is None:
            continue
        source = page_path(doc.parsed)
        folder = _folder(root, posixpath.dirname(source))
        if is_index_name(source):
            folder.url = doc.url
            if folder.path:
                folder.label = doc.title
            else:
                root.url = doc.url
        else:
            folder.notes.append(doc)
    return root


def _folder(root: Folder, path: str) -> Folder:
    node = root
    walked = ""
    for part in path.split("/") if path else []:
        walked = f"{walked}/{part}" if walked else part
        node = node.folders.setdefault(part, Folder(walked, part))
    return node


def explorer_json(tree: Folder) -> dict[str, Any]:
    """The compact tree the browser renders: ``[label, url, children]`` per folder."""
    return {"version": EXPLORER_VERSION, "root": _node(tree)}


def _node(folder: Folder) -> list[Any]:
    children: list[Any] = [
        _node(sub) for sub in sorted(folder.folders.values(), key=lambda f: _key(f.label))
    ]
    children += [
        [doc.title, doc.url]
        for doc in sorted(folder.notes, key=lambda d: (_key(d.title), d.path))
    ]
    return [folder.label, folder.url, children]


def _key(label: str) -> str:
    return normalize_name(label)


def breadcrumbs(tree: Folder, doc: Document) -> list[dict[str, str | None]]:
    """The folders above ``doc``, each ``{label, url}`` (url: the folder's index note)."""
    source = page_path(doc.parsed)
    folder_path = posixpath.dirname(source)
    if is_index_name(source):
        folder_path = posixpath.dirname(folder_path)  # an index note sits in its folder
        if not posixpath.dirname(source):
            return []
    crumbs: list[dict[str, str | None]] = [{"label": tree.label, "url": tree.url}]
    node = tree
    for part in folder_path.split("/") if folder_path else []:
        node = node.folders.get(part) or Folder(part, part)
        crumbs.append({"label": node.label, "url": node.url})
    return crumbs


def flat_index(tree: Folder) -> list[dict[str, Any]]:
    """The tree as nested lists for the "All notes" page template."""
    return _flat(tree)["children"]  # type: ignore[no-any-return]


def _flat(folder: Folder) -> dict[str, Any]:
    return {
        "label": folder.label,
        "url": folder.url,
        "children": [_flat(sub) for sub in sorted(folder.folders.values(),
                                                  key=lambda f: _key(f.label))]
        + [{"label": d.title, "url": d.url, "children": []}
           for d in sorted(folder.notes, key=lambda d: (_key(d.title), d.path))],
    }

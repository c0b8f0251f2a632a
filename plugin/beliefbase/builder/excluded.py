"""Files that exist but are left out of the site, by the name a link would use.

A link to a note in the templates folder, in Obsidian's excluded files or in
``exclude_docs`` matches no published note; its message says which exclusion
left the file out instead of "create the note" (the file is there).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ..frozen import FrozenDict
from ..ids import normalize_name


class Excluded:
    """Source path -> why it is left out, looked up by a link's target."""

    def __init__(self, reasons: Mapping[str, str]) -> None:
        self.reasons = FrozenDict(sorted(reasons.items()))
        names: dict[str, str] = {}
        for path in self.reasons:
            for key in _keys(path):
                names.setdefault(key, path)  # the first by path, like the resolver's order
        self._names = FrozenDict(names)

    def find(self, target: str) -> tuple[str, str] | None:
        """(path, reason) of the excluded file ``target`` names, or None."""
        if not self._names:
            return None
        key = normalize_name(target.strip().lstrip("/"))
        for form in (key, key + ".md", posixpath.basename(key),
                     posixpath.basename(key) + ".md"):
            path = self._names.get(form)
            if path is not None:
                return path, self.reasons[path]
        return None


def _keys(path: str) -> tuple[str, ...]:
    """A file's path and base name, each also without ``.md``."""
    key = normalize_name(path)
    base = posixpath.basename(key)
    return (key, base)


NONE = Excluded({})

"""MkDocs' link conversion done once per page and link.

MkDocs converts every ``<a href>`` and ``<img src>`` of a page in
``_RelativePathTreeprocessor.path_to_url`` (a source path becomes a URL relative to
the page): a ``urlsplit``, a normalised path, a look-up in the site's files and a
relative URL, about 25 µs each.  Our wikilinks and tags are such links, and a note
that links the same note or tag thousands of times (issue 20's 5 MB note: 200,000
links to two targets) spent a sixth of its build there.  The processor is made anew
for each page; ``path_to_url`` is memoised on it, for the URLs whose conversion
logged nothing (a broken link's warning is logged at each occurrence, as before).
Its other effect, registering a link's anchor for MkDocs' anchor validation, is a
``setdefault`` that a second call with the same URL would repeat to no effect.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

#: MkDocs' own ``path_to_url``, while ours is installed
_original: Callable[[Any, str], str] | None = None


class _Counter(logging.Filter):
    """Counts the records ``mkdocs.structure.pages`` logs (letting all through)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        self.count += 1
        return True


_COUNTER = _Counter()


def install() -> None:
    """Memoise ``path_to_url`` on each page's processor (once per process)."""
    global _original
    from mkdocs.structure import pages

    if _original is not None:
        return
    original = pages._RelativePathTreeprocessor.path_to_url
    logger = logging.getLogger(pages.__name__)

    def path_to_url(self: Any, url: str) -> str:
        memo: dict[str, str] | None = self.__dict__.get("_bb_urls")
        if memo is None:
            memo = self.__dict__["_bb_urls"] = {}
        known = memo.get(url)
        if known is not None:
            return known
        before = _COUNTER.count
        converted = original(self, url)
        if _COUNTER.count == before:  # nothing logged: the same answer, silently, next time
            memo[url] = converted
        return converted

    logger.addFilter(_COUNTER)
    _original = original
    pages._RelativePathTreeprocessor.path_to_url = path_to_url  # type: ignore[method-assign]


def uninstall() -> None:
    global _original
    if _original is None:
        return
    from mkdocs.structure import pages

    pages._RelativePathTreeprocessor.path_to_url = _original  # type: ignore[method-assign, assignment]
    logging.getLogger(pages.__name__).removeFilter(_COUNTER)
    _original = None

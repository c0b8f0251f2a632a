"""Converted pages' HTML kept on disk until the theme renders them (``PageSpill``).

MkDocs converts every page before it renders the first template, and holds each
page's HTML meanwhile: at 5,000 notes 42 MB through the panels made ahead
(``panels_ahead``), the build's peak, where it counts in the sum of both
processes' memory.  When no plugin of the site reads a page's HTML between its
conversion and its ``on_page_context`` (``build.pages_read_once``: ours and a
search plugin, which reads it at ``on_page_context``), the last ``on_page_content``
hook writes it to an unnamed temporary file and leaves ``""`` on the page (not
``None``: MkDocs would take the page for one not converted), and the first
``on_page_context`` hook puts it back: the same text, so the same site.
"""

from __future__ import annotations

import os
import tempfile

#: what the HTML is written as: every ``str``, lone surrogates included, round-trips
_ENCODING, _ERRORS = "utf-8", "surrogatepass"


class PageSpill:
    """Each page's HTML by its ``src_uri``, in a temporary file until taken back once."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="beliefbase-html-")  # noqa: SIM115 - close()
        self._where: dict[str, tuple[int, int]] = {}  # src_uri -> (offset, length)
        self._end = 0

    def __len__(self) -> int:
        return len(self._where)

    def put(self, src_uri: str, html: str) -> bool:
        """Keep ``html`` on disk; False (nothing kept) when it cannot be written."""
        data = memoryview(html.encode(_ENCODING, _ERRORS))
        offset, length = self._end, len(data)
        try:
            while data:
                written = os.pwrite(self._file.fileno(), data, self._end)
                data, self._end = data[written:], self._end + written
        except (OSError, ValueError):
            return False  # no room: the page keeps its HTML in memory
        self._where[src_uri] = (offset, length)
        return True

    def take(self, src_uri: str) -> str | None:
        """The HTML kept for ``src_uri`` (once), or None when none was."""
        where = self._where.pop(src_uri, None)
        if where is None:
            return None
        offset, length = where
        parts = []
        while length > 0:
            part = os.pread(self._file.fileno(), length, offset)
            if not part:
                raise OSError(f"the HTML of {src_uri} is missing from its file")
            parts.append(part)
            offset, length = offset + len(part), length - len(part)
        return b"".join(parts).decode(_ENCODING, _ERRORS)

    def close(self) -> None:
        self._where.clear()
        self._file.close()

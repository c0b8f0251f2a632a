"""Writing the site's generated files: whole or not at all (``atomic.py``).

A file is written next to its final name and moved into place, so a browser
reloading during ``mkdocs serve`` never reads half a ``graph.json``.
"""

from __future__ import annotations

from ..atomic import write_bytes, write_chunks, write_text

__all__ = ["write_bytes", "write_chunks", "write_text"]

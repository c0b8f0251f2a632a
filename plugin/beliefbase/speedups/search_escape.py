"""Material's search index escaped (and merged after ``--dirty``) in memory.

Replaces the ``generate_search_index`` method of the search plugin's
``SearchIndex`` instance for one build, so the strings that came from our
frontmatter are escaped before the theme writes the index, instead of
reading, parsing and writing the written file again (the largest file of a build).
Off (``speedups: false``, or a Material release outside the gate), the plugin
fixes the written file instead (``site.search_index.fix_search_index``), with
the same result.

In a one-off build the JSON is put together entry by entry (``IndexBytes``), the
bytes Material's own ``json.dumps`` and our escape would make: the whole text at
once, then its escaped copies, then its encoding held three copies of the largest
file of a build together with the encoder's pieces (5,000 notes: a 34 MB index,
about 110 MB more at the build's peak).  Nor are they held together: Material's
``on_post_build`` calls ``generate_search_index``, ``encode`` on what it returns,
and ``mkdocs.utils.write_file`` with that, one line after the other; our
``generate_search_index`` swaps ``write_file`` for one that writes our index
into the file a buffer at a time and puts itself back (``_stream_into_write``);
any other content goes to the ``write_file`` it replaced.  (Made into one buffer
first, the index was the build's last peak: 34 MB at 5,000 notes.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import mkdocs.utils

from ..html_json import html_safe
from ..search_index import (
    DirtyMerge,
    EntryTexts,
    IndexBytes,
    index_bytes,
    is_material_index,
    merged_and_escaped_entries,
)


def escape_before_writing(
    plugins: Mapping[str, Any],
    strings: Callable[[], Mapping[str, tuple[str, tuple[str, ...]]]],
    dirty: Callable[[bool], DirtyMerge] | None = None,
    texts: EntryTexts | None = None,
) -> bool:
    """Escape (and after a ``--dirty`` rebuild, merge) Material's search index in
    memory, just before the theme writes it.

    Saves reading, parsing and writing the index once or twice more.  The merge
    starts from the entries Material kept of the last build, or — on the first dirty
    build of a process — from the file the last build left, still unwritten at this
    point.  False when the site has no Material search plugin to hook into (the
    caller then fixes the written file). With ``texts`` (under ``mkdocs serve``) the
    JSON is put together from each entry's text, kept from the last rebuild for
    entries it did not change.
    """
    for plugin in plugins.values():
        index = getattr(plugin, "search_index", None)
        generate = getattr(index, "generate_search_index", None)
        if (index is None or generate is None
                or not isinstance(getattr(index, "entries", None), list)):
            continue

        def merged_and_escaped(prev: Any = None, *args: Any, _index: Any = index,
                               _generate: Any = generate, **kwargs: Any) -> Any:
            previous, merge = None, None
            if dirty is not None:
                previous = getattr(prev, "entries", None)
                if previous is None and texts is not None:
                    # plain serve rebuilt dirty: the theme kept nothing, these are
                    # what it wrote last
                    previous = texts.last
                merge = dirty(previous is None)  # read the last file only without them
                if previous is None and merge.previous is not None:
                    previous = merge.previous.get("docs", [])
                prev = None  # merged here: Material must not merge again
            if texts is not None and prev is None and not args and not kwargs and is_material_index(
                    _index):
                _index.entries = texts.merged_and_escaped(previous, _index.entries, merge,
                                                          strings())
                return texts.index_json(_index.config)
            _index.entries = merged_and_escaped_entries(previous, _index.entries, merge,
                                                        strings())
            if prev is None and not args and not kwargs and is_material_index(_index):
                return _stream_into_write(index_bytes(_index.config, _index.entries))
            generated = _generate(prev, *args, **kwargs)
            return html_safe(generated) if isinstance(generated, str) else generated

        index.generate_search_index = merged_and_escaped
        return True
    return False


class _StreamingWrite:
    """``mkdocs.utils.write_file`` until ``index`` is written: ``index`` streamed into
    its file (and the ``write_file`` it replaced put back), anything else handed on."""

    def __init__(self, index: IndexBytes, replaced: Callable[[bytes, str], None]) -> None:
        self.index = index
        self.replaced = replaced

    def __call__(self, content: Any, output_path: str) -> None:
        if content is not self.index:
            self.replaced(content, output_path)
            return
        unstream()
        content.write(Path(output_path))


def _stream_into_write(index: IndexBytes) -> IndexBytes:
    """``index``, to be written by the next ``write_file`` of it without being made
    into one buffer first (``IndexBytes.streamed``)."""
    unstream()
    mkdocs.utils.write_file = _StreamingWrite(index, mkdocs.utils.write_file)
    index.streamed = True
    return index


def unstream() -> None:
    """``mkdocs.utils.write_file`` put back if an index never written still holds it
    (its ``encode`` gives bytes from now on)."""
    swapped = mkdocs.utils.write_file
    if isinstance(swapped, _StreamingWrite):
        swapped.index.streamed = False
        mkdocs.utils.write_file = swapped.replaced  # type: ignore[assignment]

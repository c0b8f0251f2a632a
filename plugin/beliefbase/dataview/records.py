"""``PageRecord``: what the engine knows of one note, and ``record_from_markdown``
to build one from a note's path, frontmatter and body.

A record is frozen and holds raw facts (path, frontmatter, inline fields, list
items, tags, links, times); ``index.DataviewIndex`` turns records into the rows
queries read (``file.*`` implicit fields, typed page fields, inlinks).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..builder.documents import frontmatter_tags
from ..codecs.markdown import tag_names
from ..codecs.mask import code_regions, mask
from ..compile.vault_files import link_path
from ..frozen import FrozenDict
from .inline_fields import InlineField, extract_inline_fields
from .items import ListItem, extract_items
from .values import MAX_NESTING, freeze_value

if TYPE_CHECKING:
    from ..compile.compiled import Compiled
    from ..compile.vault_files import VaultFiles

_WIKILINK = re.compile(r"!?\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|[^\[\]\n]*)?\]\]")


@dataclass(frozen=True, slots=True)
class PageRecord:
    """One note as Dataview sees it.

    ``path`` is the vault path with its extension (``Games/Stardew Valley.md``);
    ``tags`` the explicit tags with their ``#`` (frontmatter and body, in order,
    unique); ``outlinks`` the link targets as written (resolved by the index);
    ``items`` the top-level list items and tasks (each with its children)."""

    path: str
    frontmatter: Mapping[str, Any] = field(default_factory=FrozenDict)
    inline_fields: tuple[InlineField, ...] = ()
    items: tuple[ListItem, ...] = ()
    tags: tuple[str, ...] = ()
    outlinks: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    size: int = 0
    ctime: dt.datetime | None = None
    mtime: dt.datetime | None = None
    starred: bool = False


def frontmatter_aliases(meta: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("aliases", "alias"):
        value = meta.get(key)
        items = value if isinstance(value, list | tuple) else ([value] if value else [])
        out.extend(str(v) for v in items if v is not None)
    return out


def is_frozen(value: Any, depth: int = 0, seen: set[int] | None = None) -> bool:
    """Whether ``freeze_value(value)`` would equal ``value``: tuples and
    ``FrozenDict``s with string keys all the way down, within ``MAX_NESTING``
    (the compile's frontmatter is such a value: shared, not copied).  A container
    met again is not walked again: YAML aliases share values, and an alias bomb
    walked reference by reference is exponential."""
    if isinstance(value, tuple | FrozenDict):
        seen = set() if seen is None else seen
        if id(value) in seen:
            return True
        seen.add(id(value))
        if depth > MAX_NESTING:
            return False
        if isinstance(value, tuple):
            return all(is_frozen(v, depth + 1, seen) for v in value)
        return all(type(k) is str and is_frozen(v, depth + 1, seen) for k, v in value.items())
    return not isinstance(value, list | Mapping)


def record_from_markdown(
    path: str,
    body: str,
    frontmatter: Mapping[str, Any] | None = None,
    *,
    first_line: int = 1,
    size: int | None = None,
    ctime: dt.datetime | None = None,
    mtime: dt.datetime | None = None,
    tags: tuple[str, ...] | None = None,
    outlinks: tuple[str, ...] | None = None,
    fields: tuple[InlineField, ...] | None = None,
) -> PageRecord:
    """A record from a note's parts.  ``body`` is the Markdown after the
    frontmatter, starting at file line ``first_line``; tags, links and inline
    fields are read from the body (outside code) unless given (the compile has
    them: ``records_from_compiled``)."""
    meta = frontmatter or {}
    masked = None
    if tags is None or outlinks is None or fields is None:
        masked = mask(body, code_regions(body))
    if tags is None:
        assert masked is not None
        found = ["#" + t for t in (*frontmatter_tags(meta), *tag_names(masked))]
        tags = tuple(dict.fromkeys(found))
    if outlinks is None:
        assert masked is not None
        outlinks = tuple(t.strip() for t in _WIKILINK.findall(masked) if t.strip())
    if fields is None:
        fields = extract_inline_fields(body, first_line, masked=masked)
    return PageRecord(
        path=path,
        frontmatter=meta if is_frozen(meta) else freeze_value(dict(meta)),
        inline_fields=fields,
        items=extract_items(body, first_line, masked=masked, fields=fields),
        tags=tags,
        outlinks=outlinks,
        aliases=tuple(frontmatter_aliases(meta)),
        size=len(body.encode("utf-8", "surrogatepass")) if size is None else size,
        ctime=ctime,
        mtime=mtime,
    )


FileTimes = Callable[[str], tuple[dt.datetime | None, dt.datetime | None]]


def stat_times(docs_dir: str) -> FileTimes:
    """``file.ctime``/``file.mtime`` from the file system (creation time where the
    system keeps it, else the change time), local wall-clock time."""
    def times(path: str) -> tuple[dt.datetime | None, dt.datetime | None]:
        try:
            st = os.stat(os.path.join(docs_dir, path))
        except OSError:
            return (None, None)
        born = getattr(st, "st_birthtime", None) or st.st_ctime
        return (dt.datetime.fromtimestamp(born).replace(microsecond=0),
                dt.datetime.fromtimestamp(st.st_mtime).replace(microsecond=0))
    return times


def records_from_compiled(compiled: Compiled, read_text: Callable[[str], str],
                          file_times: FileTimes | None = None) -> tuple[PageRecord, ...]:
    """A record per published Markdown note of a compile (``records_from_files``)."""
    return records_from_files(compiled.vault_files(), read_text, file_times)


def records_from_files(files: VaultFiles, read_text: Callable[[str], str],
                       file_times: FileTimes | None = None,
                       kept: Mapping[str, PageRecord] | None = None) -> tuple[PageRecord, ...]:
    """A record per published Markdown note of the build's shared file records
    (``VaultFiles``, which Bases reads too; drafts and excluded files are never
    data).  ``read_text(path)`` gives a note's text (the site has it: list items
    and tasks are read from it); size, inline fields, tags, aliases and links
    come from the shared record (links resolved to vault paths by the compile);
    ``file_times`` defaults to the file system's times.  ``kept``: the last build's
    records of the notes whose shared record did not change (``mkdocs serve``), each
    used again when its file's times are the same too."""
    times = file_times or stat_times(files.docs_dir)
    kept = kept or {}
    out: list[PageRecord] = []
    for path, file in sorted(files.files.items()):
        doc = file.document
        if doc is None or not file.is_markdown:
            continue
        ctime, mtime = times(path)
        same = kept.get(path)
        if same is not None and same.ctime == ctime and same.mtime == mtime:
            out.append(same)
            continue
        text = read_text(path)
        body = text[doc.parsed.body_offset:]
        targets = tuple(link_path(link) or link.link.target for link in file.links
                        if not link.is_asset)
        record = record_from_markdown(
            path, body, file.meta, first_line=doc.parsed.body_line,
            size=file.size, ctime=ctime, mtime=mtime,
            tags=tuple("#" + t for t in file.tags),
            outlinks=tuple(t for t in targets if t),
            fields=file.inline_fields,
        )
        out.append(replace(record, aliases=file.aliases))
    return tuple(out)

"""``FileRecord``s from a compile: what a base sees of the vault.

Read from the build's shared file records (``compile.vault_files.VaultFiles``,
which Dataview reads too): every published document (notes and nodes) and
every attachment, never a draft.  Links and embeds are the document's resolved
links in source order (frontmatter links included, as the compile resolves
them); a link to a draft or to nothing keeps its text and no ``path``.  A link
in a property value gets its ``path`` here too, and every link a query makes
later is resolved the same way: by the compile's resolver
(``compile.vault_links``), relative to the note it is written in.
Dates come from ``dates`` (the site's note dates: frontmatter, git, file), else
the frontmatter's ``created``/``date`` and ``modified``/``updated``; no clock
and no git are read here, so records are a function of the compile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..compile.vault_files import VaultFiles, link_path
from ..frozen import FrozenDict
from .context import RecordSet, ResolveLink
from .values import Date, FileRecord, Link, to_value

if TYPE_CHECKING:
    from ..compile.compiled import Compiled

#: path -> (created, modified), each a date, a datetime or None
DatesOf = Callable[[str], tuple[Any, Any]]


def records_from_compiled(compiled: Compiled, dates: DatesOf | None = None) -> RecordSet:
    """The ``RecordSet`` of every published file of ``compiled``."""
    return records_from_files(compiled.vault_files(), dates)


def records_from_files(files: VaultFiles, dates: DatesOf | None = None,
                       kept: Mapping[str, FileRecord] | None = None) -> RecordSet:
    """The ``RecordSet`` of the build's shared file records (``VaultFiles``, which
    Dataview's index reads too): their values typed as Bases types them.  ``kept``:
    the last build's records of the files that did not change, by path, each used
    as it is (``mkdocs serve``: the caller says which, ``site.dashboard_data``)."""
    resolve_link = files.resolve
    records: list[FileRecord] = []
    # equal links are one object (a vault links to the same notes many times over)
    made: dict[tuple[str, Any, str | None], Link] = {}
    kept = kept or {}
    for path, file in files.files.items():
        same = kept.get(path)
        if same is not None:
            records.append(same)
            continue
        if file.document is None:
            created, modified = dates(path) if dates else (None, None)
            records.append(FileRecord(path=path, size=file.size,
                                      ctime=_date(created), mtime=_date(modified)))
            continue
        links: list[Link] = []
        embeds: list[Link] = []
        for resolved in file.links:
            ref = resolved.link
            if not ref.target:
                continue  # [[#Heading]]: a link inside the page itself
            key = (ref.target, ref.display, link_path(resolved))
            link = made.get(key)
            if link is None:
                link = made[key] = Link(*key)
            (embeds if ref.is_embed else links).append(link)
        created, modified = dates(path) if dates else _frontmatter_dates(file.meta)
        records.append(FileRecord(
            path=path, size=file.size,
            ctime=_date(created), mtime=_date(modified), tags=file.tags,
            links=tuple(links), embeds=tuple(embeds),
            backlinks=tuple(_self_link(made, b) for b in file.backlinks),
            properties=_properties(file.meta, path, resolve_link),
        ))
    return RecordSet(records, resolve_link)


def _self_link(made: dict[tuple[str, Any, str | None], Link], path: str) -> Link:
    link = made.get((path, None, path))
    if link is None:
        link = made[(path, None, path)] = Link(path, None, path)
    return link


def _properties(meta: Mapping[str, Any], path: str,
                resolve_link: ResolveLink) -> FrozenDict[str, Any]:
    """A note's properties as engine values, each link with the path the compile
    resolves it to from ``path``; the compile's frozen frontmatter itself when no
    value changes (no date, no link: shared, not copied)."""
    memo: dict[int, Any] = {}  # shared values converted once (to_value)
    linked: dict[int, Any] = {}
    values = {str(k): _resolved(to_value(v, memo), path, resolve_link, linked)
              for k, v in meta.items()}
    if isinstance(meta, FrozenDict) and all(
            type(k) is str and values[k] is v for k, v in meta.items()):
        return meta
    return FrozenDict(values)


def _resolved(value: Any, path: str, resolve_link: ResolveLink,
              memo: dict[int, Any]) -> Any:
    """``value`` with each unresolved link's ``path`` filled in (a container met again
    is walked once, ``memo``: YAML aliases share values)."""
    if isinstance(value, Link):
        if value.path is None and not value.is_external:
            found = resolve_link(value.target, path)
            return Link(value.target, value.display, found) if found else value
        return value
    if isinstance(value, tuple | FrozenDict):
        if id(value) not in memo:
            items: tuple[Any, ...] | FrozenDict[str, Any]
            if isinstance(value, tuple):
                items = tuple(_resolved(v, path, resolve_link, memo) for v in value)
                same = all(a is b for a, b in zip(items, value, strict=True))
            else:
                items = FrozenDict({k: _resolved(v, path, resolve_link, memo)
                                    for k, v in value.items()})
                same = all(items[k] is v for k, v in value.items())
            memo[id(value)] = value if same else items
        return memo[id(value)]
    return value


def _frontmatter_dates(meta: Mapping[str, Any]) -> tuple[Any, Any]:
    created = meta.get("created", meta.get("date"))
    modified = meta.get("modified", meta.get("updated"))
    return created, modified


def _date(value: Any) -> Date | None:
    if isinstance(value, str):
        from .dates import parse_date
        return parse_date(value)
    converted = to_value(value)
    return converted if isinstance(converted, Date) else None

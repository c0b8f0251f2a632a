"""The compile as the panels made ahead read it, packed apart from the build's heap.

The panels' burst (``panels_ahead``) forks a worker that shares this process's
heap until either writes to a page of it; CPython writes a reference count into
every object it reads, so each page of the heap that holds anything a panel reads
is copied while both live.  A note's documents, links, sentences and titles lie
in the pages of its parse among everything else the parse made, and the panels
read a few of each note's: at 5,000 ``gen_vault.py`` notes the burst's
processes copied about 150 MB of pages.

So, before the fork, this process packs what the panels read (each document's
title, URL, BID, aliases, the offset of its body and the digest of its text, the
titles of the headings links point to, every link with its sentence, the
unlinked mentions) into one pickle, in an unnamed temporary file.  This process
loads its index once, just before the burst's workers are forked, and every
process of the burst makes its panels from that copy, with features bound to it
(``SiteFeature.viewing``): they touch little of the compile's heap besides the
templates.  The index is a few MB; each note's part is loaded when asked for.
"""

from __future__ import annotations

import os
import pickle
import struct
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from ..builder.parallel import read_at, write_at
from ..ids import SrcPath
from .panels import shown_titles, titles_wikitext

if TYPE_CHECKING:
    from ..codecs.inline import WikiText
    from ..codecs.model import LinkRef
    from ..compile.compiled import Compiled
    from .feature import SiteFeature
    from .reader import mentions as mention


class ViewParsed(NamedTuple):
    """What the panels read of a document's parse."""

    kind: str
    digest: str
    body_offset: int


class ViewDoc(NamedTuple):
    """What the panels read of a ``Document``."""

    path: SrcPath
    title: str
    url: str | None
    bid: str
    aliases: tuple[str, ...]
    parsed: ViewParsed

    @property
    def kind(self) -> str:
        return self.parsed.kind


class ViewLink(NamedTuple):
    """What the backlinks panel reads of a ``ResolvedLink``."""

    link: LinkRef
    source: SrcPath
    status: str
    target: SrcPath | None
    anchor: str | None


class Stored(Mapping[SrcPath, Any]):
    """A table of the view whose values wait pickled in its file, each loaded when
    asked for (and not kept: its reader keeps what it needs)."""

    def __init__(self, fd: int, where: dict[SrcPath, tuple[int, int]]) -> None:
        self._fd = fd
        self._where = where

    def __getitem__(self, key: SrcPath) -> Any:
        offset, length = self._where[key]
        return pickle.loads(read_at(self._fd, offset, length))  # noqa: S301 - our own

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def __iter__(self) -> Iterator[SrcPath]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


class PanelView:
    """The ``Compiled`` the panels made ahead read: its documents as ``ViewDoc``;
    its backlinks (``ViewLink``), the unlinked mentions and the titles each note's
    links show (``titles``), each note's loaded from the view's file when asked for."""

    def __init__(self, documents: dict[SrcPath, ViewDoc], titles: Mapping[SrcPath, Any],
                 backlinks: Mapping[SrcPath, Any], mentions: Mapping[SrcPath, Any] | None
                 ) -> None:
        self.documents = documents
        self._titles = titles
        self._wikitexts: dict[SrcPath, WikiText] = {}
        self.backlinks = backlinks
        self.mentions = mentions

    def titles(self, path: SrcPath) -> WikiText:
        """``panels._titles`` of the note at ``path``, from the table ``pack`` made."""
        made = self._wikitexts.get(path)
        if made is None:
            made = self._wikitexts[path] = titles_wikitext(self._titles.get(path, {}))
        return made


class _Index(NamedTuple):
    """The view's file's last piece: what each process loads whole."""

    documents: dict[SrcPath, ViewDoc]
    titles: dict[SrcPath, tuple[int, int]]  # where each note's table of titles lies
    backlinks: dict[SrcPath, tuple[int, int]]
    mentions: dict[SrcPath, tuple[int, int]] | None


class _Appender:
    """Values pickled one after the other at the end of a file (another process may
    have written its first part)."""

    def __init__(self, file: IO[bytes]) -> None:
        self._fd = file.fileno()
        self._end = os.fstat(self._fd).st_size

    def put(self, value: Any) -> tuple[int, int]:
        data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        write_at(self._fd, data, self._end)
        at, self._end = self._end, self._end + len(data)
        return at, len(data)


def put_mentions(mentions: Mapping[SrcPath, mention.Mentions], file: IO[bytes]
                 ) -> dict[SrcPath, tuple[int, int]]:
    """Write each note's unlinked mentions to ``file``, for ``pack``: where each lies.
    In the child that found them (``SiteBuild.panel_view_steps``): loaded again by the
    one packing the rest, they were its largest part (5,000 ``gen_vault.py`` notes:
    about 35 MB)."""
    appender = _Appender(file)
    return {path: appender.put(m) for path, m in mentions.items()}


def pack(compiled: Compiled, mentions: dict[SrcPath, tuple[int, int]] | None,
         file: IO[bytes]) -> tuple[int, int]:
    """Write the ``PanelView`` of ``compiled`` to ``file``, after the mentions
    ``put_mentions`` wrote there (``mentions``: where each lies): where its index lies."""
    put = _Appender(file).put
    backlinks = {path: put(tuple(ViewLink(r.link, r.source, r.status, r.target, r.anchor)
                                 for r in found))
                 for path, found in compiled.backlinks.items()}
    titles = {path: put(shown_titles(compiled, own)) for path, own in compiled.links.items()}
    documents = {path: ViewDoc(doc.path, doc.title, doc.url, doc.bid, doc.aliases,
                               ViewParsed(doc.parsed.kind, doc.parsed.digest,
                                          doc.parsed.body_offset))
                 for path, doc in compiled.documents.items()}
    return put(_Index(documents, titles, backlinks, mentions))


#: what a child that packed a view writes last (``ViewPanels.seal``): a mark and where
#: the view's index lies, so that a view whose child died before the end is never read
_SEAL = struct.Struct("<8sQQ")
_MARK = b"bbview01"


class ViewPanels:
    """The panels of the pages of a ``PanelView`` in an unnamed temporary file (written
    by ``pack``, in a forked child: ``SiteBuild.make_panels_ahead``, or a step of the
    page loop's second core: ``SiteBuild.panel_view_steps``): this process loads its
    index (``load``) and binds the features to it before the burst's workers are
    forked, and each of them makes its pages with that copy."""

    def __init__(self, features: Sequence[SiteFeature],
                 read_text: Callable[[SrcPath, str], str | None],
                 join: Callable[[list[str]], str]) -> None:
        self.file = tempfile.TemporaryFile(prefix="beliefbase-panels-")  # noqa: SIM115
        #: where the view's index lies in ``file``, once ``pack`` wrote it
        self.index: tuple[int, int] | None = None
        self._features = features
        self._read_text = read_text
        self._join = join
        #: the view and the features bound to it, once loaded (``load``)
        self._loaded: tuple[PanelView, list[SiteFeature]] | None = None

    def make(self, page: tuple[SrcPath, str]) -> str:
        """The panels of the page of this document path and URL."""
        view, features = self._loaded or self.load()
        path, url = page
        doc = view.documents[path]
        return self._join([feature.panel(doc, url) for feature in features])  # type: ignore[arg-type]

    def load(self) -> tuple[PanelView, list[SiteFeature]]:
        """The view's index loaded (once) and the features bound to it.

        Loaded before the burst's workers are forked, it is theirs too, with what its
        features keep (each source's link titles and line starts), shared until a
        process writes to a page of it.  A worker loading its own dropped the one it
        inherited, and freeing it wrote to every page it lay in: a worker forked in the
        middle of the burst held 34-49 MB of its own after its first page at 5,000
        ``gen_vault.py`` notes, against 5 MB reusing it.
        """
        if self._loaded is not None:
            return self._loaded
        fd = self.file.fileno()
        assert self.index is not None
        index: _Index = pickle.loads(read_at(fd, *self.index))  # noqa: S301 - our own
        view = PanelView(index.documents, Stored(fd, index.titles), Stored(fd, index.backlinks),
                         None if index.mentions is None else Stored(fd, index.mentions))
        read = self._read_text

        def read_text(path: SrcPath) -> str:
            doc = view.documents.get(path)
            text = read(path, doc.parsed.digest if doc is not None else "")
            assert text is not None
            return text

        self._loaded = view, [f.viewing(view, read_text) for f in self._features]
        return self._loaded

    def seal(self, index: tuple[int, int]) -> None:
        """In the child that packed the view: where its index lies, written last."""
        fd = self.file.fileno()
        write_at(fd, _SEAL.pack(_MARK, *index), os.fstat(fd).st_size)

    def sealed(self) -> bool:
        """Did the child packing the view finish (``seal``)?  Its index is then known here."""
        fd = self.file.fileno()
        size = os.fstat(fd).st_size
        if size < _SEAL.size:
            return False
        mark, offset, length = _SEAL.unpack(read_at(fd, size - _SEAL.size, _SEAL.size))
        if mark != _MARK or offset + length > size - _SEAL.size:
            return False
        self.index = (offset, length)
        return True

    def close(self) -> None:
        """Forget the view loaded here and remove the file."""
        self._loaded = None
        self.file.close()

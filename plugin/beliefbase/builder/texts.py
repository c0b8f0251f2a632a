"""The notes' decoded texts, from the parse to the render: each read and decoded once."""

from __future__ import annotations

from ..ids import SrcPath


class DecodedTexts:
    """Each note's text as ``parse_markdown`` decoded it, kept for the page render to
    take (``SiteBuild.read_text``) instead of reading and decoding the file again.

    Part of what a compile returns (``Linked.texts``), keyed by path and digest: the
    render takes exactly the text the compile parsed.  Kept only when the compile
    was asked to keep them (``Compiler.keep_texts``: a build; the CLI and the tests
    keep nothing), and each text only until it is taken or the build's pages are
    rendered (``close``).  A note parsed in a worker process (``builder.parallel``)
    comes back with the text the worker decoded (``parse.parse_many``).  One the
    parse cache knew by its content (read to hash it, a new modification time) is
    decoded by ``Compiler._parse``; one it knew by modification time and size was
    not read: the render reads it, once.

    The one mutable part of a compile: declared in ``__caches__`` (``frozen``), as
    each text is a pure function of the note's bytes at that digest.
    """

    __slots__ = ("_texts",)
    __caches__ = ("_texts",)

    def __init__(self) -> None:
        self._texts: dict[tuple[SrcPath, str], str] | None = None

    def open(self) -> None:
        """Keep what the parses of this process decode from now on."""
        self._texts = {}

    def close(self) -> None:
        """Keep nothing more; drop what nobody took."""
        self._texts = None

    @property
    def keeping(self) -> bool:
        """Is a build keeping texts (``open``)?"""
        return self._texts is not None

    def keep(self, path: SrcPath, sha: str, text: str) -> None:
        if self._texts is not None:
            self._texts[(path, sha)] = text

    def peek(self, path: SrcPath, sha: str) -> str | None:
        """The text kept for this version of ``path``, left for the render to take."""
        return self._texts.get((path, sha)) if self._texts else None

    def take(self, path: SrcPath, sha: str) -> str | None:
        """The text kept for this version of ``path`` (once), else None."""
        return self._texts.pop((path, sha), None) if self._texts else None

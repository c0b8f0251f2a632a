"""Identities and the only conversions between them.

Most link bugs in this field are confusions between a file path, a URL, a
title and an id.  Each has its own type here, and every conversion between
them lives in this module:

* ``SrcPath``  – a file's path relative to docs_dir, POSIX separators
  (``topics/auth.md``); the key of a document everywhere in the compiler.
* ``Url``      – a site-relative URL exactly as MkDocs' ``File.url`` writes it
  (``topics/auth/``; ``./`` is the home page).
* ``Bid``      – a node's UUIDv7-shaped identity; ``bref`` is its last 8 hex
  digits.
* titles and aliases are free text; ``normalize_name`` makes them comparable.
* tags are free text too: ``tag_key`` is what makes two spellings one tag
  (Obsidian: case-insensitive), ``tag_page_src`` the source path of its page.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
import re
import unicodedata
from collections.abc import Sequence
from typing import NewType
from urllib.parse import quote

SrcPath = NewType("SrcPath", str)
Url = NewType("Url", str)
Bid = NewType("Bid", str)

#: Namespace mixed into every provisional BID so that ours never collide with
#: BIDs minted elsewhere from the same key.
_BID_NAMESPACE = b"beliefbase/provisional-bid/v1\0"

_BID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_BREF_RE = re.compile(r"^[0-9a-f]{8}$")


def provisional_bid(*key: str) -> Bid:
    """A deterministic UUIDv7-shaped BID derived from ``key``.

    Documents without a ``bid`` in their frontmatter get one from their
    network and path, so two builds of the same tree agree.  The version and
    variant bits are those of UUIDv7; the rest is a SHA-256 of the key.
    """
    digest = bytearray(hashlib.sha256(_BID_NAMESPACE + "\0".join(key).encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x70  # version 7
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    h = digest.hex()  # formatted by hand: uuid.UUID() is 10x slower, and this is hot
    return Bid(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")


def parse_bid(text: str) -> Bid | None:
    """``text`` as a canonical lower-case BID, or None when it is not a UUID."""
    candidate = text.strip().lower()
    if _BID_RE.match(candidate):
        return Bid(candidate)
    return None


def bref(bid: Bid) -> str:
    """The short handle of a BID: its last 8 hex digits (the random tail)."""
    return bid.replace("-", "")[-8:]


def looks_like_bref(text: str) -> bool:
    return bool(_BREF_RE.match(text.strip().lower()))


def normalize_name(text: str) -> str:
    """Titles, aliases and base names compared case- and whitespace-insensitively."""
    if text.isascii():
        return " ".join(text.lower().split())
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def common_prefix_length(a: Sequence[str], b: Sequence[str]) -> int:
    """How many leading path segments ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def relative_segments(target: Sequence[str], start: Sequence[str]) -> str:
    """``target`` relative to the folder ``start`` (both as segments), ``.`` if equal."""
    common = common_prefix_length(start, target)
    return "/".join([".."] * (len(start) - common) + list(target[common:])) or "."


def stem(path: SrcPath | str) -> str:
    """File name without its (last) extension: ``a/b/Note.md`` -> ``Note``."""
    name = posixpath.basename(path)
    base, dot, _ext = name.rpartition(".")
    return base if dot and base else name


def join_src(folder: str, relative: str) -> SrcPath | None:
    """``relative`` (POSIX) resolved against ``folder``; None if it leaves docs_dir."""
    joined = posixpath.normpath(posixpath.join(folder, relative)) if folder else (
        posixpath.normpath(relative)
    )
    if joined == "." or joined.startswith("../") or joined == ".." or joined.startswith("/"):
        return None
    return SrcPath(joined)


def is_index_name(path: SrcPath | str) -> bool:
    return posixpath.basename(path).lower() in ("index.md", "readme.md")


def url_for_src(path: SrcPath, use_directory_urls: bool = True) -> Url:
    """The URL MkDocs gives the page built from ``path`` (mirrors ``File.url``).

    Tested against MkDocs' own ``File`` in ``tests/unit/test_ids.py`` (which lists where
    the two differ).
    """
    return url_for_dest(dest_for_src(path, use_directory_urls), use_directory_urls)


def dest_for_src(path: SrcPath, use_directory_urls: bool = True) -> str:
    """The output file MkDocs writes the page of ``path`` to (``File.dest_uri``)."""
    folder, name = posixpath.split(path)
    base, ext = posixpath.splitext(name)
    # only ``index`` and ``README`` spelt so, as MkDocs' ``File`` (``notes/readme.md`` is
    # ``notes/readme/``); a root ``Index.md`` becomes the home page by ``place_home``
    if base in ("index", "README") and ext.lower() == ".md":
        dest = posixpath.join(folder, "index.html") if folder else "index.html"
    elif use_directory_urls:
        dest = posixpath.join(folder, base, "index.html") if folder else f"{base}/index.html"
    else:
        dest = posixpath.join(folder, base + ".html") if folder else base + ".html"
    return dest


def url_for_dest(dest: str, use_directory_urls: bool = True) -> Url:
    """The URL of an output file path (``a/index.html`` -> ``a/``)."""
    url = dest
    if use_directory_urls:
        if url == "index.html":
            url = "./"
        elif url.endswith("/index.html"):
            url = url[: -len("index.html")]
    return Url(quote(url))


def asset_url(path: SrcPath) -> Url:
    """Static files keep their path."""
    return Url(quote(path))


def url_slug(text: str) -> str:
    """A URL segment for a generated page (alias redirects, topics)."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value) or "untitled"


#: Bytes a generated page's name may take: file systems refuse names over 255 bytes,
#: and the name still gets ``.md``, ``.html``, ``/index.html`` or ``-2`` added.
MAX_NAME_BYTES = 200


def fit_name(name: str) -> str:
    """``name``, or when longer than ``MAX_NAME_BYTES`` (UTF-8) its start and a hash of
    the whole: stable from build to build, distinct for distinct names."""
    data = name.encode("utf-8", "surrogatepass")
    if len(data) <= MAX_NAME_BYTES:
        return name
    digest = hashlib.sha1(data).hexdigest()[:10]
    head = data[:MAX_NAME_BYTES - len(digest) - 1].decode("utf-8", "ignore").rstrip("-")
    return f"{head}-{digest}"


# A tag segment kept as it is in a page path: letters, digits, "_" and "-" (Obsidian's
# tag grammar); anything else (from frontmatter: "<", ".", spaces) becomes "-".
_TAG_UNSAFE = re.compile(r"[^\w\-]+")
#: page names MkDocs gives the folder's own URL (``tags/index.md`` is the tag index)
_TAG_RESERVED = frozenset({"index", "readme"})


@functools.lru_cache(maxsize=1 << 16)  # asked for every tag of every note of every tag page
def tag_key(tag: str) -> str:
    """The one name of a tag however it is spelled: ``#Project//Alpha`` -> ``project/alpha``.

    Obsidian compares tags case-insensitively; empty segments of a nested tag
    are dropped.  ``""`` when nothing is left (no page for it).
    """
    return "/".join(part for part in tag.lstrip("#").lower().split("/") if part.strip())


def tag_parents(tag: str) -> tuple[str, ...]:
    """A nested tag and every tag above it, as written: ``#a/b/c`` -> ``a``, ``a/b``,
    ``a/b/c`` (the one expansion of nested tags: the tag pages, Bases' ``hasTag``,
    Dataview's ``file.tags`` and ``FROM #a``)."""
    parts = tag.lstrip("#").split("/")
    return tuple("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))


def tag_page_src(tags_page: str, tag: str) -> SrcPath | None:
    """The generated page of a tag: ``tags/`` + ``project/alpha`` -> ``tags/project/alpha.md``.

    Each segment is kept when it is plain (letters, digits, ``_``, ``-``); any
    other segment is made safe and gets a hash of its text, so two tags never
    share a page and no tag name can leave ``tags_page`` or be a page's index.
    """
    key = tag_key(tag)
    if not key:
        return None
    parts = []
    for part in key.split("/"):
        safe = _TAG_UNSAFE.sub("-", part).strip("-")
        if safe != part or safe in _TAG_RESERVED:
            digest = hashlib.sha1(part.encode()).hexdigest()[:6]
            safe = f"{safe}-{digest}" if safe else f"tag-{digest}"
        parts.append(fit_name(safe))
    return SrcPath(tags_page.strip("/") + "/" + "/".join(parts) + ".md")


def root_url(use_directory_urls: bool = True) -> Url:
    """The URL of the site's home page (``index.md``)."""
    return url_for_dest("index.html", use_directory_urls)

"""``search-index.json``: the graph viewer's prebuilt lunr index.

Built with the Python ``lunr`` package; the browser loads it with the
``lunr.js`` that ships with MkDocs (copied to ``_beliefbase/lunr.js``) on the
first search, and never before.  One entry per published document, ref = its
BID (the node id in ``graph-view.json``), fields ``title`` (boost 10),
``aliases`` (5), ``headings`` (2) and ``tags``.  No text is stored in the
index: the viewer shows titles from its own graph file.  The file is
``{"version": 1, "index": <lunr.Index.toJSON()>}``.

Building costs about a millisecond per note, so the index is cached in
``cache_dir`` under the hash of its input and rebuilt only when a title,
alias, heading or tag changed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ...atomic import write_text
from ...compile.compiled import Compiled
from ..escape import json_for_html

SEARCH_INDEX = "search-index.json"
LUNR_JS = "lunr.js"
SEARCH_INDEX_VERSION = 1
_INDEX_VERSION = 2  # bump when the fields or the pipeline change
_CACHE_FILE = "search-index.json"
_NON_WORD = re.compile(r"[^\w]+")


def lunr_js() -> Path:
    """lunr.js as MkDocs ships it (its search plugin's copy): the browser half of lunr."""
    import mkdocs.contrib.search as search

    return Path(search.__file__).parent / "templates" / "search" / LUNR_JS


def index_documents(compiled: Compiled) -> list[dict[str, str]]:
    """What the index covers, one entry per published document, sorted by id."""
    docs = sorted((d for d in compiled.published.values() if d.url is not None),
                  key=lambda d: d.bid)
    return [
        {
            "id": d.bid,
            "title": _words(d.title),
            "aliases": _words(" ".join(d.aliases)),
            "headings": _words(" ".join(dict.fromkeys(s.text for s in d.sections
                                                       if s.text != d.title))),
            "tags": _words(" ".join(d.tags)),
        }
        for d in docs
    ]


def _words(text: str) -> str:
    """Words only: lunr splits on spaces and hyphens, and ``graph.json`` or
    ``area/research`` should be found by either word (search.js splits queries
    the same way)."""
    return " ".join(_NON_WORD.split(text)).strip()


def search_index_text(documents: list[dict[str, str]], cache_dir: Path | None) -> str:
    """``search-index.json`` for ``documents`` (pure: safe to run in a thread)."""
    digest = hashlib.sha256(json.dumps([_INDEX_VERSION, documents], ensure_ascii=False,
                                       sort_keys=True).encode()).hexdigest()
    cached = _cached(cache_dir, digest)
    if cached is not None:
        return cached
    text = json_for_html({"version": SEARCH_INDEX_VERSION, "index": build_index(documents)},
                         separators=(",", ":"))
    _store(cache_dir, digest, text)
    return text


def build_index(documents: list[dict[str, str]]) -> dict[str, Any]:
    """A serialised lunr index of the graph page's search (``lunr.Index.load`` in the
    browser reads it)."""
    return lunr_index(documents, (("title", 10), ("aliases", 5), ("headings", 2), ("tags", 1)))


def lunr_index(documents: Iterable[dict[str, str]], fields: Iterable[tuple[str, int]],
               trim: Callable[..., Any] | None = None) -> dict[str, Any]:
    """A serialised lunr index of ``documents`` (each with an ``id``) over ``fields``
    (name, boost), tokens trimmed by ``trim`` (lunr's trimmer by default), stop words
    dropped and stemmed: the one lunr builder of the graph page and the belief index."""
    from lunr.builder import Builder
    from lunr.stop_word_filter import stop_word_filter
    from lunr.trimmer import trimmer

    builder = Builder()
    builder.pipeline.add(trim or trimmer, stop_word_filter, stemmer)
    builder.search_pipeline.add(stemmer)
    builder.ref("id")
    for name, boost in fields:
        builder.field(name, boost=boost)
    for document in documents:
        builder.add(document)
    serialized: dict[str, Any] = builder.build().serialize()
    return serialized


@functools.lru_cache(maxsize=1 << 16)  # titles, headings, statements repeat words: stem once
def _stem(word: str) -> str:
    from lunr.stemmer import porter_stemmer

    return porter_stemmer.stem(word)  # type: ignore[no-any-return]


def stemmer(token: Any, i: int | None = None, tokens: Any = None) -> Any:
    """lunr's Porter stemmer, memoised; serialised as lunr.js's ``stemmer``."""
    return token.update(lambda text, _meta: _stem(text))


stemmer.label = "stemmer"  # type: ignore[attr-defined]


def _cached(cache_dir: Path | None, digest: str) -> str | None:
    if cache_dir is None:
        return None
    try:
        text = (cache_dir / _CACHE_FILE).read_text(encoding="utf-8")
        head, _, body = text.partition("\n")
    except OSError:
        return None
    return body if head == digest else None


def _store(cache_dir: Path | None, digest: str, text: str) -> None:
    if cache_dir is None:
        return
    with contextlib.suppress(OSError):  # a cache we cannot write is only slower, never wrong
        write_text(cache_dir / _CACHE_FILE, digest + "\n" + text)

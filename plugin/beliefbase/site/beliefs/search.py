"""The belief index page's search box: a lunr index built at build time.

``beliefs-search.json`` (version 1) is what ``theme/assets/beliefs.js``
loads on the first keystroke::

    {"version": 1,
     "index": <lunr.Index.toJSON() over statement, subject, topic>,
     "beliefs": {"<belief id>": {"statement", "topic", "status", "url"}}}

``url`` is site-relative.  The index is built with the Python ``lunr``
package, whose output lunr.js 2.3.9 (shipped with MkDocs, copied to
``_beliefbase/lunr.js``) loads.  Building it is slow for many beliefs, so the
serialised index is kept in ``cache_dir`` under the digest of its input:
rebuilds (``mkdocs serve``) and repeat builds reuse it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

from ...atomic import write_text
from ...beliefs import BeliefSet
from ..reader.lunr_index import LUNR_JS, lunr_index, lunr_js
from .views import BeliefPlan

VERSION = 1
SEARCH_JSON = "beliefs-search.json"
_CACHE_FILE = "beliefs-search.json"
#: Bump when the index's shape or fields change (invalidates cached indexes).
_INDEX_VERSION = "2"


def _documents(belief_set: BeliefSet) -> list[dict[str, str]]:
    return [{"id": vb.belief_id, "statement": vb.belief.statement,
             "subject": vb.belief.subject or "", "topic": vb.belief.topic}
            for vb in belief_set.beliefs.values()]


def search_json(belief_set: BeliefSet, plan: BeliefPlan, cache_dir: Path | None) -> str:
    """The text of ``beliefs-search.json`` (the lunr index from the cache when it is fresh)."""
    documents = _documents(belief_set)
    digest = hashlib.sha256(
        json.dumps([_INDEX_VERSION, documents], ensure_ascii=False).encode()).hexdigest()
    index = _cached(cache_dir, digest)
    if index is None:
        index = _build_index(documents)
        _store(cache_dir, digest, index)
    beliefs = {vb.belief_id: {"statement": vb.belief.statement, "topic": vb.belief.topic,
                              "status": "current" if vb.is_current else "superseded",
                              "url": plan.url(plan.belief_src[vb.belief_id])}
               for vb in belief_set.beliefs.values()}
    text = json.dumps({"version": VERSION, "index": index, "beliefs": beliefs},
                      ensure_ascii=False, separators=(",", ":"))
    # Same escapes as beliefs.json: the file stays safe if someone inlines it in HTML.
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _build_index(documents: list[dict[str, str]]) -> dict[str, Any]:
    return lunr_index(documents, (("statement", 1), ("subject", 2), ("topic", 3)), _trimmer)


_EDGES = re.compile(r"^\W+|\W+$")


def _trimmer(token: Any, i: int | None = None, tokens: Any = None) -> Any:
    """Strip non-word characters at both ends (``/auth/v2/refresh.`` -> ``auth/v2/refresh``).

    lunr's Python trimmer leaves a token with inner punctuation untouched; this one
    does what ``beliefs.js`` does to query words, so the two always agree.
    """
    return token.update(lambda text, _meta: _EDGES.sub("", text))


_trimmer.label = "trimmer"  # type: ignore[attr-defined]


def _cached(cache_dir: Path | None, digest: str) -> dict[str, Any] | None:
    if cache_dir is None:
        return None
    try:
        data = json.loads((cache_dir / _CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("digest") == digest:
        return data.get("index")
    return None


def _store(cache_dir: Path | None, digest: str, index: dict[str, Any]) -> None:
    if cache_dir is None:
        return
    with contextlib.suppress(OSError):  # a cache we cannot write is only slower, never wrong
        write_text(cache_dir / _CACHE_FILE, json.dumps({"digest": digest, "index": index}))


def write_lunr(out_dir: Path) -> None:
    """Copy lunr.js into ``site/_beliefbase/`` unless the build put it there already."""
    target = out_dir / LUNR_JS
    if not target.exists():
        shutil.copyfile(lunr_js(), target)

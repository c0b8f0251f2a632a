"""``EntryTexts``: Material's search index JSON from entry texts kept between rebuilds."""

from __future__ import annotations

import json
from typing import Any

from beliefbase.html_json import html_safe
from beliefbase.search_index import EntryTexts

CONFIG = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stemmer"],
          "fields": {"title": {"boost": 1000.0}}, "jieba_dict": None}


def material(entries: list[Any]) -> str:
    """What Material's ``generate_search_index`` writes (its own code, without ``prev``),
    made HTML-safe as every JSON the site ships (issue 32)."""
    head = {key: CONFIG[key] for key in ["lang", "separator", "pipeline", "fields"]}
    return html_safe(json.dumps({"config": head, "docs": entries}, separators=(",", ":"),
                                default=str))


def index_json(texts: EntryTexts, entries: list[Any]) -> str:
    """A build without a dirty merge: ``entries`` as they are, then their JSON."""
    texts.merged_and_escaped(None, entries, None, {})
    return texts.index_json(CONFIG)


def test_same_bytes_as_material_then_fresh_text_for_changed_entries() -> None:
    entries: list[Any] = [
        {"location": "a/", "title": "Ä &lt;b&gt;", "text": "naïve \u2028 \"quoted\"", "tags": ["x"]},
        {"location": "a/#part", "title": "Part", "text": "", "boost": 2},
        {"location": "b/", "title": "B", "text": "t", "when": object()},  # default=str
    ]
    entries[2]["when"] = "fixed"  # a str() of an object differs per run; keep it stable
    texts = EntryTexts()
    assert index_json(texts, entries) == material(entries)
    assert "<" not in index_json(texts, [{"location": "x/", "title": "<b>", "text": "<p>"}])
    entries[0] = {**entries[0], "title": "Renamed", "tags": ["x", "y"]}  # a rebuilt page's
    entries.append({"location": "c/", "title": "C", "text": "new"})
    del entries[1]
    assert index_json(texts, entries) == material(entries)
    assert index_json(texts, []) == material([])


def test_an_equal_but_new_entry_object_is_serialised_again() -> None:
    texts = EntryTexts()
    index_json(texts, [{"location": "a/", "title": "A", "text": "one"}])
    assert '"text":"two"' in index_json(texts, [{"location": "a/", "title": "A", "text": "two"}])

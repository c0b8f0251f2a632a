"""``EntryTexts``: Material's search index JSON from entry texts kept between rebuilds."""

from __future__ import annotations

import json
from typing import Any

from beliefbase.site.search_index import EntryTexts

CONFIG = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stemmer"],
          "fields": {"title": {"boost": 1000.0}}, "jieba_dict": None}


def material(entries: list[Any]) -> str:
    """What Material's ``generate_search_index`` writes (its own code, without ``prev``)."""
    head = {key: CONFIG[key] for key in ["lang", "separator", "pipeline", "fields"]}
    return json.dumps({"config": head, "docs": entries}, separators=(",", ":"), default=str)


def test_same_bytes_as_material_then_fresh_text_for_changed_entries() -> None:
    entries: list[Any] = [
        {"location": "a/", "title": "Ä &lt;b&gt;", "text": "naïve \u2028 \"quoted\"", "tags": ["x"]},
        {"location": "a/#part", "title": "Part", "text": "", "boost": 2},
        {"location": "b/", "title": "B", "text": "t", "when": object()},  # default=str
    ]
    entries[2]["when"] = "fixed"  # a str() of an object differs per run; keep it stable
    texts = EntryTexts()
    assert texts.index_json(CONFIG, entries) == material(entries)
    entries[0] = {**entries[0], "title": "Renamed", "tags": ["x", "y"]}  # a rebuilt page's
    entries.append({"location": "c/", "title": "C", "text": "new"})
    del entries[1]
    assert texts.index_json(CONFIG, entries) == material(entries)
    assert texts.index_json(CONFIG, []) == material([])


def test_kept_entries_are_not_serialised_again() -> None:
    texts = EntryTexts()
    entries: list[Any] = [{"location": f"p{i}/", "title": f"P{i}", "text": "t"} for i in range(4)]
    texts.index_json(CONFIG, entries)
    # an entry changed in place is not looked at again: that is the contract
    # (``escape_entries`` only touches entries new to the build) this test pins
    entries[1]["text"] = "changed in place"
    again = entries[2:] + entries[:2] + [{"location": "n/", "title": "N", "text": "n"}]
    out = texts.index_json(CONFIG, again)
    assert "changed in place" not in out
    assert out == material([*entries[2:], {**entries[0]}, {**entries[1], "text": "t"},
                            again[-1]])


def test_an_equal_but_new_entry_object_is_serialised_again() -> None:
    texts = EntryTexts()
    first = [{"location": "a/", "title": "A", "text": "one"}]
    texts.index_json(CONFIG, first)
    second = [{"location": "a/", "title": "A", "text": "two"}]
    assert '"text":"two"' in texts.index_json(CONFIG, second)

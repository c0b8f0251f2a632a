"""``EntryTexts.merged_and_escaped`` (from the last build's runs, kept) gives the
entries ``merged_and_escaped_entries`` gives (runs cut again from the flat list the
theme hands back), rebuild after rebuild, and ``index_json`` the bytes Material's
own ``generate_search_index`` writes."""

from __future__ import annotations

import copy
import json
from typing import Any

from beliefbase.html_json import html_safe
from beliefbase.search_index import DirtyMerge, EntryTexts, merged_and_escaped_entries
from hypothesis import given, settings
from hypothesis import strategies as st

CONFIG = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stemmer"],
          "fields": {"title": {"boost": 1000.0}}}
PAGES = ["", "a/", "b/", "c/d/", "e/"]
#: the titles and tags that came from our frontmatter, escaped in new entries
STRINGS = {"a/": ("A <b>", ("t&x",)), "c/d/": ("C & D", ())}

_entry = st.builds(
    lambda page, anchor, title, tags: {
        "location": page + (f"#{anchor}" if anchor else ""),
        "title": title, "text": "…", **({"tags": tags} if tags is not None else {})},
    st.sampled_from(PAGES),
    st.sampled_from(["", "part", "other"]),
    st.sampled_from(["A <b>", "C & D", "Plain", "<i>x</i>"]),
    st.none() | st.lists(st.sampled_from(["t&x", "y"]), max_size=2),
)
# one rebuild: the pages rendered (the theme's entries for them) and the pages left
_rebuild = st.tuples(st.lists(_entry, max_size=8), st.sets(st.sampled_from(PAGES)),
                     st.sets(st.sampled_from(PAGES)))


def _material(entries: list[Any]) -> str:
    """Material's index of ``entries``, as the site ships it: HTML-safe (issue 32)."""
    return html_safe(json.dumps({"config": CONFIG, "docs": entries}, separators=(",", ":"),
                                default=str))


@settings(max_examples=300, deadline=None)
@given(st.lists(_entry, max_size=12), st.lists(_rebuild, max_size=4))
def test_runs_merge_like_entries_build_after_build(
        first: list[Any], rebuilds: list[tuple[list[Any], set[str], set[str]]]) -> None:
    texts = EntryTexts()
    mine = texts.merged_and_escaped(None, copy.deepcopy(first), None, STRINGS)
    reference = merged_and_escaped_entries(None, copy.deepcopy(first), None, STRINGS)
    assert mine == reference
    assert texts.index_json(CONFIG) == _material(reference)
    for current, rebuilt, gone in rebuilds:
        live = set(PAGES) - gone
        merge = DirtyMerge(None, rebuilt, live)
        mine = texts.merged_and_escaped(mine, copy.deepcopy(current), merge, STRINGS)
        reference = merged_and_escaped_entries(reference, copy.deepcopy(current), merge,
                                               STRINGS)
        assert mine == reference
        assert texts.index_json(CONFIG) == _material(reference)


def test_a_page_not_rebuilt_keeps_its_run_and_its_text() -> None:
    texts = EntryTexts()
    first = [{"location": "a/", "title": "A", "text": "x"},
             {"location": "a/#h", "title": "H", "text": "y"},
             {"location": "b/", "title": "B", "text": "z"}]
    entries = texts.merged_and_escaped(None, first, None, {})
    texts.index_json(CONFIG)
    first[1]["text"] = "changed in place"  # a kept entry is never looked at again
    rebuilt = [{"location": "b/", "title": "B2", "text": "z"}]
    entries = texts.merged_and_escaped(entries, rebuilt, DirtyMerge(None, {"b/"}, set()), {})
    assert entries[:2] == first[:2] and entries[2] is rebuilt[0]
    out = texts.index_json(CONFIG)
    assert '"text":"y"' in out and "changed in place" not in out
    assert '"title":"B2"' in out


def test_the_first_dirty_rebuild_of_a_process_starts_from_the_file() -> None:
    texts = EntryTexts()  # nothing kept: ``previous`` comes from the last index file
    previous = [{"location": "a/", "title": "A &lt;b&gt;", "text": "x"},
                {"location": "b/", "title": "B", "text": "y"}]
    current = [{"location": "a/", "title": "A <b>", "text": "new"}]
    entries = texts.merged_and_escaped(previous, current, DirtyMerge(None, {"a/"}, set()),
                                       {"a/": ("A <b>", ())})
    assert [e["location"] for e in entries] == ["b/", "a/"]
    assert entries[1]["title"] == "A &lt;b&gt;"  # new: escaped once
    assert entries[0]["title"] == "B"

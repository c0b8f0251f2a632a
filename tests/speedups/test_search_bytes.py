"""``search_index.index_bytes``: Material's search index, escaped by ``search_escape``,
put together entry by entry: the same bytes as Material's ``json.dumps`` of the whole
index escaped by ``html_safe`` and encoded, and without holding the whole text, its
escaped copies and its encoding at once (the build's peak memory, issue 31); written
by Material's ``on_post_build`` into the file a buffer at a time, never whole."""

from __future__ import annotations

import json
import tracemalloc
from types import SimpleNamespace
from typing import Any

import mkdocs.utils
import pytest
from beliefbase.html_json import html_safe
from beliefbase.search_index import index_bytes
from beliefbase.speedups.search_escape import _stream_into_write, escape_before_writing, unstream
from hypothesis import given, settings
from hypothesis import strategies as st

search = pytest.importorskip("material.plugins.search.plugin")

_CONFIG = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"],
           "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}, "other": 1}
_TEXT = st.text(st.sampled_from(list("ab <>&\"'\\/é\u2028\u2029\x00\n\t😀")), max_size=12)
_ENTRY = st.fixed_dictionaries(
    {"location": _TEXT, "title": _TEXT, "text": _TEXT},
    optional={"tags": st.lists(_TEXT, max_size=3), "boost": st.integers(-3, 3)})


def _material(entries: list[Any]) -> bytes:
    """What Material writes, escaped as ``search_escape`` did before: the whole text."""
    index = search.SearchIndex(**_CONFIG)
    index.entries = entries
    return html_safe(index.generate_search_index(None)).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(st.lists(_ENTRY, max_size=6))
def test_the_same_bytes_as_the_whole_text_escaped(entries: list[Any]) -> None:
    made = index_bytes(_CONFIG, entries)
    assert bytes(made.encode("utf-8")) == _material(entries)


def test_a_value_json_cannot_write_is_written_as_material_does() -> None:
    entries = [{"location": "a/", "title": "<b>", "text": "t", "when": object.__new__(
        type("X", (), {"__str__": lambda self: "x<y"}))}]
    assert bytes(index_bytes(_CONFIG, entries).encode()) == _material(entries)


def test_the_plugin_writes_the_escaped_bytes(tmp_path: Any) -> None:
    """Material's ``on_post_build`` writes what our ``generate_search_index`` returns."""
    plugin = search.SearchPlugin()
    plugin.load_config({})
    plugin.search_index = search.SearchIndex(**_CONFIG)
    plugin.search_index.entries = [{"location": "p/", "title": "<i>T</i>", "text": "a & b"}]
    plugin.search_index_prev = None
    assert escape_before_writing({"search": plugin}, lambda: {"p/": ("<i>T</i>", ())})
    plugin.on_post_build(config=SimpleNamespace(site_dir=str(tmp_path)))
    written = (tmp_path / "search" / "search_index.json").read_bytes()
    docs = json.loads(written)["docs"]
    assert docs == [{"location": "p/", "title": "&lt;i&gt;T&lt;/i&gt;", "text": "a & b"}]
    assert b"<" not in written and b"&" not in written


def _many() -> list[Any]:
    return [{"location": f"n{i}/#s", "title": f"<T{i}>",
             "text": f"word {i} & <em>more</em> " * 40} for i in range(3000)]


def test_the_index_is_made_without_a_copy_of_the_whole_text() -> None:
    """Memory, counted not timed: the largest allocation while the bytes are made is
    the buffer they end in (plus the encoder's work on one entry); the whole text, its
    escaped copies and its encoding held together were three times that."""
    entries = _many()
    expected = _material(entries)
    tracemalloc.start()
    try:
        made = index_bytes(_CONFIG, entries).encode()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert bytes(made) == expected
    assert peak < 1.5 * len(expected)


def _plugin(entries: list[Any]) -> Any:
    plugin = search.SearchPlugin()
    plugin.load_config({})
    plugin.search_index = search.SearchIndex(**_CONFIG)
    plugin.search_index.entries = entries
    plugin.search_index_prev = None
    return plugin


def test_material_writes_the_index_a_buffer_at_a_time(tmp_path: Any) -> None:
    """Material's ``on_post_build`` writes our index into the file without it ever being
    whole in memory: its peak is a small part of the file (made into one buffer first,
    it was the whole file and more), the bytes are Material's, and ``write_file`` is
    MkDocs' own again afterwards."""
    entries = _many()
    expected = _material(entries)
    plugin = _plugin(entries)
    assert escape_before_writing({"search": plugin}, dict)
    real = mkdocs.utils.write_file
    tracemalloc.start()
    try:
        plugin.on_post_build(config=SimpleNamespace(site_dir=str(tmp_path)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (tmp_path / "search" / "search_index.json").read_bytes() == expected
    assert peak < len(expected) / 4, (peak, len(expected))
    assert mkdocs.utils.write_file is real


def test_another_write_in_between_is_handed_on(tmp_path: Any) -> None:
    """What else is written before the index goes to the ``write_file`` that was there;
    the index still streams after it."""
    entries = [{"location": "p/", "title": "T", "text": "x"}]
    real = mkdocs.utils.write_file
    made = _stream_into_write(index_bytes(_CONFIG, entries))
    try:
        mkdocs.utils.write_file(b"other", str(tmp_path / "a" / "other.txt"))
        assert (tmp_path / "a" / "other.txt").read_bytes() == b"other"
        assert mkdocs.utils.write_file is not real
        mkdocs.utils.write_file(made.encode("utf-8"), str(tmp_path / "index.json"))
    finally:
        unstream()
    assert (tmp_path / "index.json").read_bytes() == _material(entries)
    assert mkdocs.utils.write_file is real


def test_an_index_never_written_gives_its_bytes_once_put_back() -> None:
    """``unstream`` (the build's end) puts ``write_file`` back; the index's ``encode``
    then gives bytes, for whoever holds it."""
    entries = [{"location": "p/", "title": "<T>", "text": "x"}]
    real = mkdocs.utils.write_file
    made = _stream_into_write(index_bytes(_CONFIG, entries))
    assert made.encode() is made
    unstream()
    assert mkdocs.utils.write_file is real
    assert bytes(made.encode()) == _material(entries)

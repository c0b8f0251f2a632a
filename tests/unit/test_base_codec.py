"""A ``.base`` file's views as its headings (``codecs/base.py``): named as the
Bases engine names them, at their lines, with the ids of their tabs on the base's
page; nothing for YAML that does not read, and never an exception."""

from __future__ import annotations

from beliefbase import bases
from beliefbase.codecs.base import parse_base_file, view_headings, view_ids
from beliefbase.ids import SrcPath
from hypothesis import given, settings
from hypothesis import strategies as st

BASE = """\
filters: file.hasTag("book")
views:
  - type: table
    name: By status
  - type: cards
  - just a string
  - type: list
    name: ~
  - type: list
    name: "By status"
  - name: 2024
"""


def test_views_are_headings_named_as_the_engine_names_them() -> None:
    headings = view_headings(BASE)
    assert [(h.level, h.text, h.explicit_id, h.line) for h in headings] == [
        (2, "By status", "bb-view-by-status", 4),
        (2, "View 2", "bb-view-view-2", 5),
        (2, "View 4", "bb-view-view-4", 7),
        (2, "By status", "bb-view-by-status-2", 10),
        (2, "2024", "bb-view-2024", 11),
    ]
    engine = bases.parse_base(BASE, "Library.base")
    assert [h.text for h in headings] == [view.name for view in engine.views]
    assert [h.explicit_id for h in headings] == view_ids([v.name for v in engine.views])


def test_a_parsed_base_carries_them() -> None:
    doc = parse_base_file(SrcPath("Library.base"), BASE.encode(), "docs/Library.base")
    assert [h.text for h in doc.headings][:2] == ["By status", "View 2"]
    assert doc.kind == "base" and not doc.links


def test_yaml_that_does_not_read_gives_no_views() -> None:
    for text in ("views: [", "views:\n  - name: a\n bad: indent\n", "- a\n- b\n",
                 "views: 3\n", "", "[" * 5000, "views: &a [*a]\n"):
        assert view_headings(text) == ()
    assert view_headings("views:\n  - name: a\n" + "#" * (1 << 20)) == ()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=12), st.integers()), max_size=6),
       st.text(alphabet="views:-name[]{}&*!'\"\n #", max_size=60))
def test_never_raises_and_agrees_with_the_engine(names: list[object], noise: str) -> None:
    lines = ["views:"]
    for name in names:
        lines.append("  - type: list")
        if name is not None:
            lines.append(f"    name: {name!r}" if isinstance(name, str) else f"    name: {name}")
    text = "\n".join(lines) + "\n"
    headings = view_headings(text)
    engine = bases.parse_base(text, "x.base")
    if engine.ok:
        assert [h.explicit_id for h in headings] == view_ids([v.name for v in engine.views])
    view_headings(noise)  # any text: no exception

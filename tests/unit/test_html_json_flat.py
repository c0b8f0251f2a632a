"""``flat_json_for_html`` writes what ``json_for_html(..., indent=1, sort_keys=True)``
writes, through the C encoder (``diagnostics.json``: issue 20's 20,000 broken links)."""

from __future__ import annotations

import pytest
from beliefbase.diagnostics import make
from beliefbase.html_json import flat_json_for_html, json_for_html

RECORDS = [
    make("unresolved-link", "docs/ü <x>.md", 3, 7,
         "[[a</script>]] & \u2028 \u2029 \" \\ \n\t\x01 ' é 😀").as_json(),
    {},
    {"a": 1, "b": -2, "c": 10**30},
    {"b": True, "a": 1.5},  # not strings and integers: the general path
    {"z": None, "y": [1, "<"]},
]


@pytest.mark.parametrize("record", RECORDS)
def test_flat_json_is_the_indented_json(record: dict[str, object]) -> None:
    assert flat_json_for_html(record) == json_for_html(record, indent=1, sort_keys=True)

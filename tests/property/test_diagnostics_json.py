"""``diagnostics.json`` put together from kept per-diagnostic texts equals one
``json_for_html`` of the whole document, byte for byte, in every rebuild."""

from __future__ import annotations

from beliefbase import diagnostics as diag
from beliefbase.site.escape import json_for_html
from beliefbase.site.session import diagnostics_json
from hypothesis import given, settings
from hypothesis import strategies as st

_diagnostics = st.builds(
    diag.Diagnostic,
    file=st.text(max_size=12),
    line=st.integers(min_value=1, max_value=10**6),
    column=st.integers(min_value=1, max_value=500),
    code=st.sampled_from(["unresolved-link", "cycle", "bad-frontmatter"]),
    message=st.text(max_size=40),  # quotes, newlines, <script>, non-ASCII
    level=st.sampled_from(list(diag.Level)),
)


def _reference(found: list[diag.Diagnostic]) -> str:
    return json_for_html({"version": 1, "diagnostics": [d.as_json() for d in found]},
                         indent=1, sort_keys=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(_diagnostics, max_size=6), st.lists(_diagnostics, max_size=6))
def test_kept_texts_give_the_same_bytes_build_after_build(first: list[diag.Diagnostic],
                                                           second: list[diag.Diagnostic]) -> None:
    kept: dict[diag.Diagnostic, str] = {}
    assert diagnostics_json(first, kept) == _reference(first)
    # a rebuild: some diagnostics stay (their text comes from ``kept``), some are new
    rebuilt = first[: len(first) // 2] + second
    assert diagnostics_json(rebuilt, kept) == _reference(rebuilt)
    assert set(kept) == set(rebuilt)  # nothing of the first build is held on to

"""Whatever a sidecar holds, verification, indexing and ``why`` answer; nothing raises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from beliefbase.beliefs.store import BeliefStore
from beliefbase.beliefs.verify import verify_context
from beliefbase.beliefs.why import why
from beliefbase.diagnostics import CODES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import write_project
from .test_bad_input import PAGE, QUOTE, belief, provenance

_odd_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "..", "../x", "/etc/passwd", "C:\\x", "sky.md", "\x00", "#", "#colour",
                     "2026-04-15", "2026-13-45", "0001-01-01T00:00+01:00", "b-sky", "p-sky",
                     "<script>", "{{ x }}", "elaborated", "[^1]", "^1", "1"]),
)
_odd_value = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                       _odd_text, st.lists(_odd_text, max_size=3))
_fields = [*belief(), "superseded_at", "superseded_by_belief_id", "supersession_reason",
           "subject", "predicate", "object", "contradicting_belief_ids", "confidence_hint"]


def _entry(base: dict[str, Any], keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(lambda changes: {**base, **changes},
                     st.dictionaries(st.sampled_from(keys), _odd_value, max_size=5))


_sidecars = st.fixed_dictionaries({
    "beliefs": st.lists(_entry(belief(), _fields), max_size=4),
    "provenance": st.lists(_entry(provenance(), [*provenance(), "page_hint"]), max_size=3),
})


@pytest.fixture(scope="module")
def project_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    write_project(root, {"docs/sky.md": PAGE, "docs/sea.md": PAGE, "raw/sky.md": QUOTE})
    return root


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sky=_sidecars, sea=st.one_of(_sidecars, st.binary(max_size=60)))
def test_any_sidecar_content_is_handled(project_root: Path, sky: dict[str, Any],
                                        sea: dict[str, Any] | bytes) -> None:
    (project_root / "docs/sky.beliefs.json").write_text(json.dumps(sky), encoding="utf-8")
    raw = sea if isinstance(sea, bytes) else json.dumps(sea).encode()
    (project_root / "docs/sea.beliefs.json").write_bytes(raw)
    project = write_project(project_root, {})
    result = verify_context(project)
    assert all(d.code in CODES and d.line >= 1 and d.column >= 1 for d in result.diagnostics)
    with BeliefStore(project.store_path) as store:
        store.sync(result)
        for query in ("b-sky", "sky", "the sky", "<script>"):
            why(store, query, as_of="2026-04-15")

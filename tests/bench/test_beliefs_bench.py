"""The belief benchmark runs, and the full size stays inside the budget of the issue."""

from __future__ import annotations

import pytest
from beliefbase.bench import beliefs as bench


def test_small_benchmark_runs_clean() -> None:
    numbers = bench.run(pages=20, per_page=5, raw_files=4)
    assert (numbers["beliefs"], numbers["diagnostics"]) == (100, 0)
    assert numbers["why_results"]["subject"] == 2


@pytest.mark.slow
def test_5000_beliefs_verify_index_and_answer_in_budget() -> None:
    numbers = bench.run()  # 5,000 beliefs on 500 pages
    assert numbers["beliefs"] == 5000 and numbers["diagnostics"] == 0
    assert numbers["verify_cpu_s"] + numbers["index_cpu_s"] < 2.0
    # CPU time: wall time on a busy CI host measures the neighbours, not us.
    medians = {k: v for k, v in numbers["why_max_s"].items() if k.endswith("_cpu_median")}
    assert max(medians.values()) < 0.050, medians

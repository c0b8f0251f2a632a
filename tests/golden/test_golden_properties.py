"""Golden file: a properties-only note's page (issue 28, item 5).

Run ``pytest tests/golden/test_golden_properties.py --update-golden`` to rewrite
``expected/properties.html`` from the current output, then review the diff in git.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import build_copy
from tests.golden.test_golden import normalize

HERE = Path(__file__).parent


def test_golden_properties(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    built = build_copy(HERE / "properties_vault", tmp_path)
    article = (built.site / "Inception" / "index.html").read_text(encoding="utf-8")
    start = article.index("<article")
    got = normalize(article[start: article.index("</article>", start)])
    expected_file = HERE / "expected" / "properties.html"
    if request.config.getoption("--update-golden") or not expected_file.exists():
        expected_file.write_text(got, encoding="utf-8")
    assert got == expected_file.read_text(encoding="utf-8")

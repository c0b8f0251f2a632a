"""Fixtures of the belief-site tests: the knowledge base of ``belief_kb.py``, built on
a fixed date (``SOURCE_DATE_EPOCH``) with the real plugin through the shared
``project`` fixture of tests/conftest.py.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

# belief_kb.py sits beside this file; --import-mode=importlib does not put test folders
# on sys.path.
sys.path.insert(0, str(Path(__file__).parent))

from belief_kb import BUILD_DATE, belief_kb  # noqa: E402


@pytest.fixture(autouse=True)
def _build_date(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every build in these tests happens on BUILD_DATE."""
    moment = datetime(BUILD_DATE.year, BUILD_DATE.month, BUILD_DATE.day, 12, tzinfo=UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(moment.timestamp())))


@pytest.fixture
def kb(project: Any) -> Any:
    return belief_kb(project)

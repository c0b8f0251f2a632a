"""The reader's unit tests build the knowledge base of kb.py with the shared
``project`` fixture (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import BuildResult
from tests.reader.kb import write_kb


@pytest.fixture
def kb(project: Any) -> Any:
    write_kb(project)
    return project


@pytest.fixture
def built(kb: Any) -> BuildResult:
    result: BuildResult = kb.build()
    assert result.error is None, result.error
    return result

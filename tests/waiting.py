"""Polling a condition with a deadline (tests of things that happen in the background)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(condition: Callable[[], object], seconds: float = 3.0) -> bool:
    """True as soon as ``condition()`` is true; False if it is not within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False

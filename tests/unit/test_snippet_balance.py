"""The snippet maker's window (``codecs/snippet._window``): each sentence end of a unit
is tried once, its balance counted on from the one before (issue 32: an unclosed
``<!X`` on a line of thousands of sentences tried every one, counting from the line's
start, for each link in it: 264 times Python-Markdown's time)."""

from __future__ import annotations

import pytest
from beliefbase.codecs import snippet


def _old_outside(body: str, a: int, at: int) -> bool:
    return (body.count("`", a, at) % 2 == 0 and body.count("$", a, at) % 2 == 0
            and body.count("[", a, at) == body.count("]", a, at)
            and body.count("(", a, at) == body.count(")", a, at)
            and body.count("<", a, at) == body.count(">", a, at)
            and body.count("%%", a, at) % 2 == 0)


def _old_window(body: str, a: int, b: int, start: int, end: int) -> tuple[int, int]:
    if b - a < 200:
        return a, b
    lo = a
    for m in reversed(list(snippet._SOURCE_END.finditer(body, a, start))):
        if _old_outside(body, a, m.start()):
            lo = m.end()
            break
    hi = b
    for m in snippet._SOURCE_END.finditer(body, end, b):
        if _old_outside(body, a, m.start()):
            hi = m.end()
            break
    return lo, hi


BODIES = [
    "<!X a. See [[n1]] now. " * 60,
    "A b. See [[n1]] now. " * 60,
    "A `code. B` and $x. Y$ then (a. B) and [x. Y](u) %% c. D %% end. See [[n1]]. " * 20,
    "Lead <b>bold. Text</b> ok. " * 30 + "See [[n1]]. Then <!X open. And more. " * 20,
]


@pytest.mark.parametrize("body", BODIES)
def test_the_window_is_the_one_counted_from_the_start(body: str) -> None:
    for start in range(0, len(body), 37):
        end = min(len(body), start + 6)
        assert snippet._window(body, 0, len(body), start, end) == _old_window(
            body, 0, len(body), start, end)


def test_each_stretch_is_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    body = "<!X a. See [[n1]] now. " * 400  # never balanced: every sentence end tried
    counted: list[tuple[int, int]] = []
    at = snippet._Balance.at

    def counting(self: snippet._Balance, where: int) -> bool:
        counted.append((self.done, where))
        return at(self, where)

    monkeypatch.setattr(snippet._Balance, "at", counting)
    start = body.index("[[n1]]", len(body) // 2)
    snippet._window(body, 0, len(body), start, start + 6)
    assert sum(where - done for done, where in counted) <= 2 * len(body)

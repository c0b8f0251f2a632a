"""Errors of the Bases engine: ``BaseError`` is data, the exceptions stay inside.

The engine never lets an exception out: a malformed base, a bad expression, a
formula cycle or a value of the wrong type becomes a ``BaseError`` (message,
file, line, column, code) that the caller turns into an error box and a
diagnostic.  ``ExprError`` is the one exception type the expression parser and
the evaluator raise; ``parse_base`` and ``evaluate`` catch it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A base or expression that cannot be used (bad YAML, syntax error, cycle, type error).
BASE_ERROR = "base-error"
#: A view type rendered as a table (``map``, a plugin's view type): info only.
BASE_VIEW_FALLBACK = "base-view-fallback"


@dataclass(frozen=True, slots=True)
class BaseError:
    """What is wrong, where: ``path:line:column: code: message``."""

    message: str
    path: str
    line: int
    column: int = 1
    code: str = BASE_ERROR
    level: str = "error"  # "error" or "info"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code}: {self.message}"


class ExprError(Exception):
    """A syntax or evaluation error in one expression.

    ``line`` and ``column`` are 1-based positions inside the expression text
    (``0`` when unknown, e.g. an evaluation error).
    """

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

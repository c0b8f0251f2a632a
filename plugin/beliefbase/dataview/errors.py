"""``DataviewError``: what is wrong with a query or its evaluation, and where."""

from __future__ import annotations

#: the diagnostic a renderer reports for a DataviewError (with ``located``)
DIAGNOSTIC_CODE = "dataview-error"


class DataviewError(Exception):
    """A DQL syntax error, an unknown function, a type error while evaluating.

    ``line`` and ``column`` are 1-based inside the query text (the renderer adds
    the fence's first line); 0 when the place is not known."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}: " if self.line else ""
        return f"{where}{self.message}"

    def located(self, first_line: int, indent: int = 0) -> tuple[int, int]:
        """The file line and column of the error, for a query whose first line is
        file line ``first_line``, each of its lines indented by ``indent`` columns
        (a fence in a list or a quote); the query's first line when unknown."""
        if not self.line:
            return (first_line, 1 + indent)
        return (first_line + self.line - 1, self.column + indent)

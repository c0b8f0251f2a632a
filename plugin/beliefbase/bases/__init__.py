"""Obsidian Bases, evaluated at build time (issue 27).

``parse_base`` reads a ``.base`` file or a ```` ```base ```` block into a frozen
``Base`` (errors as ``BaseError``s with lines, never exceptions);
``evaluate`` runs one of its views over ``FileRecord``s (``records.py`` builds
them from a compile) into a frozen ``ViewResult`` of typed cells;
``format_value`` / ``render_html`` show a cell as text / escaped HTML.
The expression language's grammar is in ``syntax.py``; every function of
Obsidian's "Functions" page is in ``functions.py``.
"""

from __future__ import annotations

from .context import Reads, RecordSet
from .display import format_value, link_text, render_html
from .engine import Column, Group, Row, Summary, ViewResult, evaluate
from .errors import BASE_ERROR, BASE_VIEW_FALLBACK, BaseError
from .expression import evaluate_expression
from .model import Base, Expr, FilterGroup, SortKey, View, normalize_property, parse_base
from .present import view_context
from .records import records_from_compiled, records_from_files
from .values import (
    Date,
    Duration,
    ErrorValue,
    FileRecord,
    Html,
    Icon,
    Image,
    Link,
    Regex,
    make_record,
    to_value,
)

__all__ = [
    "Reads",
    "BASE_ERROR", "BASE_VIEW_FALLBACK", "Base", "BaseError", "Column", "Date", "Duration",
    "ErrorValue", "Expr", "FileRecord", "FilterGroup", "Group", "Html", "Icon", "Image",
    "Link", "RecordSet", "Regex", "Row", "SortKey", "Summary", "View", "ViewResult",
    "evaluate", "evaluate_expression", "format_value", "link_text", "make_record",
    "normalize_property", "parse_base", "records_from_compiled", "records_from_files",
    "render_html", "to_value", "view_context",
]

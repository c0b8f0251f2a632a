"""Dataview's query language (DQL) over the notes of a vault, at build time.

The public API, for the renderer of ```` ```dataview ```` fences and `` `= expr` ``:

- ``record_from_markdown(path, body, frontmatter, ...) -> PageRecord`` (or
  ``records_from_compiled(compiled)``), ``build_index(records) -> DataviewIndex``
  once per build (``index_from_files``: both, from the build's shared file
  records ``compile.vault_files.VaultFiles``, links resolved by the compile);
- ``run(query_text, index, this_path, now=...) -> DataviewResult`` and
  ``evaluate_inline(expr_text, index, this_path, now=...)``; both raise
  ``DataviewError`` (line and column inside the query) and nothing else;
- ``format_html(value, link_href)`` for every value shown, ``view_context(result,
  link_href)`` for the site's table/list views;
- ``extract_inline_fields(body, first_line)`` (the codec's reader,
  ``codecs.inline_fields``: the compile records every note's fields in
  ``ParsedDoc.inline_fields``, which ``records_from_compiled`` reads) and
  ``render_inline_field(field, format)``; ``extract_items`` for lists/tasks;
- ``javascript.not_run(code)`` for DataviewJS, which is never run.

Modules: ``grammar`` (the lark grammar), ``parser`` → ``nodes``; ``evaluate``
(expressions compiled to closures) with ``functions``; ``values``, ``dates``,
``text``; ``inline_fields``, ``items``, ``records``, ``index``; ``engine``;
``display``, ``view``; ``javascript``; the timing script is ``python -m
beliefbase.bench.dataview``).
"""

from __future__ import annotations

from .display import format_html, format_text
from .engine import (
    CALENDAR_NOTE,
    DataviewResult,
    ResultRow,
    TaskEntry,
    TaskGroup,
    build_index,
    evaluate_inline,
    index_from_compiled,
    index_from_files,
    run,
    source_pages,
)
from .errors import DIAGNOSTIC_CODE as DATAVIEW_ERROR
from .errors import DataviewError
from .evaluate import Reads
from .index import DataviewIndex
from .inline_fields import (
    InlineField,
    extract_inline_fields,
    parse_inline_value,
    render_inline_field,
    sanitize_key,
)
from .items import ListItem, extract_items
from .javascript import DIAGNOSTIC_CODE as DATAVIEW_JS_NOT_RUN
from .javascript import NotRun, inline_kind, is_js_fence, not_run
from .parser import parse_expression, parse_query
from .records import (
    PageRecord,
    record_from_markdown,
    records_from_compiled,
    records_from_files,
)
from .values import Duration, ExternalLink, Link
from .view import view_context

__all__ = [
    "CALENDAR_NOTE",
    "DATAVIEW_ERROR",
    "DATAVIEW_JS_NOT_RUN",
    "DataviewError",
    "DataviewIndex",
    "DataviewResult",
    "Duration",
    "ExternalLink",
    "InlineField",
    "Link",
    "ListItem",
    "NotRun",
    "PageRecord",
    "Reads",
    "ResultRow",
    "TaskEntry",
    "TaskGroup",
    "build_index",
    "evaluate_inline",
    "extract_inline_fields",
    "extract_items",
    "format_html",
    "format_text",
    "index_from_compiled",
    "index_from_files",
    "inline_kind",
    "is_js_fence",
    "not_run",
    "parse_expression",
    "parse_inline_value",
    "parse_query",
    "record_from_markdown",
    "records_from_compiled",
    "records_from_files",
    "render_inline_field",
    "run",
    "sanitize_key",
    "source_pages",
    "view_context",
]

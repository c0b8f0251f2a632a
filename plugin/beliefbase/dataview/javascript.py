"""DataviewJS is never run: ```` ```dataviewjs ```` blocks and `` `$= …` `` inline
queries are JavaScript, and queries in notes are data.

The renderer shows such code collapsed with ``JS_NOT_RUN_NOTE`` under it and
reports an info diagnostic ``dataview-js-not-run`` at the block's line.
"""

from __future__ import annotations

from dataclasses import dataclass

DIAGNOSTIC_CODE = "dataview-js-not-run"
JS_NOT_RUN_NOTE = ("DataviewJS is not run when the site is built: this JavaScript is shown "
                   "as code.")
JS_FENCE_LANGUAGES = frozenset({"dataviewjs"})
INLINE_JS_PREFIX = "$="
INLINE_DQL_PREFIX = "="


@dataclass(frozen=True, slots=True)
class NotRun:
    """What to show instead of running JavaScript, and the diagnostic to report."""

    code: str  # the JavaScript, shown as text (escaped by the view)
    note: str
    diagnostic_code: str
    message: str


def is_js_fence(language: str) -> bool:
    """Is a fence of this language DataviewJS?"""
    return language.strip().lower() in JS_FENCE_LANGUAGES


def inline_kind(code_span: str) -> str | None:
    """``"js"`` for `` `$= …` ``, ``"dql"`` for `` `= …` ``, None for other code."""
    text = code_span.lstrip()
    if text.startswith(INLINE_JS_PREFIX):
        return "js"
    if text.startswith(INLINE_DQL_PREFIX):
        return "dql"
    return None


def not_run(code: str, inline: bool = False) -> NotRun:
    """The collapsed-code stand-in for a DataviewJS block or inline `$=` query."""
    what = "an inline DataviewJS query" if inline else "a dataviewjs block"
    return NotRun(code, JS_NOT_RUN_NOTE, DIAGNOSTIC_CODE,
                  f"{what} is JavaScript and is not run; it is shown as code")

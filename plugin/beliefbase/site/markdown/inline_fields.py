"""Dataview's inline fields as its reading view shows them.

- ``[key:: value]``: the key and the value, each in a span;
- ``(key:: value)``: the value alone;
- ``Key:: value`` on a line of its own: as written (nothing to do).

The spans carry Dataview's classes (``dataview inline-field``,
``inline-field-key``, ``inline-field-value``, ``inline-field-standalone-value``)
and its ``data-dv-key`` / ``data-dv-norm-key`` attributes, so CSS snippets
written for Obsidian apply.  What is a field is the codec's reader's decision
(``codecs.inline_fields``, the rules the compile and the Dataview engine read
by): the pattern only proposes a ``[`` or ``(`` followed by ``key::``, and the
reader, run on the line, confirms it.

The inline pattern (``bb_inline_field``, 187) runs after code spans (190: a
field in code is code) and before wikilinks (185), backslash escapes (180),
links (170), emphasis and tags: a value is Markdown, its wikilinks resolved
links, its tags tags.  A date or duration value shows as Dataview formats it
(``January 2, 2022``, ``3 days``); every other value as written.  A field in a
heading stays as written (the heading's anchor is made from its text).
"""

from __future__ import annotations

import datetime as dt
import re
from xml.etree import ElementTree as etree

from markdown import Markdown
from markdown.inlinepatterns import InlineProcessor
from markdown.util import AtomicString

from ...codecs.field_values import Duration
from ...codecs.inline_fields import BRACKET_KEY, InlineField, extract_inline_fields

# a "[" or "(" (not after a "[", not one of a wikilink's "[[") and a key: what the
# reader confirms.  The opener first, the look-behind after it: a pattern that starts
# with a character set is searched for at C speed (a third of the CPU over every
# paragraph of a page).
_CANDIDATE = r"[\[(](?<!\[[\[(])(?!\[)" + BRACKET_KEY + "::"
PRIORITY = 187


class InlineFieldPattern(InlineProcessor):
    """``[key:: value]`` and ``(key:: value)`` -> Dataview's spans.  Not in a
    heading: its anchor and the note's title are its text as written (the
    compile's ``plain_text``), so a field there stays as written."""

    ANCESTOR_EXCLUDES = ("h1", "h2", "h3", "h4", "h5", "h6")

    def __init__(self, md: Markdown) -> None:
        super().__init__(_CANDIDATE, md)
        self._line: tuple[str, dict[int, InlineField]] = ("", {})

    def handleMatch(  # noqa: N802 - Python-Markdown API
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        start = m.start()
        line_start = data.rfind("\n", 0, start) + 1
        line_end = data.find("\n", start)
        line = data[line_start:] if line_end < 0 else data[line_start:line_end]
        field = self._fields(line).get(start - line_start)
        if field is None:
            return None, None, None
        end = line_start + field.end
        value_start = data.index("::", m.end() - 2) + 2
        return _element(field, data[value_start:end - 1].strip()), start, end

    def _fields(self, line: str) -> dict[int, InlineField]:
        """The bracketed fields of ``line`` by where they start (the last line's
        kept: a line with several fields is read once per field otherwise)."""
        if self._line[0] != line:
            found = {f.start: f for f in extract_inline_fields(line) if f.style != "line"}
            self._line = (line, found)
        return self._line[1]


def _element(field: InlineField, value_text: str) -> etree.Element:
    attrs = {"data-dv-key": field.key, "data-dv-norm-key": field.sanitized}
    outer = etree.Element("span", {"class": "dataview inline-field"})
    if field.style == "bracket":
        key = etree.SubElement(outer, "span", {"class": "dataview inline-field-key", **attrs})
        key.text = AtomicString(field.key)
        value = etree.SubElement(outer, "span", {"class": "dataview inline-field-value", **attrs})
    else:
        value = etree.SubElement(
            outer, "span", {"class": "dataview inline-field-standalone-value", **attrs})
    shown = _formatted(field.value)
    # the value's Markdown goes through the patterns after this one (links, tags, ...)
    value.text = AtomicString(shown) if shown is not None else value_text
    return outer


def _formatted(value: object) -> str | None:
    """A date or a duration as Dataview shows it; None: the value as written."""
    if isinstance(value, dt.datetime):
        from ...dataview.dates import display_date  # the engine only for a date

        return display_date(value)
    if isinstance(value, Duration):
        return value.human()
    return None


def register(md: Markdown) -> None:
    md.inlinePatterns.register(InlineFieldPattern(md), "bb_inline_field", PRIORITY)

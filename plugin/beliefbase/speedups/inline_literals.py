"""Python-Markdown's inline patterns tried only on text that holds what they need.

``InlineProcessor.__handleInline`` tries every inline pattern in priority order on
every text of a page (twenty with our four and the default extensions): a Python
call, a registry look-up and a regular-expression search each, although a text
of prose holds the ``[``, ``*``, ``` ` ```, ``<`` or ``#`` of a few of them at most.
That loop was a third of our conversion at 1,000 notes (``docs/develop/speed.md``).

Each pattern's regular expression is read once (``re._parser``, the standard
library's own parser) for the literal strings every match must contain: the
characters it matches in sequence outside any optional part, a character class of
literal characters (any one of them), the alternatives of a branch that each need
one.  A text that lacks one of them cannot be matched, so the pattern is skipped
exactly where Python-Markdown would have searched, found nothing and gone on to
the next pattern (``__applyPattern`` returning ``data, False, 0``); every other
pattern runs through Python-Markdown's own ``__applyPattern``.  A pattern whose
expression is case-insensitive, or whose class replaces ``getCompiledRegExp``, or
that the parser cannot read, is always tried.  The text looked at is the whole
current string (a match's placeholder included), of which the part searched is a
suffix: a pattern is never skipped where it could match.

The registry is read once per ``run`` (the patterns in order, as ``__handleInline``
would index them); a ``run`` that is not ours (an extension's subclass with its
own) leaves no table, and Python-Markdown's own loop runs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from re import _constants as _sre  # the standard library's own parser (Python 3.11+)
from re import _parser as _sre_parse
from typing import Any

from markdown import inlinepatterns, treeprocessors
from markdown.util import AtomicString

#: one requirement: at least one of these strings is in every text the pattern matches
Group = tuple[str, ...]
#: a pattern's requirements (all of them), or None: always try it
Needs = tuple[Group, ...] | None

#: the repeats whose body matches at least ``min`` times
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT)

#: the attribute of an ``InlineProcessor`` holding its run's (pattern, needs) table
_TABLE = "_bb_inline_table"

#: Python-Markdown's own methods, while ours are installed
_original: tuple[Callable[..., Any], Callable[..., Any]] | None = None


@functools.lru_cache(maxsize=512)
def needs(source: str, flags: int) -> Needs:
    """What every match of the expression ``source`` (compiled with ``flags``) contains."""
    if flags & re.IGNORECASE:
        return None
    try:
        parsed = _sre_parse.parse(source, flags)
    except Exception:  # (an expression re compiled but this parser reads differently)
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    groups = _sequence(list(parsed))
    return tuple(groups) if groups else None


def _sequence(items: Sequence[tuple[Any, Any]]) -> list[Group]:
    """The requirements of a sequence of parsed items, every one of which must match."""
    groups: list[Group] = []
    run: list[str] = []

    def end_run() -> None:
        if run:
            groups.append(("".join(run),))
            run.clear()

    for op, arg in items:
        if op is _sre.LITERAL:
            run.append(chr(arg))
            continue
        end_run()
        if op is _sre.SUBPATTERN:
            _group, add_flags, _del_flags, inner = arg
            if not add_flags & re.IGNORECASE:
                groups.extend(_sequence(list(inner)))
        elif op in _REPEATS:
            low, _high, inner = arg
            if low >= 1:
                groups.extend(_sequence(list(inner)))
        elif op is _sre.ATOMIC_GROUP:
            groups.extend(_sequence(list(arg)))
        elif op is _sre.IN:
            chars = _literal_class(arg)
            if chars:
                groups.append(chars)
        elif op is _sre.BRANCH:
            either = _branch(arg[1])
            if either:
                groups.append(either)
        # anything else (ANY, a category, a back-reference, an assertion, ...) needs
        # nothing we can name
    end_run()
    return groups


def _literal_class(items: Sequence[tuple[Any, Any]]) -> Group:
    """``[abc]``: one of its characters; () for a class with ranges, categories or a
    negation."""
    chars = []
    for op, arg in items:
        if op is not _sre.LITERAL:
            return ()
        chars.append(chr(arg))
    return tuple(chars)


def _branch(alternatives: Sequence[Any]) -> Group:
    """``a|b``: one of each alternative's first requirement; () unless each has one."""
    either: list[str] = []
    for alternative in alternatives:
        groups = _sequence(list(alternative))
        if not groups:
            return ()
        either.extend(groups[0])
    return tuple(dict.fromkeys(either))


def pattern_needs(pattern: Any) -> Needs:
    """``needs`` of an inline pattern as ``__applyPattern`` searches it."""
    if type(pattern).getCompiledRegExp is not inlinepatterns.Pattern.getCompiledRegExp:
        return None
    compiled = getattr(pattern, "compiled_re", None)
    if not isinstance(compiled, re.Pattern) or not isinstance(compiled.pattern, str):
        return None
    return needs(compiled.pattern, compiled.flags)


def _handle_inline(self: Any, data: str, patternIndex: int = 0) -> str:
    """``__handleInline``, skipping a pattern on a text lacking what it needs."""
    table = self.__dict__.get(_TABLE)
    if table is None or isinstance(data, AtomicString):  # (Python-Markdown keeps an atomic one)
        assert _original is not None
        plain: str = _original[0](self, data, patternIndex)
        return plain
    apply: Callable[[Any, str, int, int], tuple[str, bool, int]] = (
        self._InlineProcessor__applyPattern)
    start = 0
    count = len(table)
    while patternIndex < count:
        pattern, wanted = table[patternIndex]
        if wanted is not None:
            lacking = False
            for group in wanted:
                for needle in group:
                    if needle in data:
                        break
                else:  # none of the group: the pattern cannot match
                    lacking = True
                    break
            if lacking:  # what __applyPattern would return: not matched, start again at 0
                patternIndex += 1
                start = 0
                continue
        data, matched, start = apply(pattern, data, patternIndex, start)
        if not matched:
            patternIndex += 1
    return data


def _run(self: Any, tree: Any, ancestors: list[str] | None = None) -> Any:
    """``InlineProcessor.run`` with the run's table of patterns and what they need."""
    assert _original is not None
    before = self.__dict__.get(_TABLE)
    self.__dict__[_TABLE] = [(pattern, pattern_needs(pattern)) for pattern in self.inlinePatterns]
    try:
        return _original[1](self, tree, ancestors)
    finally:
        if before is None:
            self.__dict__.pop(_TABLE, None)
        else:
            self.__dict__[_TABLE] = before


def install() -> None:
    """Swap ``InlineProcessor``'s inline loop and ``run`` (once per process)."""
    global _original
    if _original is not None:
        return
    cls = treeprocessors.InlineProcessor
    _original = (cls._InlineProcessor__handleInline, cls.run)
    cls._InlineProcessor__handleInline = _handle_inline
    cls.run = _run


def uninstall() -> None:
    global _original
    if _original is None:
        return
    cls = treeprocessors.InlineProcessor
    cls._InlineProcessor__handleInline, cls.run = _original
    _original = None

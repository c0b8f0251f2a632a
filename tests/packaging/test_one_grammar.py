"""One grammar (issue 30): the Markdown block rules are written down once.

A list item's marker, a quote marker, an ATX heading's ``#``s, a task's box and an
code fence's run and an inline field's key are spelled in ``codecs/grammar.py`` (the field key in
``codecs/inline_fields.py``, which owns it); every other module composes its
patterns from those named pieces.  This test reads every string literal of the
plugin's modules and fails on a second spelling of one of those rules.  The
allow-list holds what is a different rule on purpose; it may only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

import beliefbase

PACKAGE = Path(beliefbase.__file__).resolve().parent
#: The modules that own the rules.
OWNERS = {"codecs/grammar.py", "codecs/inline_fields.py"}
#: How the rules were spelled before they had one home (and any regex reader would
#: write them again): list markers, quote markers, ATX heading hashes, task boxes, a
#: ``key::`` rule.
SPELLINGS = (
    r"[-*+]", r"[*+-]", r"[-+*]", r"[+*-]", r"[*-+]", r"[+-*]",
    r"\d{1,9}[.)]", r"\d+[.)]", r"\d+\.", r"[0-9]+[.)]",
    r">[ ]?", r">[ \t]?", r">\s?",
    r"#{1,6}", r"\#{1,6}", r"`{3,}|~{3,}",
    r"\[[ xX", r"[^\]\n])\]",
    r"[\w \-]{0,60}", r"[A-Za-z_][\w-]*::", r"[^\[\]()\n:",
)
#: (module, spelling): a different rule on purpose.  May only shrink.
ALLOWED = {
    # the loose "container" of a display formula's lines (tabs and any indentation
    # before and after ">"): the math scanner reads raw text, the quote rule
    # (QUOTE_MARKER) is Python-Markdown's after tabs are expanded
    ("codecs/math.py", r">[ \t]?"),
}


def _literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def _spelled() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module in OWNERS:
            continue
        for text in _literals(path):
            found.update((module, s) for s in SPELLINGS if s in text)
    return found


def test_block_rules_are_spelled_only_in_the_grammar() -> None:
    extra = _spelled() - ALLOWED
    assert not extra, ("a Markdown block rule spelled outside codecs/grammar.py "
                       f"(compose its named pieces instead): {sorted(extra)}")


def test_the_allow_list_only_shrinks() -> None:
    """An entry whose spelling is gone must leave the list."""
    assert not ALLOWED - _spelled(), sorted(ALLOWED - _spelled())


def test_the_guard_sees_a_restated_rule(tmp_path: Path) -> None:
    """The guard catches the copies this issue removed (snippet's, markdown's)."""
    copy = tmp_path / "copy.py"
    copy.write_text('import re\n_LIST = re.compile(r"^[ \\t]*(?:[-*+]|\\d{1,9}[.)])[ \\t]")\n'
                    '_QUOTE = re.compile(r"^(?:[ ]{0,3}>[ ]?)+")\n'
                    '_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \\t]|$)")\n', encoding="utf-8")
    text = "".join(_literals(copy))
    assert {s for s in SPELLINGS if s in text} >= {r"[-*+]", r">[ ]?", r"#{1,6}"}

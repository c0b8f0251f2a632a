"""Math in notes: where ``$…$`` and ``$$…$$`` are, and their MathML.

``find_math`` is the one scanner: the codec masks what it finds (a ``[[x]]``
or ``#x`` inside a formula is LaTeX, not a link or a tag) and reports the
formulas that do not convert; the page's Markdown extension (``site.math``)
renders what it finds.  Both call it on the same text with the same code
regions, so they agree on what is math.

Delimiters follow Obsidian (and Pandoc's ``tex_math_dollars``):

* ``$$`` opens display math, on a line of its own or inside a paragraph, and
  the next ``$$`` closes it, across blank lines too (Obsidian);
* no formula runs across a heading: a stray ``$$`` never swallows one.  A ``$$``
  on its own line opens a block, which holds a ``#`` line among the formula's lines,
  but not a heading set off by a blank line;
* nothing in a formula is Markdown or code: a backtick, ``|``, ``<`` or ``_``
  inside it is LaTeX (``codecs.mask.code_and_math`` reads code spans and
  formulas in one pass, the one that opens first wins);
* an opening ``$`` is not followed by whitespace; the next unescaped ``$`` in
  its paragraph closes it if it is not preceded by whitespace nor followed by
  a digit, else the opener is text: "costs $5 and $10" is not math;
* in a table row ``\\|`` inside a formula is the cell's escaped pipe, ``|``
  (GFM reads the escape before the formula, and so does Obsidian);
* ``\\$`` is a dollar sign, never a delimiter; nothing in code is math, and a
  formula cannot run into code (the search for its end stops there);
* a ``$`` inside a wikilink is part of the link's text (``[[Note#The $x$
  rule]]`` links to that heading), while a formula may hold ``[[x]]``: the
  one that opens first wins;
* three or more ``$`` in a row are text.

Inside a quote (or callout), the ``>`` markers that continue a formula onto
its next lines are not LaTeX and are dropped from ``Formula.latex``.

Conversion is latex2mathml's (pure Python, at build time: the page needs no
script and loads nothing; current browsers render MathML Core).  Its output is
parsed and rebuilt from an allowlist of MathML elements and attributes, so no
formula can put HTML or a link into the page.  A formula it cannot convert,
or with a command it does not know, is shown as its source.  Where latex2mathml
falls short of what Obsidian's MathJax renders (``\\Big\\vert``, ``<`` in
``\\text{}``, ``\\textbraceleft``), ``codecs.latex_fixes`` rewrites the source first.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from xml.etree import ElementTree as etree

# The delimiters, and a wikilink or an embed (whose `$` is text), are grammar's.
from .grammar import ATX_OPEN, MATH_DISPLAY, MATH_INLINE, QUOTE_MARKER
from .grammar import WIKILINK as _WIKILINK
from .latex_fixes import prepare, restore

_BLANK_LINE = re.compile(r"\n[ \t>]*\n")
# A heading line (in a quote too): a formula never runs across one.
_HEADING_LINE = re.compile(r"\n(?:" + QUOTE_MARKER + r")*" + ATX_OPEN + r"(?:[ \t]|\n)")
# ... with a blank line right before or after it.
_SET_OFF_HEADING = re.compile(
    r"\n[ \t>]*\n(?:" + QUOTE_MARKER + r")*" + ATX_OPEN + r"(?:[ \t]|\n)"
    r"|\n(?:" + QUOTE_MARKER + r")*" + ATX_OPEN + r"(?:[ \t][^\n]*)?\n[ \t>]*\n")
# What toc.strip_tags removes from a heading's HTML to name it.
_TAGS = re.compile(r"<[^>]*>")
# A table row (in a quote too): its formulas' ``\|`` is a cell's escaped pipe, ``|``.
_TABLE_ROW = re.compile(r"(?:" + QUOTE_MARKER + r")*[ ]{0,3}\|")
# What may stand before a display block's `$$` on its line: indentation and quote markers.
_CONTAINER = re.compile(r"[ \t]*(?:>[ \t]?)*")
_QUOTE_MARKS = re.compile(r"[ \t]*(?:>[ \t]?)")
_MATHML_NS = "{http://www.w3.org/1998/Math/MathML}"
#: MathML elements a formula may produce (latex2mathml's output, MathML Core).
_ELEMENTS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup",
    "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr", "mtd", "mover", "munder",
    "munderover", "menclose", "mpadded", "mphantom", "merror", "mmultiscripts",
    "mprescripts", "none", "semantics", "annotation", "mlabeledtr",
})
#: Presentation attributes only: no href (latex2mathml turns \href into one), no events.
_ATTRIBUTES = frozenset({
    "display", "mathvariant", "stretchy", "fence", "form", "separator", "columnalign",
    "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines", "frame",
    "framespacing", "linethickness", "accent", "accentunder", "movablelimits", "largeop",
    "symmetric", "lspace", "rspace", "width", "height", "depth", "voffset", "notation",
    "displaystyle", "scriptlevel", "mathsize", "minsize", "maxsize", "linebreak",
    "mathcolor", "mathbackground", "bevelled", "align", "equalrows", "equalcolumns",
})
# A colour value: a name or #hex, nothing that could leave the attribute's meaning.
_COLOUR = re.compile(r"#?[A-Za-z0-9]{1,20}")
# An unknown command, which latex2mathml prints as an identifier: `<mi>\label</mi>`.
_UNKNOWN_COMMAND = re.compile(r"\\[A-Za-z]+")
# `aligned` is what Obsidian users write; latex2mathml shows its `&` as text but
# converts `align*` (the same layout) correctly.
_ALIGNED = re.compile(r"\\(begin|end)\{aligned\}")


@dataclass(frozen=True, slots=True)
class Formula:
    """One formula: ``text[start:end]`` with its delimiters, and the LaTeX inside."""

    start: int
    end: int
    latex: str
    display: bool
    block: bool  # display math alone on its lines (rendered as a block of its own)


def find_math(text: str, code: list[tuple[int, int]]) -> list[Formula]:
    """Every formula of ``text`` outside ``code`` (sorted (start, end) regions)."""
    if MATH_INLINE not in text:
        return []
    starts = [start for start, _ in code]
    links = wikilink_spans(text)
    found: list[Formula] = []
    formula = next_formula(text, 0, code, starts, links)
    while formula is not None:
        found.append(formula)
        formula = next_formula(text, formula.end, code, starts, links)
    return found


def wikilink_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each wikilink or embed: a ``$`` inside one is text."""
    return _wikilinks(text) if "[[" in text else []


def next_formula(text: str, at: int, code: list[tuple[int, int]], starts: list[int],
                 links: list[tuple[int, int]]) -> Formula | None:
    """The first formula of ``text`` opening at or after ``at``, outside ``code`` (sorted
    regions; ``starts``: their starts) and ``links`` (``wikilink_spans``)."""
    at = text.find(MATH_INLINE, at)
    while at >= 0:
        i = bisect_right(starts, at) - 1
        if i >= 0 and code[i][1] > at:
            at = text.find(MATH_INLINE, code[i][1])  # a `$` in code is text
            continue
        j = bisect_right(links, (at, len(text))) - 1
        if j >= 0 and links[j][1] > at:
            at = text.find(MATH_INLINE, links[j][1])  # ... and so is one in a wikilink
            continue
        run = _run(text, at)
        if _escaped(text, at) or run > 2:
            at = text.find(MATH_INLINE, at + max(run, 1))
            continue
        limit = starts[i + 1] if i + 1 < len(starts) else len(text)
        formula = (_display(text, at, limit) if run == 2 else _inline(text, at, limit))
        if formula is not None:
            return formula
        at = text.find(MATH_INLINE, at + run)
    return None


def _wikilinks(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WIKILINK.finditer(text)]


def _run(text: str, at: int) -> int:
    end = at
    while end < len(text) and text[end] == MATH_INLINE:
        end += 1
    return end - at


def _escaped(text: str, at: int) -> bool:
    """Is ``text[at]`` escaped (an odd number of backslashes before it)?"""
    back = at
    while back > 0 and text[back - 1] == "\\":
        back -= 1
    return (at - back) % 2 == 1


def _crosses_paragraph(text: str, start: int, end: int) -> bool:
    """Is there a blank line in ``text[start:end]``?  (Searched only up to the closer
    found, so a paragraph full of `$` costs the distance between them, not its length.)"""
    return _BLANK_LINE.search(text, start, end) is not None


def _crosses_heading(text: str, start: int, end: int, set_off: bool = False) -> bool:
    """Is a line of ``text[start:end]`` a heading?  No formula swallows one: a stray
    ``$$`` pairs with a later one only within the same section.  ``set_off``: only a
    heading with a blank line before or after it counts (inside a ``$$`` block of its
    own a ``#`` line among the formula's lines is LaTeX; a heading written as Markdown
    has blank lines around it)."""
    if text.find("#", start, end) < 0:
        return False
    pattern = _SET_OFF_HEADING if set_off else _HEADING_LINE
    return pattern.search(text, start, end) is not None


def _display(text: str, at: int, limit: int) -> Formula | None:
    line_start = text.rfind("\n", 0, at) + 1
    own_line = _CONTAINER.match(text, line_start, at).end() == at  # type: ignore[union-attr]
    close = text.find(MATH_DISPLAY, at + 2, limit)
    while close >= 0 and _escaped(text, close):
        close = text.find(MATH_DISPLAY, close + 1, limit)
    if close < 0 or _crosses_heading(text, at, close, set_off=own_line):
        return None
    latex = text[at + 2:close]
    if not latex.strip():
        return None
    after = close + 2
    line_end = text.find("\n", after)
    line_end = len(text) if line_end < 0 else line_end
    block = own_line and not text[after:line_end].strip()
    return Formula(at, after, _unquote(latex, text, line_start), True, block)


def _inline(text: str, at: int, limit: int) -> Formula | None:
    """Pandoc's rule: the first unescaped ``$`` after the opener closes it or nothing."""
    if at + 1 >= len(text) or text[at + 1].isspace():
        return None
    close = text.find(MATH_INLINE, at + 1, limit)
    while close >= 0 and _escaped(text, close):
        close = text.find(MATH_INLINE, close + 1, limit)
    if close < 0 or text[close - 1].isspace() or (
        close + 1 < len(text) and text[close + 1].isdigit()
    ) or _crosses_paragraph(text, at, close) or _crosses_heading(text, at, close):
        return None
    line_start = text.rfind("\n", 0, at) + 1
    latex = _unquote(text[at + 1:close], text, line_start)
    if "\\|" in latex and _TABLE_ROW.match(text, line_start):
        latex = latex.replace("\\|", "|")  # a table cell's escaped pipe (GFM, Obsidian)
    return Formula(at, close + 1, latex, False, False)


def _unquote(latex: str, text: str, line_start: int) -> str:
    """Drop the quote markers that continue a formula onto its next lines."""
    if "\n" not in latex:
        return latex
    prefix = _CONTAINER.match(text, line_start).group()  # type: ignore[union-attr]
    depth = prefix.count(">")
    if not depth:
        return latex
    lines = latex.split("\n")
    for k in range(1, len(lines)):
        for _ in range(depth):
            m = _QUOTE_MARKS.match(lines[k])
            if m is None:
                break
            lines[k] = lines[k][m.end():]
    return "\n".join(lines)


@lru_cache(maxsize=1 << 14)
def to_mathml(latex: str, display: bool) -> tuple[str | None, str]:
    """(MathML, "") for a formula, or (None, why it could not be converted).

    Memoised: a formula that appears twice (or on every rebuild of ``mkdocs
    serve``, or in the codec and then on the page) is converted once a process.
    """
    from latex2mathml.converter import convert  # slow to import: only for notes with math

    source = prepare(_ALIGNED.sub(r"\\\1{align*}", latex.strip()))
    try:
        raw = convert(source, display="block" if display else "inline")
    except Exception as exc:  # noqa: BLE001 - latex2mathml raises many kinds
        return None, _reason(exc)
    try:
        root = etree.fromstring(raw)
    except etree.ParseError:
        return None, "it holds characters MathML cannot carry here (such as < or & in \\text)"
    problem = _clean(root)
    if problem:
        return None, problem
    restore(root)
    return etree.tostring(root, encoding="unicode", short_empty_elements=True), ""


#: latex2mathml's exceptions (which carry no message) in the author's words.
_REASONS = {
    "NoAvailableTokensError": "the formula ends too early (a command without its argument, "
                              "or an unclosed {)",
    "MissingSuperScriptOrSubscriptError": "^ or _ with nothing after it",
    "DoubleSubscriptsError": "two subscripts in a row (write x_{12} or {x_1}_2)",
    "DoubleSuperscriptsError": "two superscripts in a row (write x^{ab} or {x^a}^b)",
    "ExtraLeftOrMissingRightError": "a \\left without its \\right (or the other way round)",
    "MissingEndError": "a \\begin{...} without its \\end{...}",
    "DenominatorNotFoundError": "a fraction without its denominator",
    "NumeratorNotFoundError": "a fraction without its numerator",
    "LimitsMustFollowMathOperatorError": "\\limits after something that is not an operator",
}


def formula_text(formula: Formula) -> str:
    """The text of a formula on the page: what ``toc`` names a heading holding it by
    (the MathML with its tags stripped), or its source when it does not convert."""
    mathml, _why = to_mathml(formula.latex, formula.display)
    if mathml is None:
        mark = MATH_DISPLAY if formula.display else MATH_INLINE
        return mark + formula.latex + mark
    return html.unescape(_TAGS.sub("", mathml))


def _reason(exc: Exception) -> str:
    name = type(exc).__name__
    if name in _REASONS and not str(exc).strip():
        return _REASONS[name]
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name.removesuffix("Error")).lower()
    detail = str(exc).strip()
    return f"{words} ({detail})" if detail else words


def _clean(root: etree.Element) -> str:
    """Strip namespaces and every attribute not allowed; a message if the tree has
    an element that is not MathML, or an unknown command."""
    for el in root.iter():
        tag = el.tag.removeprefix(_MATHML_NS) if isinstance(el.tag, str) else ""
        if tag not in _ELEMENTS:
            return f"it produced <{tag}>, which is not MathML"
        el.tag = tag
        for name in list(el.attrib):
            value = el.attrib[name]
            if name not in _ATTRIBUTES or (
                name in ("mathcolor", "mathbackground") and not _COLOUR.fullmatch(value)
            ):
                del el.attrib[name]
        if tag in ("mi", "mo", "mtext") and el.text and el.text.startswith("\\"):
            unknown = _UNKNOWN_COMMAND.match(el.text)
            if unknown:
                return f"unknown command {unknown.group()}"
    return ""

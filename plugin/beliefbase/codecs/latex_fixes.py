"""LaTeX that Obsidian's MathJax renders and latex2mathml does not: rewritten first.

A pre-pass over the formula's source, in our own code (latex2mathml's internals are
left alone), then a post-pass over its MathML tree:

* a ``\\big``-family size (``\\big``, ``\\Big``, ``\\bigg``, ``\\Bigg``, with ``l``,
  ``r`` or ``m``) before a delimiter written as a command (``\\Big\\vert``,
  ``\\bigg\\langle``, ``\\big\\|``, ``\\Big\\{``) gets the delimiter's character,
  which latex2mathml sizes (it printed ``\\vert`` as text); ``\\bigr.`` (the null
  delimiter) is dropped;
* in text (``\\text{}``, ``\\textrm{}``, ``\\mbox{}`` …) ``<``, ``>``, ``&`` and the
  escaped ``\\& \\% \\$ \\# \\_ \\{ \\}`` are that character (latex2mathml wrote a
  raw ``<`` that no MathML parser reads, or the backslash);
* the text-mode symbols ``\\textbraceleft``, ``\\textbraceright``, ``\\textless``,
  ``\\textgreater``, ``\\textbar``, ``\\textbackslash``, ``\\textasciitilde``,
  ``\\textasciicircum``, ``\\textunderscore`` are their characters;
* ``\\label{…}`` (a cross-reference target, invisible in Obsidian) is dropped;
* a sized delimiter is made stretchy, so the browser draws it at its size.

A character the pre-pass puts in is a private-use stand-in (so LaTeX never reads
it as syntax); ``restore`` puts the real character in the MathML tree's text, which
the serializer escapes.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as etree

# Stand-ins: private-use characters latex2mathml passes through as text.
_STAND_IN_BASE = 0xF0000
_CHARS = "<>&%$#_{}|\\~^"
#: stand-in -> the character it stands for
_REAL = {chr(_STAND_IN_BASE + i): c for i, c in enumerate(_CHARS)}
_STAND_IN = {c: chr(_STAND_IN_BASE + i) for i, c in enumerate(_CHARS)}
_ANY_STAND_IN = re.compile("[" + "".join(_REAL) + "]")

# A size command and the delimiter after it, written as a command.
_SIZED = re.compile(
    r"(?P<size>\\(?:big|Big|bigg|Bigg)[lrm]?)(?![A-Za-z])[ \t]*"
    r"(?P<delim>\\[A-Za-z]+|\\[{}|]|\.)")
#: Delimiter commands -> their character.
_DELIMITERS = {
    r"\vert": "|", r"\lvert": "|", r"\rvert": "|", r"\|": "\u2016", r"\Vert": "\u2016",
    r"\lVert": "\u2016", r"\rVert": "\u2016", r"\langle": "\u27e8", r"\rangle": "\u27e9",
    r"\lfloor": "\u230a", r"\rfloor": "\u230b", r"\lceil": "\u2308", r"\rceil": "\u2309",
    r"\{": "{", r"\}": "}", r"\lbrace": "{", r"\rbrace": "}", r"\lgroup": "\u27ee",
    r"\rgroup": "\u27ef", r"\uparrow": "\u2191", r"\downarrow": "\u2193",
    r"\Uparrow": "\u21d1", r"\Downarrow": "\u21d3", r"\updownarrow": "\u2195",
    r"\backslash": "\u2216", r"\lmoustache": "\u23b0", r"\rmoustache": "\u23b1",
}
# Text-mode symbols -> their character.
_TEXT_SYMBOLS = {
    "textbraceleft": "{", "textbraceright": "}", "textless": "<", "textgreater": ">",
    "textbar": "|", "textbackslash": "\\", "textasciitilde": "~", "textasciicircum": "^",
    "textunderscore": "_",
}
_TEXT_SYMBOL = re.compile(r"\\(" + "|".join(_TEXT_SYMBOLS) + r")(?![A-Za-z])(?:\{\})?[ ]?")
# A text command's opening: its group is scanned for the closing brace.
_TEXT_COMMAND = re.compile(r"\\(?:text(?:rm|it|bf|tt|sf|normal|up|sl|sc)?|mbox)[ \t]*\{")
# In text: an escaped special character, or a raw one MathML text cannot hold.
_IN_TEXT = re.compile(r"\\([&%$#_{}])|([<>&])")
_LABEL = re.compile(r"\\label[ \t]*\{[^{}]*\}")


def prepare(latex: str) -> str:
    """``latex`` rewritten where latex2mathml falls short (module doc)."""
    if "\\" not in latex and "<" not in latex and ">" not in latex:
        return latex
    if "\\label" in latex:
        latex = _LABEL.sub("", latex)
    if "\\big" in latex or "\\Big" in latex:
        latex = _SIZED.sub(_sized, latex)
    if "\\text" in latex:
        latex = _TEXT_SYMBOL.sub(lambda m: _STAND_IN[_TEXT_SYMBOLS[m.group(1)]], latex)
    if "\\text" in latex or "\\mbox" in latex:
        latex = _text_groups(latex)
    return latex


def _sized(m: re.Match[str]) -> str:
    delim = m.group("delim")
    if delim == ".":
        return "{}"  # the null delimiter: only its size, which shows nothing
    char = _DELIMITERS.get(delim)
    if char is None:
        return m.group()
    return m.group("size") + _STAND_IN.get(char, char)


def _text_groups(latex: str) -> str:
    """Special characters inside each text command's braces -> stand-ins."""
    out: list[str] = []
    pos = 0
    for m in _TEXT_COMMAND.finditer(latex):
        if m.start() < pos:
            continue  # inside a group already rewritten
        end = _group_end(latex, m.end())
        if end < 0:
            break  # unbalanced: latex2mathml says why
        out.append(latex[pos:m.end()])
        out.append(_IN_TEXT.sub(lambda t: _STAND_IN[t.group(1) or t.group(2)],
                                latex[m.end():end]))
        pos = end
    out.append(latex[pos:])
    return "".join(out)


def _group_end(latex: str, start: int) -> int:
    """The offset of the ``}`` closing the group opened just before ``start`` (-1: none)."""
    depth = 1
    i = start
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def restore(root: etree.Element) -> None:
    """Put the real characters in place of the stand-ins in a MathML tree's text, and
    let a sized delimiter (``\\Big|``: ``<mo minsize maxsize>``) stretch to its size:
    MathML Core sizes only a stretchy operator, and ``|`` in the middle of a formula is
    not one by default."""
    for el in root.iter():
        if el.text and _ANY_STAND_IN.search(el.text):
            el.text = _ANY_STAND_IN.sub(lambda m: _REAL[m.group()], el.text)
        if el.tag == "mo" and "minsize" in el.attrib and "stretchy" not in el.attrib:
            el.set("stretchy", "true")
            el.set("symmetric", "true")

"""Math on the page: ``$…$`` and ``$$…$$`` rendered to MathML while the site builds.

The page loads no script and no font for it: current browsers render MathML
Core.  What is a formula is decided by ``codecs.math.find_math`` (the codec
uses the same scanner to mask math, so the page and the graph agree), over
the code regions of ``codecs.mask``.

Processor (priority, and why):

* ``bb_math`` preprocessor (26: after whitespace is normalised at 30, before
  fenced code is stashed at 25 and before everything else): each formula is
  replaced by a placeholder of ``md.htmlStash``, so nothing in it is Markdown
  (``*``, ``_``, ``\\\\``, ``[x](y)``, ``[[x]]``, ``#tag``, ``|`` in a table
  cell, ``<``).  Running this early, on the whole text, also covers formulas
  in list items, quotes and callouts, whose content block processors only
  parse later.  Code is found by ``mask.code_and_math`` (not by waiting for
  the fence processors: superfences parses fences in lists only as blocks).

A display formula alone on its lines, at the top level or in a quote or
callout, becomes ``<div class="bb-math-block">``, set off by blank lines (in
its quote) so that it is a block of its own: the raw-HTML postprocessor puts
a block ``<div>`` in place of the paragraph holding the placeholder.  Any
other ``$$…$$`` (inside a paragraph, which Obsidian shows as display math
too, or in a list item) becomes ``<span class="bb-math-block">``, which CSS
makes a centred block.  Inline math is ``<span class="bb-math">``.  A formula that
does not convert shows its source in ``<code class="bb-math-error">``; the
codec reported it (``math-error``) when it parsed the note.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as etree

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from ...codecs.mask import code_and_math
from ...codecs.math import Formula, to_mathml

# A line that is blank in its quote: nothing but spaces, tabs and `>` markers.
_BLANK = re.compile(r"[ \t>]*")


def formula_html(formula: Formula, block: bool) -> str:
    """The HTML of one formula (MathML, or its escaped source when it does not convert);
    ``block``: a ``<div>`` (a block of its own), else a ``<span>``."""
    mathml, _why = to_mathml(formula.latex, formula.display)
    tag = "div" if block else "span"
    cls = "bb-math-block" if formula.display else "bb-math"
    if mathml is None:
        el = etree.Element(tag, {"class": cls})
        code = etree.SubElement(el, "code", {"class": "bb-math-error"})
        code.text = ("$$" if formula.display else "$") + formula.latex + (
            "$$" if formula.display else "$")
        return etree.tostring(el, encoding="unicode", method="html")
    # `mathml` is latex2mathml's output rebuilt from an allowlist (codecs.math): no user
    # text reaches it unescaped, so it goes into the wrapper as it is.
    return f'<{tag} class="{cls}">{mathml}</{tag}>'


class MathPreprocessor(Preprocessor):
    """Every formula -> a stash placeholder holding its HTML."""

    def run(self, lines: list[str]) -> list[str]:
        if not any("$" in line for line in lines):
            return lines
        text = "\n".join(lines)
        _code, formulas = code_and_math(text)
        if not formulas:
            return lines
        out: list[str] = []
        pos = 0
        for formula in formulas:
            line_start = text.rfind("\n", 0, formula.start) + 1
            prefix = text[line_start:formula.start]
            # Alone on its lines at the top level or in a quote: a block.  In a list item
            # it stays in the item's paragraph (Python-Markdown would need 4 spaces of
            # indentation to keep a separate paragraph in the item; Obsidian needs 2).
            block = formula.block and (not prefix or prefix[0] == ">")
            holder = self.md.htmlStash.store(formula_html(formula, block))
            if not block:
                out.append(text[pos:formula.start])
                out.append(holder)
                pos = formula.end
                continue
            blank = prefix.rstrip()  # ">" in a quote: a blank line inside it
            line_end = text.find("\n", formula.end)
            line_end = len(text) if line_end < 0 else line_end
            out.append(text[pos:line_start])
            if line_start and _BLANK.fullmatch(text, text.rfind("\n", 0, line_start - 1) + 1,
                                               line_start - 1) is None:
                out.append(blank + "\n")  # the paragraph above ends here
            out.append(prefix + holder)
            next_end = text.find("\n", line_end + 1)
            next_line = text[line_end + 1:len(text) if next_end < 0 else next_end]
            if line_end < len(text) and _BLANK.fullmatch(next_line) is None:
                out.append("\n" + blank)  # what follows is a paragraph of its own
            pos = line_end
        out.append(text[pos:])
        return "".join(out).split("\n")


class MathExtension(Extension):
    """Registers ``MathPreprocessor`` (see the module docstring for its priority)."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown API
        md.preprocessors.register(MathPreprocessor(md), "bb_math", 26)
        if "$" not in md.ESCAPED_CHARS:
            md.ESCAPED_CHARS.append("$")  # `\$` shows a dollar sign, as in Obsidian

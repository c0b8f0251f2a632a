"""Inline Markdown -> the plain text a reader sees.

Used for heading anchors (which must equal the ``id`` Python-Markdown's
``toc`` gives the rendered heading: ``slugify(unescape(strip_tags(html)))``),
for titles taken from the first H1, and for backlink snippets.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from .markdown import split_wikilink
from .math import find_math, formula_text

#: (target, fragment, explicit display) -> the text a wikilink renders as.
WikiText = Callable[[str, str, str | None], str]

_CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_WIKILINK = re.compile(r"(?<!\\)(!?)\[\[([^\[\]\n]+)\]\]")
_IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([^)]*\)")
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\[[^\]]*\]")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]+\]")
_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>", re.DOTALL)
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_EM_UNDERSCORE = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_ESCAPE = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
_STASH = "\x02{}\x03"


def default_wikitext(target: str, fragment: str, display: str | None) -> str:
    if display:
        return display
    if fragment and not fragment.startswith("^"):
        return fragment.rsplit("#", 1)[-1]
    return target or fragment


_MARKUP = re.compile(r"[`\[\]<>&*_\\!$]")


def plain_text(inline: str, wikitext: WikiText = default_wikitext) -> str:
    """The visible text of an inline Markdown fragment."""
    if not _MARKUP.search(inline):
        return " ".join(inline.split())
    stash: list[str] = []

    def keep(text: str) -> str:
        stash.append(text)
        return _STASH.format(len(stash) - 1)

    # each pattern only where its first character occurs (most snippets hold a
    # wikilink and nothing else): a search that finds nothing costs as much as a sub
    text = inline
    if "`" in text:
        text = _CODE_SPAN.sub(lambda m: keep(m.group(2).strip()), text)
    if "[[" in text:
        text = _WIKILINK.sub(lambda m: "" if m.group(1) else keep(_wikilink_text(m, wikitext)),
                             text)
    if "$" in text:  # a formula reads as its MathML's text (as toc names a heading)
        text = _math_text(text, keep)
    if "\\" in text:  # escaped characters are kept as they are from here on
        text = _ESCAPE.sub(lambda m: keep(m.group(1)), text)
    if "[" in text:
        if "![" in text:
            text = _IMAGE.sub("", text)
        if "[^" in text:
            text = _FOOTNOTE_REF.sub("", text)
        if "](" in text:
            text = _LINK.sub(r"\1", text)
        if "][" in text:
            text = _REF_LINK.sub(r"\1", text)
    if "<" in text:
        text = _TAG.sub("", text)
    if "*" in text or "_" in text:
        for pattern in (_STRONG, _STRONG, _EM_STAR, _EM_UNDERSCORE):
            text = pattern.sub(lambda m: m.group(m.lastindex or 1), text)
    if "&" in text:
        text = html.unescape(text)
    if stash:
        text = re.sub("\x02(\\d+)\x03", lambda m: stash[int(m.group(1))], text)
    return " ".join(text.split())


def _math_text(text: str, keep: Callable[[str], str]) -> str:
    formulas = find_math(text, [])
    if not formulas:
        return text
    out: list[str] = []
    pos = 0
    for formula in formulas:
        out += [text[pos:formula.start], keep(formula_text(formula))]
        pos = formula.end
    out.append(text[pos:])
    return "".join(out)


def _wikilink_text(m: re.Match[str], wikitext: WikiText) -> str:
    target, fragment, display = split_wikilink(m.group(2))
    return wikitext(target, fragment, display)

"""Inline Markdown -> the plain text a reader sees.

Used for heading anchors (which must equal the ``id`` Python-Markdown's
``toc`` gives the rendered heading: ``slugify(unescape(strip_tags(html)))``),
for titles taken from the first H1, and for backlink snippets.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from .entity_syntax import render_text
from .grammar import ALT_SIZE_SUFFIX as _ALT_SIZE  # ![alt|375](x.png)
from .grammar import BLOCK_ID_WORD as _BLOCK_MARK
from .grammar import CALLOUT_MARK as _CALLOUT_MARK  # > [!tip|meta]- Title
from .grammar import COMMENT as _COMMENT
from .grammar import FOOTNOTE_ANY, split_wikilink
from .grammar import INLINE_NOTE as _INLINE_NOTE
from .grammar import WIKILINK as _WIKILINK_ANY
from .inline_fields import fields_as_text
from .math import Formula, find_math, formula_text, to_mathml

#: (target, fragment, explicit display) -> the text a wikilink renders as.
WikiText = Callable[[str, str, str | None], str]

_CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([^)]*\)")
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\[[^\]]*\]")
_FOOTNOTE_REF = FOOTNOTE_ANY
_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>", re.DOTALL)
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_EM_UNDERSCORE = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_ESCAPE = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
_STASH = "\x02{}\x03"
_STASHED = re.compile("\x02(\\d+)\x03")
# Snippets only (Obsidian syntax a reader never sees as such):
_HIGHLIGHT = re.compile(r"==(?=\S)(.+?)(?<=\S)==")  # ==marked==
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")  # ~~struck~~

_IMAGE_ALT = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
#: Around code in a snippet's text: ``snippet_parts`` makes them <code>.
CODE_OPEN, CODE_CLOSE = "\x0e", "\x0f"
#: Around a formula's TeX in a snippet's text: ``snippet_parts`` makes them math.
MATH_OPEN, MATH_CLOSE = "\x10", "\x11"
_CODE_MARKS = re.compile("([\x0e\x0f\x10\x11])")
_OUR_MARKS = re.compile("[\x0e\x0f\x10\x11]")
#: What a snippet's text holds when any pattern of ``plain_text`` but the wikilinks'
#: may match (a superset), or a character of its own stash: ``_links_only`` does not do.
_BUT_LINKS = re.compile(r"[\x02\x03\x0e-\x11:`%$~=^\\<*_&]|\[!")


def default_wikitext(target: str, fragment: str, display: str | None) -> str:
    if display:
        return display
    if fragment and not fragment.startswith("^"):
        return fragment.rsplit("#", 1)[-1]
    return target or fragment


_MARKUP = re.compile(r"[`\[\]<>&*_\\!$]")


_SNIPPET_MARKUP = re.compile(r"[`\[\]<>&*_\\!%=$^~]")
_NO_MARKS = str.maketrans({"\x0e": None, "\x0f": None, "\x10": None, "\x11": None})


def plain_text(inline: str, wikitext: WikiText = default_wikitext, snippet: bool = False) -> str:
    """The visible text of an inline Markdown fragment.

    ``snippet``: text for a backlink or mention snippet, as the page shows it:
    embeds are their names, images their alt text, entity tags their names,
    Obsidian's own syntax (``==``, ``%%``, ``$``, ``[!type]``, ``^id``,
    ``^[note]``) is gone, and code
    and math are kept between ``CODE_OPEN`` and ``CODE_CLOSE``.
    """
    if snippet and "[[" in inline and _BUT_LINKS.search(inline) is None:
        text = _links_only(inline, wikitext)
        if text is not None:
            return " ".join(text.split())
    if snippet and _OUR_MARKS.search(inline):
        inline = inline.translate(_NO_MARKS)  # ours alone
    if snippet and ":" in inline:  # entity tags show their names only (SPEC §7)
        inline = render_text(inline)
    if not (_SNIPPET_MARKUP if snippet else _MARKUP).search(inline):
        return " ".join(inline.split())
    stash: list[str] = []

    def keep(text: str) -> str:
        stash.append(text)
        return _STASH.format(len(stash) - 1)

    def code(text: str) -> str:
        return keep(CODE_OPEN + text.translate(_NO_MARKS) + CODE_CLOSE if snippet else text)

    def math(text: str) -> str:
        return keep(MATH_OPEN + text.translate(_NO_MARKS) + MATH_CLOSE)

    # each pattern only where its first character occurs (most snippets hold a
    # wikilink and nothing else): a search that finds nothing costs as much as a sub
    text = inline
    if "`" in text:
        text = _CODE_SPAN.sub(lambda m: code(m.group(2).strip()), text)
    if snippet:
        text = _snippet_syntax(text, math)
    if "[[" in text:
        text = _wikilinks(
            text, lambda bang, inner: keep(_wikilink_text(inner, wikitext))
            if snippet or not bang else "")
    if "$" in text and not snippet:  # a formula reads as its MathML's text (as toc names
        text = _math_text(text, keep)  # a heading); a snippet shows it as code
    if "\\" in text:  # escaped characters are kept as they are from here on
        text = _ESCAPE.sub(lambda m: keep(m.group(1)), text)
    if "[" in text:
        if "![" in text:
            text = _IMAGE_ALT.sub(lambda m: _ALT_SIZE.sub("", m.group(1)), text) if snippet else (
                _IMAGE.sub("", text))
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
        text = _STASHED.sub(lambda m: stash[int(m.group(1))], text)
    return " ".join(text.split())


def _snippet_syntax(text: str, math: Callable[[str], str]) -> str:
    """Obsidian's inline syntax -> what a reader sees (code spans are stashed already)."""
    if "::" in text:  # Dataview's [key:: value] and (key:: value), as reading view shows
        text = fields_as_text(text)
    if "%%" in text:
        text = _COMMENT.sub("", text)
    if "$" in text:
        text = _replace_math(text, lambda f: math(f.latex.strip()))
    if "~~" in text:
        text = _STRIKE.sub(r"\1", text)
    if "==" in text:
        text = _HIGHLIGHT.sub(r"\1", text)
    if "[!" in text:
        text = _CALLOUT_MARK.sub("", text)
    if "^" in text:
        text = _BLOCK_MARK.sub("", _INLINE_NOTE.sub("", text))
    return text


@dataclass(frozen=True, slots=True)
class SnippetPart:
    """A run of a snippet's text: code (shown as ``<code>``), math (its TeX), or text."""

    text: str
    code: bool = False
    math: bool = False

    @property
    def mathml(self) -> str:
        """A formula's MathML ("" when it is not math, or does not convert: then its TeX
        is shown as code)."""
        if not self.math:
            return ""
        return to_mathml(self.text, False)[0] or ""


_OPENS = {CODE_OPEN: "code", MATH_OPEN: "math"}
_CLOSES = {CODE_CLOSE: "code", MATH_CLOSE: "math"}


def snippet_parts(text: str) -> list[SnippetPart]:
    """``plain_text(..., snippet=True)`` (or a piece of it) -> its runs.

    A piece cut out of a snippet may hold a close mark without its open mark
    (everything before it was code or math) or an open mark without its close.
    """
    if not _OUR_MARKS.search(text):
        return [SnippetPart(text)] if text else []
    pieces = _CODE_MARKS.split(text)
    first_mark = next((p for p in pieces if p in _OPENS or p in _CLOSES), CODE_OPEN)
    kind = _CLOSES.get(first_mark, "")
    parts: list[SnippetPart] = []
    for piece in pieces:
        if piece in _OPENS:
            kind = _OPENS[piece]
        elif piece in _CLOSES:
            kind = ""
        elif piece:
            parts.append(SnippetPart(piece, kind == "code", kind == "math"))
    return parts


def _math_text(text: str, keep: Callable[[str], str]) -> str:
    return _replace_math(text, lambda f: keep(formula_text(f)))


def _replace_math(text: str, shown: Callable[[Formula], str]) -> str:
    """Each formula of ``text`` (the one math grammar, ``codecs/math.py``) as ``shown``
    makes it."""
    formulas = find_math(text, [])
    if not formulas:
        return text
    out: list[str] = []
    pos = 0
    for formula in formulas:
        out += [text[pos:formula.start], shown(formula)]
        pos = formula.end
    out.append(text[pos:])
    return "".join(out)


def _links_only(text: str, wikitext: WikiText) -> str | None:
    """A snippet's ``text`` with its wikilinks and embeds as their texts, when it holds
    no other markup (``_BUT_LINKS`` found none, and every bracket is a link's; else
    None): no other pattern of ``plain_text`` would change it, nor need the links'
    texts kept from them.  Most sentences a panel quotes are such."""
    out: list[str] = []
    pos = links = 0
    for m in _WIKILINK_ANY.finditer(text):
        start = m.start()  # (no backslash in the text: none escapes the link)
        out += (text[pos:start - 1 if start and text[start - 1] == "!" else start],
                _wikilink_text(text[start + 2:m.end() - 2], wikitext))
        pos = m.end()
        links += 1
    if text.count("[") != 2 * links or text.count("]") != 2 * links:
        return None
    out.append(text[pos:])
    return "".join(out)


def _wikilinks(text: str, shown: Callable[[str, str], str]) -> str:
    """``WIKILINK_INLINE.sub`` (a wikilink not after a backslash, an embed's ``!`` with
    it), each replaced by ``shown(bang, inner)``.  Found by ``[[`` (``WIKILINK``): a
    literal first, which the regex engine skips to, where the optional ``!`` and the
    look-behind first had it try every character of the text.  ``[[`` starts nothing
    inside a link (its inner text holds no bracket), so a link after a backslash is
    passed over whole."""
    out: list[str] = []
    pos = 0
    for m in _WIKILINK_ANY.finditer(text):
        start = m.start()
        before = text[start - 1] if start else ""
        if before == "!" and (start == 1 or text[start - 2] != "\\"):
            bang, start = "!", start - 1
        elif before == "\\":
            continue
        else:
            bang = ""
        out += (text[pos:start], shown(bang, text[m.start() + 2:m.end() - 2]))
        pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def _wikilink_text(inner: str, wikitext: WikiText) -> str:
    target, fragment, display = split_wikilink(inner)
    return wikitext(target, fragment, display)

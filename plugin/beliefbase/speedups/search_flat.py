"""Material's search parser spared the inline elements whose tags change nothing it keeps.

Material's search plugin parses each page's HTML again with a pure-Python
``HTMLParser`` (``material.plugins.search.plugin.Parser``).  Every link and tag of a
note is a ``<a>`` or ``<span>`` element there, where plain Material sees text: a note
with 20,000 links on a line (issue 20's pathological cases) spent half a second in that
parser on their tags alone.  ``flatten`` removes the start and end tags of the
``<span>`` and ``<a>`` elements whose removal the parser cannot tell: the index is
byte for byte the one Material would write (``tests/speedups/test_search_flat.py``
checks the parser's sections against the unflattened page's, on generated pages).

Why removing such an element changes nothing, for an element ``<span|a attrs>TEXT</…>``
with only double-quoted attributes, none of them ``data-search-exclude``,
``linenodiv`` or ``headerlink`` (the only attributes the parser reads), and TEXT
without ``<`` or ``&`` and not blank:

* its start tag pushes an element on the parser's context and its end tag pops it
  (TEXT holds no tag, so the end tag closes it); neither appends anything (``span``
  and ``a`` are not kept), and the depth check of the end tag cannot fire (a section
  is never deeper than the context plus one after any end tag);
* the parser's skip test compares elements by tag name, so a ``span`` closing inside
  an excluded ``span`` ends the exclusion early: pages with ``data-search-exclude``
  or ``linenodiv`` on a ``span`` or ``a`` (or anywhere we cannot tell the tag of) are
  left as they are;
* what remains is that the texts on both sides and TEXT become one text ("chunk"):
  the parser escapes a chunk character by character and turns ``\\n`` into a space,
  which is the same joined; but a blank chunk becomes one space, or nothing after a
  blank item.  So the chunks merged into one must be: the first and last ones empty
  or not blank, those between TEXTs empty, not blank, or one space or newline; and
  no character reference (``&name``) may run from a chunk into the TEXT after it.

A run of such elements with only such chunks between them is merged; where a chunk
breaks the rules, the run ends before it (the elements are kept as they are).
"""

from __future__ import annotations

import re
from typing import Any

# An inline element the search parser only pushes and pops: `span` or `a`, attributes
# all double-quoted (no "<" in them), text without markup or character references.
_INLINE = re.compile(r'<(span|a)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*="[^"<]*")*)\s*>([^<&]*)</\1>')
# A run of such elements with only chunks between them that merge as they are (empty,
# one space or newline, or not blank; no "&"): ``flatten`` takes it whole when the
# chunks at its two ends may merge too.
_RUN = re.compile(
    r'(?:<(span|a)(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*="[^"<]*")*\s*>\s*[^<&\s][^<&]*</\1>'
    r"(?:\s*[^<&\s][^<&]*|[ \n])?)*"
    r'<(span|a)(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*="[^"<]*")*\s*>\s*[^<&\s][^<&]*</\2>')
#: the attributes the parser reads (exclusion, line numbers, permalinks)
_READ_ATTRIBUTES = ("data-search-exclude", "linenodiv", "headerlink")
# An attribute the parser reads, in the start tag holding it (group 1: the tag's name).
_READ_IN_TAG = re.compile(r"<([a-zA-Z][^\s/<>]*)[^<>]*?(?:data-search-exclude|linenodiv)",
                          re.IGNORECASE)
# Any mention of one (in a tag or not): each must be one _READ_IN_TAG found.
_READ_ANYWHERE = re.compile(r"data-search-exclude|linenodiv", re.IGNORECASE)
#: characters that end a character reference ("&amp;", "&amp ", "&#38;"); another
#: ("&ampx") would continue into the text that follows
_REFERENCE_ENDS = frozenset(";\t\n\f <")
#: longest character reference the parser reads (a name of up to 32 characters)
_REFERENCE_MAX = 40


#: Pages with fewer closing ``</a>``/``</span>`` tags are left as they are: on an
#: ordinary page flattening costs more than the parser saves (1,108 pages of the
#: 1,000-note bench site: 2.85 s to flatten, 0.76 s of parsing saved); on the 12
#: with 200 or more it pays (0.04 s to flatten, 0.13 s saved), and on a page of
#: 20,000 links it saves 0.4 s.
FLAT_MIN = 200


def flatten(html: str, min_tags: int | None = None) -> str:
    """``html`` with the tags of plain inline elements removed where Material's search
    parser makes the same sections of it (see the module's docstring); a page with
    fewer than ``min_tags`` (default ``FLAT_MIN``) inline closing tags as it is."""
    if html.count("</a>") + html.count("</span>") < (FLAT_MIN if min_tags is None
                                                     else max(min_tags, 1)):
        return html
    if not _tags_read_are_safe(html):
        return html
    out: list[str] = []
    done = 0  # html[:done] is in `out`
    for run in _RUN.finditer(html):
        start, end = run.span()
        text = run.group(0)
        lt, gt = html.rfind("<", 0, start), html.rfind(">", 0, start)
        after = html.find("<", end)
        if lt <= gt and _edge_ok(html[gt + 1:start]) \
                and _edge_ok(html[end:after if after >= 0 else len(html)]) \
                and _reference_ends(html, start) \
                and not any(a in text for a in _READ_ATTRIBUTES):
            out.append(html[done:start])  # the common case: the whole run at C speed
            out.append(_INLINE.sub(r"\3", text))
            done = end
        else:
            done = _merge(html, list(_INLINE.finditer(html, start, end)), out, done)
    if not out:
        return html
    out.append(html[done:])
    return "".join(out)


def _tags_read_are_safe(html: str) -> bool:
    """No ``span`` or ``a`` carries an attribute the parser reads (as far as we can
    tell: a mention found outside a start tag we can name counts against)."""
    low = html.lower()  # (a C pass; the case-blind regex over a large page is slower)
    if "data-search-exclude" not in low and "linenodiv" not in low:
        return True
    mentions = len(_READ_ANYWHERE.findall(html))
    tags = [m.group(1).lower() for m in _READ_IN_TAG.finditer(html)]
    return len(tags) == mentions and not any(tag in ("span", "a") for tag in tags)


def _merge(html: str, chain: list[re.Match[str]], out: list[str], done: int) -> int:
    """Put ``html`` up to the end of ``chain``'s last element into ``out``, the tags of
    the elements that can merge removed; returns how far it went."""
    n = len(chain)
    for m in chain:
        attrs, text = m.group(2), m.group(3)
        if not text or text.isspace() or any(a in attrs for a in _READ_ATTRIBUTES):
            return done  # (kept: the whole chain, for simplicity; rare)
    # The chunk before each element: between it and the element before (or, for the
    # first, the previous tag: it must be a tag's end, not an open "<").
    first = chain[0].start()
    lt, gt = html.rfind("<", 0, first), html.rfind(">", 0, first)
    if lt > gt:
        return done  # inside a construct we do not follow (a comment, an attribute)
    befores = [html[gt + 1:first]] + [html[a.end():b.start()]
                                      for a, b in zip(chain, chain[1:], strict=False)]
    end = html.find("<", chain[-1].end())
    after_last = html[chain[-1].end():end if end >= 0 else len(html)]
    afters = befores[1:] + [after_last]
    # Runs: consecutive elements whose chunks between them may merge.
    strip = [False] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and _between_ok(befores[j + 1]):
            j += 1
        # In chain[i..j], the first element whose chunk before may start a merged chunk,
        # and the last whose chunk after may end one.
        lo = next((k for k in range(i, j + 1) if _edge_ok(befores[k])
                   and _reference_ends(html, chain[k].start())), None)
        hi = next((k for k in range(j, i - 1, -1) if _edge_ok(afters[k])), None)
        if lo is not None and hi is not None and lo <= hi:
            for k in range(lo, hi + 1):
                strip[k] = True
        i = j + 1
    if not any(strip):
        return done
    for m, gone in zip(chain, strip, strict=True):
        if gone:
            out.append(html[done:m.start()])
            out.append(m.group(3))
            done = m.end()
    return done


def _edge_ok(chunk: str) -> bool:
    """A chunk at either end of a merged one: blank, it would be one item less."""
    return not chunk or not chunk.isspace()


def _between_ok(chunk: str) -> bool:
    """A chunk between two merged elements' texts (the first's is never blank, so a
    blank chunk of one space or newline is one space either way)."""
    return (not chunk or not chunk.isspace() or chunk in (" ", "\n")) and \
        _ends_references(chunk)


def _ends_references(chunk: str) -> bool:
    """A character reference in ``chunk`` ends inside it."""
    amp = chunk.rfind("&")
    return amp < 0 or any(c in _REFERENCE_ENDS for c in chunk[amp + 1:])


def _reference_ends(html: str, at: int) -> bool:
    """No character reference runs into ``html[at:]`` (looked for as far back as one
    can reach, whatever the tags: the parser reads one across a ">" in text)."""
    return _ends_references(html[max(0, at - _REFERENCE_MAX):at])


def install(index: Any) -> None:
    """Material's ``SearchIndex.add_entry_from_context`` on this build's ``index``,
    parsing the flattened page."""
    from material.plugins.search.plugin import Parser

    def add_entry_from_context(page: Any) -> None:
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        parser = Parser()
        parser.feed(flatten(page.content))
        parser.close()
        for section in parser.data:
            if not section.is_excluded():
                index.create_entry_for_section(section, page.toc, page.url, page)

    index.add_entry_from_context = add_entry_from_context

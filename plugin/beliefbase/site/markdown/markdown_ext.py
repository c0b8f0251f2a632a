"""The Python-Markdown extension that renders Obsidian syntax.

Processors (priority, and why):

* ``bb_link_marks`` preprocessor (100: first, while the text is the note's own):
  each link the compile found gets a mark naming its compiled link
  (``PageRenderer.mark_links``): after the ``[[`` of a wikilink or embed, at
  the start of a Markdown link's or image's href.  ``bb_wikilink``,
  ``bb_markdown_embed`` and the link treeprocessors resolve a link by its
  mark, i.e. by its position in the note, never by matching its text.  The
  ``bb_drop_link_marks`` postprocessor (5) removes a mark no link took.
* ``bb_math`` preprocessor (26, see ``site.math``): formulas become stashed
  MathML before anything else can read their ``*``, ``_``, ``[[`` or ``#``.

* ``bb_table_pipes`` preprocessor (24, after fenced code is stashed at 25):
  ``[[a|b]]`` inside a table row becomes ``[[a\\|b]]``, because the ``tables``
  block processor splits cells on ``|`` before any inline pattern runs.
* ``bb_line_tags`` preprocessor (23): a line starting with ``#tag`` (no space)
  is a tag line in Obsidian; Python-Markdown would make it a heading, so the
  ``#`` is escaped.
* ``bb_inline_footnotes`` preprocessor (22): ``text^[note]`` becomes a
  footnote (see ``inline_footnotes``).
* ``bb_inline_field`` inline pattern (187, see ``inline_fields``): Dataview's
  ``[key:: value]`` and ``(key:: value)`` as its reading view shows them.
* ``bb_wikilink`` inline pattern (185: after code spans at 190, before
  backslash escapes at 180 so ``\\|`` still separates, before reference links
  at 170 so ``[[x]]`` is never read as ``[ [x] ]``).
* ``bb_markdown_embed`` inline pattern (155: before Python-Markdown's image
  pattern at 150): ``![](Note.md#Section)`` naming a note transcludes it.
* ``bb_tag`` inline pattern (105, after links and emphasis): a link to the
  tag's page, as a source path on the page itself (MkDocs converts it like a
  wikilink's), a final URL inside an embed.
* Runs: a wikilink or tag pattern that matches, takes the matches that follow it with
  only inert text between (``RenderedPattern.handleMatch``) and returns them as one
  ``<bb-run>`` element; the ``bb_lift_runs`` treeprocessor (19.5, right after inline
  processing at 20) puts its children back in its place, with the text between them
  that no inline pattern would have matched in (kept aside meanwhile).  Python-Markdown
  copies the whole text once per match: thousands of links or tags in one paragraph
  were quadratic.
* ``inline`` treeprocessor (20): Python-Markdown's own, given the page's blocks a few
  at a time (``inline_chunks``): it keeps every inline element of the page in one list
  it takes from the front, quadratic in a page's links and tags.
* ``bb_block_ids`` treeprocessor (15: after inline processing at 20, before
  ``attr_list`` at 8 and ``toc`` at 5): ``text ^id`` gives the paragraph or
  list item ``id="^id"`` and hides the marker.
* ``bb_embed_blocks`` treeprocessor (14): a transclusion inside a paragraph
  splits it, so block content never sits inside ``<p>``.
* ``bb_image_sizes`` treeprocessor (3): ``![alt|375](x.png)`` sets the width.
* ``bb_markdown_link_fallback`` treeprocessor (2: before MkDocs' own link
  processor at 0): ``[t](note.md)`` that resolved only by name is re-pointed,
  and a fragment written as heading text gets the heading's anchor.
* ``bb_embedded_links`` treeprocessor (only in nested renders of embeds):
  Markdown links written relative to the embedded note are re-pointed from
  the host page.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from xml.etree import ElementTree as etree

from markdown import Extension, Markdown
from markdown.inlinepatterns import InlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from ...codecs.grammar import ALT_SIZE as _ALT_SIZE
from ...codecs.grammar import BLOCK_MARK as _BLOCK_MARK
from ...codecs.grammar import LINE_TAG as _LINE_TAG
from ...codecs.grammar import (
    LINE_TAG_MARK,
    LINK_MARK,
    LINK_MARK_START,
    MARKDOWN_EMBED_RE,
    TAG_RE,
    WIKILINK_RE,
    split_mark,
    split_wikilink,
)
from ...codecs.grammar import LONE_BLOCK_MARK as _LONE_MARK
from ...codecs.grammar import WIKILINK_PIPE as _PIPE_IN_WIKILINK
from . import inline_chunks, inline_fields
from .inline_footnotes import InlineFootnotes
from .math import MathExtension

if TYPE_CHECKING:
    from ..render import PageRenderer

_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$|^[^|\n]*\|[^\n]*$")
_DELIMITER_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
EMBED_SLOT = "bb-embed-slot"
_BLOCK_TAGS = {"p", "ul", "ol", "div", "pre", "blockquote", "table"}
# The rest of an attr_list after a "#id" in it: attributes, "}", end of the text.
#: How far an attr_list's "{" or "}" may be from one of its ``#id``s.
_ATTR_LIST_MAX = 200
_ATTR_LIST_END = re.compile(r"[^{}\n]*\}[ \t]*(?:\n|$)")


#: The element standing for a run of matches of one pattern (``RenderedPattern``) until
#: ``LiftRuns`` puts its children in its place.
RUN_TAG = "bb-run"
#: Most matches in one run: ``LiftRuns``' work, and Python-Markdown's placing of the run's
#: children (a list index per child with text after it), grow with the square of a run.
_RUN_MAX = 256
# Text between two matches that lets them stand as one run: no inline pattern that runs
# after ours starts or ends a match on these characters (letters, digits, blanks,
# newlines, ":", ",", "."), so a later pattern matching across two matches of the run
# is impossible, and what matches inside this text matches the same on its own.
_INERT = re.compile(r"[A-Za-z0-9 \t\n:,.]*")
# Text between two matches that may stand in a run too although a later pattern matches
# in it: a tag (the tag pattern runs after the wikilinks') or a placeholder of what an
# earlier pattern took (a code span, a wikilink before the tags), with a blank at both
# ends.  Such a match lies inside the text, and the blanks give it the same characters
# around it as a tail as in place (a tag needs a blank before its "#" and ends before
# one); no later pattern that could span two matches (emphasis, links) has a character
# in it.  Without it a line of sentences each with a link, a tag and code (issue 32:
# an 800 KB line) was copied once per link and per tag.
#: Texts shorter than this keep the inert runs only: each tail of a run goes through the
#: later patterns on its own, which costs more than copying a paragraph a few times.
_LONG_TEXT = 20_000
_GLUED_HASH = re.compile(r"[^ \t\n]#")
_SPACED = re.compile(r"[ \t\n](?:[A-Za-z0-9 \t\n:,.#\x02\x03]*[ \t\n])?")
#: How many texts ``RenderedPattern.matchless`` remembers its answer for.
_MATCHLESS_KEPT = 1024


class RenderedPattern(InlineProcessor):
    """An inline pattern whose element the page's renderer decides.

    Python-Markdown replaces each match by a placeholder in a new copy of the whole
    text: thousands of matches in one paragraph (tags on a line, a list of inline
    fields) copied it thousands of times.  So a match takes the matches that follow
    it, as many as are separated only by inert text (``_INERT``), into one ``RUN_TAG``
    element: the text between them is their tails, which Python-Markdown processes with
    the later patterns as it would have in place, or, where no pattern matches in it,
    ``LiftRuns`` keeps until the run is lifted.  Only elements that are complete
    already (atomic text, no children: links and tags, never an embed, whose ``!`` is
    not inert) are taken.
    """

    def __init__(self, pattern: str, md: Markdown, renderer: PageRenderer,
                 lift: LiftRuns | None = None) -> None:
        super().__init__(pattern, md)
        self.renderer = renderer
        #: where runs are lifted, and their tails kept meanwhile (None: no runs)
        self.lift = lift
        #: the expressions of this pattern and those after it (``matchless``)
        self._later: list[re.Pattern[str]] | None = None
        #: text -> ``matchless(text)``, for the most common tails (" ")
        self._matchless: dict[str, bool] = {}

    def handleMatch(
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        el, start, end = self.element(m, data)
        if el is None or end is None or self.lift is None:
            return el, start, end
        items = [el]
        regex = self.compiled_re
        while len(items) < _RUN_MAX:
            following = regex.search(data, end)
            if following is None or not self._between_ok(data, end, following.start()):
                break
            item, item_start, item_end = self.element(following, data)
            if item is None or item_end is None:
                break  # declined: Python-Markdown's own loop asks again, and is declined
            # (an inert character before the match: it claims nothing before its start)
            between = data[end:following.start()]
            if between and "\x02" not in between and self.matchless(between):
                self.lift.tails[items[-1]] = between  # out of Python-Markdown's sight
            else:
                items[-1].tail = between or None
            items.append(item)
            end = item_end
        if len(items) == 1:
            return el, start, end
        run = etree.Element(RUN_TAG)
        run.extend(items)
        return run, start, end

    def _between_ok(self, data: str, start: int, end: int) -> bool:
        """May ``data[start:end]``, between two matches, be a tail of a run's element?"""
        if _INERT.fullmatch(data, start, end) is not None:
            return True
        if len(data) < _LONG_TEXT or _SPACED.fullmatch(data, start, end) is None:
            return False
        if data.find("#", start, end) < 0:
            return True
        # every "#" after a blank (a tag as it stands in place, none after a placeholder
        # or another tag), and no attr_list ("{#id}") after: it reads a "#" up to its "}"
        return _GLUED_HASH.search(data, start, end) is None and data.find("{", end) < 0

    def element(
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        """One match's element and the span it replaces (None: not this pattern's)."""
        raise NotImplementedError

    def matchless(self, text: str) -> bool:
        """No inline pattern from this one on finds a match in ``text``: Python-Markdown
        would try each on it and leave it as it is, so ``LiftRuns`` keeps it until the
        run is lifted.  Thousands of tails ("``\\nkey:: ``" between inline fields) each
        went through every pattern's loop, then through the placing of placeholders."""
        known = self._matchless.get(text)
        if known is not None:
            return known
        if self._later is None:
            patterns = list(self.md.inlinePatterns)
            mine = [i for i, p in enumerate(patterns) if p is self]
            self._later = [p.getCompiledRegExp() for p in patterns[mine[0]:]] if mine else []
        found = bool(self._later) and not any(r.search(text) for r in self._later)
        if len(self._matchless) < _MATCHLESS_KEPT:
            self._matchless[text] = found
        return found

    def embedded(self, result: str | etree.Element) -> etree.Element:
        """An embed's element; a transclusion (HTML text) is block content: a slot
        that ``EmbedBlocks`` lifts out of its ``<p>``."""
        if not isinstance(result, str):
            return result
        slot = etree.Element("div", {"class": EMBED_SLOT})
        slot.text = AtomicString(self.md.htmlStash.store(result))
        return slot


class WikiLinkProcessor(RenderedPattern):
    """``[[Target#Heading|text]]`` and ``![[Embed]]`` -> links, images, transclusions."""

    def element(
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        if self.renderer.frame is None:
            return None, m.start(0), m.end(0)
        target, fragment, display = split_wikilink(m.group("inner"))
        if not target and not fragment:
            return None, m.start(0), m.end(0)
        start = m.start(0)
        mark = m.group("mark")
        if is_embed(data, start):
            resolution = self.renderer.lookup("embed", target, fragment, display, mark)
            return self.embedded(self.renderer.embed_html(resolution)), start - 1, m.end(0)
        resolution = self.renderer.lookup("link", target, fragment, display, mark)
        return self.renderer.link_element(resolution), start, m.end(0)


class MarkdownEmbedProcessor(RenderedPattern):
    """``![](Note.md)`` and ``![](Note.md#Section)`` transclude the note, as ``![[...]]``.

    Only an image whose target the compiler resolved to a note; anything else
    is left to Python-Markdown's own image pattern (which runs after this one).
    """

    def handleMatch(
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        if self.renderer.frame is None or (m.start(0) > 0 and data[m.start(0) - 1] == "\\"):
            return None, None, None
        href = m.group("href")
        if href.startswith("<"):
            href = href[1:-1].strip()
        href, mark = split_mark(href)  # the compiled link written there
        resolution = self.renderer.markdown_target(href, ("image",), mark)
        if resolution is None or resolution.target is None or resolution.is_asset:
            return None, None, None
        return self.embedded(self.renderer.embed_html(resolution)), m.start(0), m.end(0)


class ImageSizes(Treeprocessor):
    """``<img alt="alt|375">`` (from ``![alt|375](x.png)``) -> ``alt="alt" width="375"``."""

    def run(self, root: etree.Element) -> None:
        for img in root.iter("img"):
            alt = img.get("alt")
            m = _ALT_SIZE.match(alt) if alt and "|" in alt else None
            if m is None or img.get("width"):
                continue
            img.set("alt", m.group("alt"))
            img.set("width", m.group("width"))
            if m.group("height"):
                img.set("height", m.group("height"))


def is_embed(data: str, start: int) -> bool:
    """``!`` before the ``[[`` at ``start``: an embed, unless escaped (``\\![[x]]``)."""
    return (start > 0 and data[start - 1] == "!"
            and not (start > 1 and data[start - 2] == "\\"))


class TagProcessor(RenderedPattern):
    """``#tag`` in prose -> a link to the tag's page (a styled ``<span>`` where it has none)."""

    def element(
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        start = m.start()
        # `Heading { #id }` (attr_list's id; Material's tag listings write them too): an
        # open "{" shortly before, then the list's end.  Looked for near the tag only:
        # a scan to the line's ends for each of thousands of tags on one line was quadratic
        brace = data.rfind("{", max(0, start - _ATTR_LIST_MAX), start)
        if brace >= 0 and data.rfind("}", brace, start) < 0 \
                and _ATTR_LIST_END.match(data, m.end(), m.end() + _ATTR_LIST_MAX):
            return None, None, None
        href = self.renderer.tag_href(m.group("tag")) if self.renderer is not None else None
        el = etree.Element("span" if href is None else "a", {"class": "bb-tag"})
        if href is not None:
            el.set("href", href)
        el.text = AtomicString("#" + m.group("tag"))
        start = m.start(0)
        if start > 0 and data[start - 1] == LINE_TAG_MARK:
            start -= 1  # the mark LineTags put there goes with the tag
        return el, start, m.end(0)


class LinkMarks(Preprocessor):
    """Mark each wikilink and embed the compile found with its index (``render.mark_links``),
    first, while the text is still the note's own: ``WikiLinkProcessor`` then takes the
    link's compiled resolution by that index, whatever order it meets the links in."""

    def __init__(self, md: Markdown, renderer: PageRenderer, drop: DropLinkMarks) -> None:
        super().__init__(md)
        self.renderer = renderer
        self.drop = drop

    def run(self, lines: list[str]) -> list[str]:
        self.drop.marks = ""
        if self.renderer.frame is None:
            return lines
        marked, marks = self.renderer.mark_links("\n".join(lines))
        if not marks:
            return lines
        self.drop.marks = marks
        return marked.split("\n")


class DropLinkMarks(Postprocessor):
    """Remove a link mark no link took: a link the compile found where Python-Markdown
    saw none (inside raw HTML, say) is text, as it was written.  Only the marks this
    conversion put in are removed (an embedded note's text may hold such characters)."""

    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        #: the marks put in this conversion's text
        self.marks = ""

    def run(self, text: str) -> str:
        if not self.marks or LINK_MARK_START not in text:  # (`in` is a C search)
            return text
        mine = set(LINK_MARK.findall(self.marks))
        return LINK_MARK.sub(lambda m: "" if m[0] in mine else m[0], text)


class TablePipes(Preprocessor):
    """Escape the ``|`` of wikilinks inside table rows."""

    def run(self, lines: list[str]) -> list[str]:
        if not any("[[" in line and "|" in line for line in lines):
            return lines
        out = list(lines)
        above = _delimiter_above(lines)
        for i, line in enumerate(lines):
            if "[[" in line and self._in_table(lines, i, above):
                out[i] = _PIPE_IN_WIKILINK.sub(r"\1\\|\2", line)
        return out

    @staticmethod
    def _in_table(lines: list[str], i: int, above: list[bool]) -> bool:
        if not _TABLE_ROW.match(lines[i]):
            return False
        return above[i] or (i + 1 < len(lines) and bool(_DELIMITER_ROW.match(lines[i + 1])))


def _delimiter_above(lines: list[str]) -> list[bool]:
    """For each line: is there a delimiter row at or above it in its block of lines
    holding ``|``?  One pass: walking up from each row of a table to its delimiter row
    was quadratic in the table's rows (issue 32: 20,000 rows with a link each)."""
    found: list[bool] = []
    above = False
    for line in lines:
        if line.strip() and "|" in line:
            above = above or _DELIMITER_ROW.match(line) is not None
        else:
            above = False
        found.append(above)
    return found


class LineTags(Preprocessor):
    """``#tag`` first on a line, in a quote or a list item too, is a tag, not a heading
    (Obsidian, CommonMark)."""

    def run(self, lines: list[str]) -> list[str]:
        mark = r"\g<prefix>" + LINE_TAG_MARK
        return [_LINE_TAG.sub(mark, line, count=1) if "#" in line else line
                for line in lines]


class LiftRuns(Treeprocessor):
    """Each ``RUN_TAG`` element (``RenderedPattern``) is replaced by its children, and
    the tails kept out of inline processing are put back."""

    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        #: a run's child -> its tail, that no inline pattern matches in (``matchless``)
        self.tails: dict[etree.Element, str] = {}

    def run(self, root: etree.Element) -> None:
        tails, self.tails = self.tails, {}
        if next(root.iter(RUN_TAG), None) is None:  # a C search: most pages have none
            return
        # the deepest first: a run in a tail of another run's child is that run's child
        for parent in reversed([el for el in root.iter() if el.find(RUN_TAG) is not None]):
            children: list[etree.Element] = []
            for child in parent:
                if child.tag != RUN_TAG:
                    children.append(child)
                    continue
                items = list(child)
                for item in items:
                    kept = tails.get(item)
                    if kept is not None:  # (its tail is None: Python-Markdown saw none)
                        item.tail = kept
                if child.tail:  # (a run's own text is always None: it starts with a match)
                    items[-1].tail = (items[-1].tail or "") + child.tail
                children.extend(items)
            parent[:] = children


class BlockIds(Treeprocessor):
    """``paragraph ^id`` -> ``<p id="^id">paragraph</p>``; ``^id`` on its own line
    below a list, table, quote, callout, image or paragraph gives that block the id."""

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            children = list(parent)
            for index, el in enumerate(children):
                if el.tag == "table":
                    _table_marker(el)
                    continue
                if el.tag in ("ul", "ol"):
                    _loose_list_marker(el)
                    continue
                if el.tag not in ("p", "li"):
                    continue
                lone = _LONE_MARK.match((el.text or "").strip()) if len(el) == 0 else None
                if lone and el.tag == "p" and index > 0:
                    children[index - 1].set("id", "^" + lone.group("id"))
                    parent.remove(el)
                    continue
                self._strip_marker(el, parent)

    @staticmethod
    def _strip_marker(el: etree.Element, parent: etree.Element) -> None:
        """Remove a trailing `` ^id`` from the element's own text (not nested blocks)."""
        kids = list(el)
        first_block = next((i for i, k in enumerate(kids) if k.tag in _BLOCK_TAGS), len(kids))
        holder = kids[first_block - 1] if first_block > 0 else None
        found = _trailing_mark(el, holder)
        if found is None:
            return
        block_id, own_line = found
        target = _enclosing_block(el, parent) if own_line else el
        target.set("id", "^" + block_id)


def _trailing_mark(el: etree.Element, holder: etree.Element | None) -> tuple[str, bool] | None:
    """(the id, written on a line of its own?) of a ``^id`` ending ``el``'s text (the
    tail of ``holder``, its last inline child, or its own text), which is removed; None
    if there is none.  With ``nl2br`` (single newlines are breaks: Obsidian without
    ``strictLineBreaks``) the newline before an own-line ``^id`` is a ``<br />``: it
    goes too."""
    text = (holder.tail if holder is not None else el.text) or ""
    if holder is not None and holder.tag == "br":
        lone = _LONE_MARK.match(text.strip())
        if lone is not None:
            kids = list(el)
            at = kids.index(holder)
            before = kids[at - 1] if at > 0 else None
            if before is not None:
                before.tail = (before.tail or "").rstrip("\n") or None
            else:
                el.text = (el.text or "").rstrip("\n") or None
            el.remove(holder)
            return lone.group("id"), True
    m = _BLOCK_MARK.search(text)
    if m is None:
        return None
    if holder is not None:
        holder.tail = text[: m.start()]
    else:
        el.text = text[: m.start()]
    return m.group("id"), m.group("sep") == "\n"


def _enclosing_block(el: etree.Element, parent: etree.Element) -> etree.Element:
    """The block an own-line ``^id`` at the end of ``el`` names.

    Written right below a list, quote or callout, the marker line is a lazy
    continuation of its last paragraph or item: the id names the whole list,
    quote or callout (Obsidian), not just that last piece.
    """
    if len(parent) == 0 or parent[-1] is not el:
        return el
    if el.tag == "li" and parent.tag in ("ul", "ol"):
        return parent
    if el.tag == "p" and parent.tag in ("blockquote", "details"):
        return parent
    if el.tag == "p" and parent.tag == "div" and "admonition" in parent.get("class", ""):
        return parent
    return el


def _loose_list_marker(lst: etree.Element) -> None:
    """A ``^id`` line right below a loose list ends its last item's last paragraph:
    it names the list (the paragraph's own pass cannot see the list)."""
    if len(lst) == 0 or len(lst[-1]) == 0 or lst[-1][-1].tag != "p":
        return
    p = lst[-1][-1]
    holder = p[-1] if len(p) else None
    text = (holder.tail if holder is not None else p.text) or ""
    m = _BLOCK_MARK.search(text)
    own_line = m is not None and m.group("sep") == "\n"
    if holder is not None and holder.tag == "br":
        own_line = own_line or _LONE_MARK.match(text.strip()) is not None
    if not own_line:
        return
    found = _trailing_mark(p, holder)
    if found is not None:
        lst.set("id", "^" + found[0])


def _table_marker(table: etree.Element) -> None:
    """A ``^id`` line right below a table became its last row: drop it, id the table."""
    body = table.find("tbody")
    if body is None or len(body) == 0:
        return
    row = body[-1]
    cells = list(row)
    if not cells or any(len(cell) for cell in cells):
        return
    m = _LONE_MARK.match((cells[0].text or "").strip())
    if m is None or any((cell.text or "").strip() for cell in cells[1:]):
        return
    body.remove(row)
    if len(body) == 0:
        table.remove(body)
    table.set("id", "^" + m.group("id"))


class EmbedBlocks(Treeprocessor):
    """Split ``<p>text ![[Note]] more</p>`` so the transclusion is not inside a <p>."""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for index, p in reversed(list(enumerate(parent))):
                if p.tag == "p" and any(c.get("class") == EMBED_SLOT for c in p):
                    parent[index:index + 1] = self._split(p)

    @staticmethod
    def _split(p: etree.Element) -> list[etree.Element]:
        pieces: list[etree.Element] = []
        current = etree.Element("p", dict(p.attrib))
        current.text = p.text
        for child in list(p):
            if child.get("class") != EMBED_SLOT:
                current.append(child)
                continue
            tail, child.tail = child.tail, None
            if (current.text or "").strip() or len(current):
                pieces.append(current)
            pieces.append(child)
            current = etree.Element("p")
            current.text = tail.lstrip() if tail else None
        if (current.text or "").strip() or len(current):
            pieces.append(current)
        return pieces


class MarkdownLinkFallback(Treeprocessor):
    """Re-point ``[t](note.md)`` links that only resolved by name (Obsidian style).

    Runs before MkDocs' own link processor (priority 0), which then converts and
    validates the corrected source path like any other link.
    """

    def __init__(self, md: Markdown, renderer: PageRenderer) -> None:
        super().__init__(md)
        self.renderer = renderer

    def run(self, root: etree.Element) -> None:
        frame = self.renderer.frame
        if frame is None or frame.nested:  # in an embed, ``EmbeddedLinks`` does it
            return
        for el in root.iter():
            attr = "href" if el.tag == "a" else "src" if el.tag == "img" else None
            if attr is None:
                continue
            classes = el.get("class", "")
            if "bb-link" in classes or "bb-tag" in classes:  # ours: right as they are
                continue
            value = el.get(attr)
            if value:
                value, mark = split_mark(value)  # the compiled link written there
                fixed = self.renderer.markdown_link(value, mark)
                if fixed is not None or mark is not None:
                    el.set(attr, value if fixed is None else fixed)


class EmbeddedLinks(Treeprocessor):
    """Make a transclusion's HTML fit its host page.

    Markdown links written relative to the embedded note are re-pointed from
    the host page, and ids (headings, blocks) and permalinks are dropped: the
    host page has its own, and an id must be unique in a page.
    """

    def __init__(self, md: Markdown, renderer: PageRenderer) -> None:
        super().__init__(md)
        self.renderer = renderer

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for child in list(parent):
                if child.tag == "a" and "headerlink" in child.get("class", ""):
                    parent.remove(child)
        for el in root.iter():
            el.attrib.pop("id", None)
            attr = "href" if el.tag == "a" else "src" if el.tag == "img" else None
            classes = el.get("class", "")
            if attr is None or "data-bb-target" in el.attrib or "bb-link" in classes \
                    or "bb-tag" in classes:  # made from the host page already
                continue
            value = el.get(attr)
            if value:
                value, mark = split_mark(value)  # the compiled link written there
                el.set(attr, self.renderer.rebase(value, mark))


class WikiLinkExtension(Extension):
    """Registers everything above; the renderer decides what each link becomes."""

    def __init__(self, renderer: PageRenderer, **kwargs: object) -> None:
        self.renderer = renderer
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown API
        MathExtension().extendMarkdown(md)
        drop = DropLinkMarks(md)
        md.preprocessors.register(LinkMarks(md, self.renderer, drop), "bb_link_marks", 100)
        md.postprocessors.register(drop, "bb_drop_link_marks", 5)
        md.preprocessors.register(TablePipes(md), "bb_table_pipes", 24)
        md.preprocessors.register(LineTags(md), "bb_line_tags", 23)
        md.preprocessors.register(InlineFootnotes(md), "bb_inline_footnotes", 22)
        lift = LiftRuns(md)
        inline_fields.register(md)
        md.inlinePatterns.register(WikiLinkProcessor(WIKILINK_RE, md, self.renderer, lift),
                                   "bb_wikilink", 185)
        md.inlinePatterns.register(MarkdownEmbedProcessor(MARKDOWN_EMBED_RE, md, self.renderer),
                                   "bb_markdown_embed", 155)
        md.inlinePatterns.register(TagProcessor(TAG_RE, md, self.renderer, lift),
                                   "bb_tag", 105)
        md.treeprocessors.register(lift, "bb_lift_runs", 19.5)
        inline_chunks.register(md)
        md.treeprocessors.register(BlockIds(md), "bb_block_ids", 15)
        md.treeprocessors.register(EmbedBlocks(md), "bb_embed_blocks", 14)
        md.treeprocessors.register(ImageSizes(md), "bb_image_sizes", 3)
        md.treeprocessors.register(MarkdownLinkFallback(md, self.renderer),
                                   "bb_markdown_link_fallback", 2)

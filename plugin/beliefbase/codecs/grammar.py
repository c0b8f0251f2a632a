"""The Obsidian syntaxes beliefbase reads: the ONE place each is written down.

Owns the wikilink ``[[target#heading|alias]]`` and its embed ``![[...]]``, the
Markdown-syntax links and embeds as Obsidian reads them (``[t](note.md)``,
``![](note.md#Section)``), tags ``#tag``, block ids ``^id``, footnote labels
``[^id]`` and inline footnotes ``^[...]``, comments ``%%...%%``, the math
delimiters ``$``/``$$`` and the entity tags ``#Name:TYPE`` (and their alias and
reject forms; ``codecs.entity_syntax`` applies them).

Who uses it: the codec (``codecs.markdown``, ``inline``, ``math``,
``comments``) parses notes with it for the compile, and the page's
Python-Markdown extension (``site.markdown_ext``, ``site.math``,
``site.inline_footnotes``, ``site.previews``) renders with it, so the two
cannot disagree about what a link, tag or block id is.  The scanners that
need more than a regex (``codecs.math.find_math``, ``codecs.comments``) keep
their code but take their delimiters from here.

Patterns are built from shared pieces (``WIKILINK_INNER``, ``TAG_BODY``,
``BLOCK_ID_NAME``): a variant for one reader (a lookbehind Python-Markdown
needs, a capture group a snippet needs) is the same syntax with its context
written around it, never a second spelling of it.

Link marks (``LINK_MARK_*``): the renderer finds each link's compiled
resolution by its position, not by its text.  Before Python-Markdown reads a
note, ``site.markdown_ext`` puts a mark (``\x1a`` and four hex digits) right after the
``[[`` of every wikilink and embed the codec found, and at the start of the
href of every Markdown-syntax link and image, encoding the link's index in the
note's compiled links; the inline pattern takes it out again (``mark``), and
the link's ``href`` or ``src`` gives it up (``split_mark``).
Marks are ASCII: one character above it (a private-use mark, as they were) makes
CPython store the whole text four bytes a character and check every slice of it for
its widest character, and Python-Markdown slices a paragraph once per inline match
(issue 32: an 800 KB line took seven times as long).
"""

from __future__ import annotations

import re

# -- wikilinks and embeds --------------------------------------------------------------

#: What a wikilink holds between ``[[`` and ``]]``: ``target#fragment|display``, no
#: bracket, one line.  The ``|`` may be written ``\\|`` (inside a table).
WIKILINK_INNER = r"[^\[\]\n]+"
#: ``!`` before ``[[``: an embed (a transclusion, or an image / media file).
EMBED_BANG = "!"
# A wikilink or an embed's ``[[...]]`` part, anywhere (no escape rules): math scans
# for them because a `$` inside a link is text.
WIKILINK = re.compile(r"\[\[" + WIKILINK_INNER + r"\]\]")
# A wikilink or embed in inline text (snippets, titles): not after a backslash;
# groups (1) the bang, (2) the inner text.
WIKILINK_INLINE = re.compile(r"(?<!\\)(!?)\[\[(" + WIKILINK_INNER + r")\]\]")
# The ``|`` of a wikilink in a table row, not yet escaped: the ``tables`` block
# processor splits cells on it before any inline pattern runs.
WIKILINK_PIPE = re.compile(
    r"(?<!\\)(!?\[\[[^\[\]\n|]*)(?<!\\)\|(" + r"[^\[\]\n]*" + r"\]\])"
)
# `\|` inside a wikilink separates target and display like `|`.
_ESCAPED_PIPE = re.compile(r"\\\|")
#: An image's size as Obsidian writes it after a ``|``: ``375`` or ``375x200``.
SIZE = r"\d+(?:x\d+)?"
#: An embed's display that is a size: ``![[x.png|375]]``, ``![[x.png|375x200]]``.
EMBED_SIZE = re.compile(SIZE)
# The size ending a Markdown image's alt text, for snippets to drop: ``![alt|375](x.png)``.
ALT_SIZE_SUFFIX = re.compile(r"\s*\|\s*" + SIZE + r"\s*$")
#: Obsidian's size in a Markdown image's alt text: ``![alt|375](x.png)``.
ALT_SIZE = re.compile(
    r"^(?P<alt>.*?)\s*\|\s*(?P<width>\d+)(?:x(?P<height>\d+))?\s*$", re.DOTALL
)


def split_wikilink(inner: str) -> tuple[str, str, str | None]:
    """``Target#Frag|Display`` -> (target, fragment, display or None).

    ``\\|`` (the escaped pipe Obsidian needs inside tables) separates too.
    """
    if "\\|" in inner:
        inner = _ESCAPED_PIPE.sub("|", inner)
    target_part, bar, display = inner.partition("|")
    target, _, fragment = target_part.partition("#")
    shown = display.strip() if bar else None
    return target.strip(), fragment.strip(), shown if shown else None


# -- link marks: a wikilink's index among its note's compiled links ----------------------

#: What starts a link mark: ASCII SUB, a control character no note writes (a note that
#: does gets no marks), not whitespace to ``str.isspace`` nor to any Markdown pattern.
LINK_MARK_START = "\x1a"
#: How many links of one note can be marked (four hex digits).
LINK_MARK_COUNT = 0xFFFE
#: The regular expression of a mark (the start, then the link's index in four hex digits).
LINK_MARK_PATTERN = r"\x1a[0-9a-f]{4}"
# Any link mark.
LINK_MARK = re.compile(LINK_MARK_PATTERN)
_MARK_WIDTH = 5


def link_mark(index: int) -> str:
    """The mark of the ``index``-th compiled link of a note."""
    return f"{LINK_MARK_START}{index:04x}"


def mark_index(mark: str) -> int:
    return int(mark[1:], 16)


def split_mark(url: str) -> tuple[str, str | None]:
    """A Markdown link's href (or an image's src) without the link mark the renderer
    put at its start, and that mark (None if it has none)."""
    if url.startswith(LINK_MARK_START) and LINK_MARK.match(url):
        return url[_MARK_WIDTH:], url[:_MARK_WIDTH]
    return url, None


# Both inline patterns of the page's extension start with a literal, so a search
# skips to its next occurrence in C: Python-Markdown searches every pattern in every
# piece of text, and a leading lookbehind or optional character made the engine try
# each position in turn (25 times slower).  What stands before the literal is
# checked by a lookbehind after it; the ``!`` of an embed is taken into the match
# by the processor.
#: The page's wikilink pattern: ``[[`` not after a backslash, an optional link mark.
WIKILINK_RE = (
    r"\[\[(?<!\\\[\[)(?P<mark>" + LINK_MARK_PATTERN + r")?(?P<inner>" + WIKILINK_INNER + r")\]\]"
)

# -- Markdown-syntax links and embeds ----------------------------------------------------

# Every inline link form the codec reads.  A link starts at '[', '![' or '<http':
# `codecs.markdown._next_link` jumps between those with str.find and matches there;
# escapes are checked in Python.
LINK = re.compile(
    r"""
    (?=[!\[<])
    (?:(?P<bang>!?)\[\[                        # [[ or ![[
        (?P<inner>""" + WIKILINK_INNER + r""")                  # target|display (no brackets)
    \]\]
  | (?P<mdbang>!?)\[                          # [text](href) or ![alt](src)
        (?P<text>(?:\\.|[^\[\]\n\\]|\[(?:\\.|[^\[\]\n\\])*\])*)   # one level of [] nesting
    \]\(\s*
        (?P<href><[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)  # one level of ()
        (?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*           # optional title
    \)
  | <(?P<url>https?://[^\s<>]+)>)             # autolink
    """,
    re.VERBOSE,
)
#: ``![alt](href "title")`` on the page: a Markdown image, which may name a note to
#: transclude (Python-Markdown's own image pattern takes the rest).
MARKDOWN_EMBED_RE = (
    r"!\[(?P<alt>(?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"      # ![alt], one level of []
    r"\(\s*(?P<href><[^<>\n]*>|[^\s()<>]+)"                # (href or <href>
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"               # "title")
)
# A URL scheme (``https:``, ``mailto:``): a link out of the vault.
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")

# -- tags --------------------------------------------------------------------------------

#: ``#`` then tag characters (letters, digits, ``_``, ``-``, ``/``), not all digits
#: (``#1`` is no tag), and not an entity tag ``#Name:TYPE``.
TAG_BODY = r"#(?P<tag>[\w/\-]*[^\W\d][\w/\-]*)(?![\w/\-]|:[A-Z][A-Z0-9_]*\b)"
# The codec's tag: what stands before the ``#`` (whitespace or the line's start) is
# checked in Python, with headings and attr_lists.
TAG = re.compile(TAG_BODY)
#: Marks a line-start ``#tag`` on the page so that it is neither a heading nor lost (U+2063).
LINE_TAG_MARK = "\u2063"
#: The page's tag pattern: ``#`` after a space, tab, newline, the mark or nothing.
TAG_RE = r"#(?<![^ \t\n" + LINE_TAG_MARK + r"]#)" + TAG_BODY[1:]

# -- block ids ---------------------------------------------------------------------------

#: A block id's name: ``^name`` (letters, digits, ``-``; not starting with ``-``).
BLOCK_ID_NAME = r"[A-Za-z0-9][A-Za-z0-9\-]*"
# The codec's block id: ``^id`` at a line's end (what stands before is checked in Python).
BLOCK_ID = re.compile(r"\^(?P<id>" + BLOCK_ID_NAME + r")[ \t]*$", re.MULTILINE)
# On the page: `` ^id`` ending a block's text, or ``^id`` on a line of its own (sep: "\n").
BLOCK_MARK = re.compile(r"(?P<sep>[ \t]|\n)[ \t]*\^(?P<id>" + BLOCK_ID_NAME + r")[ \t]*$")
# On the page: a paragraph (or table cell) that is nothing but ``^id``.
LONE_BLOCK_MARK = re.compile(r"^\^(?P<id>" + BLOCK_ID_NAME + r")$")
# In a snippet's text: a `` ^id`` ending a line, dropped.
BLOCK_ID_AT_END = re.compile(r"[ \t]\^" + BLOCK_ID_NAME + r"[ \t]*$", re.MULTILINE)
# In a snippet's text: any whitespace-delimited ``^id``, dropped.
BLOCK_ID_WORD = re.compile(r"(?<!\S)\^" + BLOCK_ID_NAME + r"(?!\S)")

# -- footnotes ---------------------------------------------------------------------------

#: A footnote label: ``[^label]``.
FOOTNOTE_LABEL = r"[^\]\s]+"
# A footnote definition at a line's start: ``[^label]:``.
FOOTNOTE_DEF = re.compile(r"^\[\^(?P<id>" + FOOTNOTE_LABEL + r")\]:", re.MULTILINE)
# A footnote reference: ``[^label]`` not followed by ``:``.
FOOTNOTE_REF = re.compile(r"\[\^(?P<id>" + FOOTNOTE_LABEL + r")\](?!:)")
# A label used either way (a reference or a definition): group 1 is the label.
FOOTNOTE_ANY = re.compile(r"\[\^(" + FOOTNOTE_LABEL + r")\]")
# An inline footnote ``^[text]`` (one level of [] inside).
INLINE_NOTE = re.compile(r"\^\[(?:[^\[\]]|\[[^\[\]]*\])*\]")

# -- comments ----------------------------------------------------------------------------

#: The comment delimiter ``%%``; a literal, so str.find jumps to it at C speed
#: (``codecs.comments`` applies the rules: code, frontmatter, unclosed).
COMMENT_MARK = "%%"
# A comment in a snippet's text (to the end if unclosed); notes lose theirs earlier.
COMMENT = re.compile(r"%%.*?(?:%%|$)", re.DOTALL)

# -- math --------------------------------------------------------------------------------

#: Inline math ``$...$`` (``codecs.math.find_math`` applies Obsidian's rules).
MATH_INLINE = "$"
#: Display math ``$$...$$``.
MATH_DISPLAY = "$$"

# -- blocks (CommonMark's block structure, as Obsidian reads it) ------------------------
# The block-level rules the page's preprocessors (``site.markdown.block_breaks``,
# ``obsidian_markdown``, ``callouts``, ``nested_fences``, ``list_indents``) and the
# codec read a line with.  A line is split into its quote markers and its content
# (``QUOTED``); the other patterns read the content.

# The pieces (pattern strings) the compiled rules below are made of; a reader that
# needs a rule in another context composes these, never a second spelling.
#: One quote marker: up to three spaces, ``>`` and the one space a blockquote strips
#: with it.
QUOTE_MARKER = r"[ ]{0,3}>[ ]?"
#: A bullet list item's marker: ``-``, ``*`` or ``+``.
BULLET = r"[-*+]"
#: An ordered list item's number: 1 to 9 digits (CommonMark's limit: ``1234567890.``
#: is text, for Dataview too).
ORDERED_NUMBER = r"\d{1,9}"
#: A list item's marker: a bullet, or a number and ``.`` or ``)``.
LIST_MARKER = r"(?:" + BULLET + "|" + ORDERED_NUMBER + r"[.)])"
#: The character in a task's box ``[c]``: a space (to do), or any one character but
#: white space, a bracket or a backslash (``x`` done, Obsidian's custom ``/``, ``-``,
#: ``>`` ...): what the page renders as a checkbox (``site.markdown.obsidian_markdown``).
TASK_STATUS = r"(?: |[^\s\[\]\\])"
# A tag first on a line, after the line's quote markers, list marker and task box if
# any (``#tag``, ``- #tag``, ``> - [ ] #tag``): Python-Markdown would read it as a
# heading (it needs no space after ``#``); the page marks it, see LINE_TAG_MARK.
LINE_TAG = re.compile(r"^(?P<prefix>(?:" + QUOTE_MARKER + r")*(?:[ \t]*" + LIST_MARKER
                      + r"[ \t]+(?:\[" + TASK_STATUS + r"\][ \t]+)?)?)(?=" + TAG_BODY + r")")
#: A code fence's run: three or more backticks or tildes.
FENCE_RUN = r"(?:`{3,}|~{3,})"
#: An ATX heading's ``#``s: 1 to 6 (escaped: a verbose pattern may hold it).
ATX_HASHES = r"\#{1,6}"
#: An ATX heading's opening sequence: up to three spaces, then 1 to 6 ``#``.
ATX_OPEN = r"[ ]{0,3}" + ATX_HASHES
#: An ATX heading's optional closing sequence: ``#``s after a blank (or all of the
#: text), then blanks, at the end (``# C#`` keeps its ``#``).
CLOSING_HASHES_PATTERN = r"(?:^|[ \t]+)#+[ \t]*$"

#: A line's quote markers (``> ``, ``> > ``, ``>``) and the rest of it: groups 1, 2.
QUOTED = re.compile(r"^((?:" + QUOTE_MARKER + r")*)(.*)$")
#: One quote marker, as a blockquote strips it.
QUOTE_MARK = re.compile(r"^" + QUOTE_MARKER)
#: A line's quote markers, at least one (a snippet drops them all).
QUOTE_MARKS = re.compile(r"^(?:" + QUOTE_MARKER + r")+")
#: A code fence opening or closing: its indentation, the fence (``` or ~~~, three or
#: more), the info string.  An opening ````` fence's info holds no backtick.
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>" + FENCE_RUN + r")(?P<info>[^\n]*)$")
#: A thematic break (``- - -``, ``***``, ``___``): not a list item.
THEMATIC_BREAK = re.compile(r"^[ ]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
#: Any list item: indentation, marker (``-``, ``*``, ``+``, ``1.``, ``1)``), then a
#: blank or the line's end (an empty item).  Multi-line: ``match(text, pos)`` reads
#: the line at ``pos``.
LIST_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>" + LIST_MARKER + r")(?P<gap>[ \t]+|$)",
                       re.MULTILINE)
#: A list item with a blank after its marker (``-`` alone is no item to Python-Markdown,
#: nor to Dataview: under a paragraph it is a setext underline).  Multi-line.
LIST_ITEM_BLANK = re.compile(r"^[ \t]*" + LIST_MARKER + r"[ \t]", re.MULTILINE)
#: A list item and its task box: ``LIST_ITEM``'s groups, then ``status`` (the box's
#: character, None when it is no task) and the blanks after the box.
TASK_ITEM = re.compile(LIST_ITEM.pattern + r"(?:\[(?P<status>" + TASK_STATUS + r")\][ \t]+)?",
                       re.MULTILINE)
#: A list item that may interrupt a paragraph (CommonMark): up to 3 spaces, a bullet,
#: ``1.`` or ``1)``, white space, then text.
INTERRUPTING_ITEM = re.compile(r"^[ ]{0,3}(?:" + BULLET + r"|1[.)])[ \t]+\S")
#: An ATX heading: up to 3 spaces, 1 to 6 ``#``, then a blank or the line's end.
HEADING = re.compile(r"^" + ATX_OPEN + r"(?:[ \t]|$)")
#: An ATX heading's marker and the blanks after it (a snippet drops them).
HEADING_MARK = re.compile(r"^" + ATX_OPEN + r"(?:[ \t]+|$)")
# An ATX heading line, its groups: ``hashes`` and ``text`` (after one blank; None
# when empty), without the line's end.
_ATX_LINE = r"[ ]{0,3}(?P<hashes>" + ATX_HASHES + r")(?:[ \t](?P<text>[^\n]*))?"
#: An ATX heading line (multi-line: ``match(text, pos)``); groups ``hashes``, ``text``.
ATX_HEADING = re.compile(r"^" + _ATX_LINE + r"$", re.MULTILINE)
#: ATX headings in ``"\n" + text``: a literal first character lets the engine jump
#: from newline to newline (a match starts on the newline before its line).
ATX_SCAN = re.compile(r"\n" + _ATX_LINE + r"(?=\n|\Z)")
#: An ATX heading's closing ``#``s (``## Title ##``), to remove from its text.
CLOSING_HASHES = re.compile(CLOSING_HASHES_PATTERN)
#: A line that is blank (in its quote: only spaces, tabs and ``>`` markers).
BLANK = re.compile(r"^[ \t>]*$")
#: A callout's header ``[!type|metadata]±  Title`` (after the quote marker): the type
#: (letters, digits, ``_``, ``-``), Obsidian's metadata after a ``|`` (CSS classes for
#: snippets: ``[!warning|clean no-icon]``), the fold (``-`` collapsed, ``+`` open), the
#: title.
CALLOUT_HEAD_BODY = (r"\[!(?P<type>[A-Za-z0-9_-]+)(?:\|(?P<meta>[^\]\n]*))?\]"
                     r"(?P<fold>[+-]?)[ \t]*(?P<title>[^\n]*)")
#: A callout header line (no quote marker): ``[!note] Title``.
CALLOUT_HEAD = re.compile(r"^[ ]{0,3}" + CALLOUT_HEAD_BODY)
# A callout's marker anywhere in a text (``[!tip|wide]-``), for plain text to drop.
CALLOUT_MARK = re.compile(r"\[![A-Za-z0-9_-]+(?:\|[^\]\n]*)?\][+-]?")


def fence_opens(content: str) -> re.Match[str] | None:
    """The fence that ``content`` (a line without its quote markers) opens, or None
    (an info string with a backtick after ````` makes it a code span)."""
    m = FENCE.match(content)
    if m is None or (m.group("fence")[0] == "`" and "`" in m.group("info")):
        return None
    return m


def fence_closes(content: str, fence: str) -> bool:
    """Does ``content`` close a block opened by ``fence`` (same character, at least as
    long, nothing after it)?"""
    m = FENCE.match(content)
    return (m is not None and m.group("fence")[0] == fence[0]
            and len(m.group("fence")) >= len(fence) and not m.group("info").strip())


# -- query embeds (SPEC §8) --------------------------------------------------------------

#: ``{{query:ID}}`` or ``{{query:ID | view:NAME}}``; not after a backslash (escaped).
QUERY_EMBED = re.compile(
    r"(?<!\\)\{\{\s*query\s*:\s*(?P<id>[^|{}\n]+?)\s*"
    r"(?:\|\s*view\s*:\s*(?P<view>[^|{}\n]+?)\s*)?\}\}")
#: ``view=NAME`` (or ``view: NAME``) on a ```` ```query ```` fence's line.
QUERY_FENCE_VIEW = re.compile(r"\bview\s*[=:]\s*[\"']?(?P<view>[^\s\"'}]+)")

# -- entity tags (SPEC §7) ---------------------------------------------------------------
# ``#Name:TYPE``, ``#[Two Words]:TYPE``, ``Name:ALIAS_OF_CANONICAL:TYPE``,
# ``Name:REJECT_ENTITY``; TAG_BODY leaves ``#Name:TYPE`` alone (its negative
# lookahead), so a plain ``#tag`` stays a tag.

#: An entity type: an upper-case letter, then upper-case letters, digits, ``_``
#: (SPEC's ``[A-Z][A-Z0-9_]*``), an ``_`` only between two of the others: a trailing
#: ``_`` is Markdown's (``_#Smaug:CREATURE_`` is emphasis around the tag).
ENTITY_TYPE_PATTERN = r"[A-Z](?:[A-Z0-9]|_(?=[A-Z0-9]))*"
#: A whole string that is an entity type.
ENTITY_TYPE = re.compile(ENTITY_TYPE_PATTERN + r"\Z")
# After a type or keyword: no letter or digit, nor "_" and one (the word goes on).
_ENTITY_END = r"(?![^\W_]|_[^\W_])"
#: A one-word entity name: starts and ends with a letter or digit; hyphens, apostrophes
# (straight or curly) and underscores only inside.
ENTITY_NAME = r"[^\W_](?:[\w'\u2019\-]*[^\W_])?"
# A bracketed name: anything on one line but brackets, backslash and '#',
# not starting or ending with a space.
_ENTITY_BNAME = r"[^\[\]\n\\#\s](?:[^\[\]\n\\#]*[^\[\]\n\\#\s])?"
# A type that is not one of the two keywords.
_ENTITY_TYPE = (r"(?!ALIAS_OF_|REJECT_ENTITY" + _ENTITY_END + ")" + ENTITY_TYPE_PATTERN
                + _ENTITY_END)
#: The three entity forms of SPEC §7 (``codecs.entity_syntax`` applies where they
#: count: never in code, math, headings, link targets, URLs or after ``\\``).
ENTITY = re.compile(
    r"""
    (?<![^\s("'\u201c\u2018*_~])        # start, space or opening punctuation before
    (?:
      \#(?:(?P<tname>""" + ENTITY_NAME + r""")|\[(?P<tbname>""" + _ENTITY_BNAME + r""")\])
        :(?P<ttype>""" + _ENTITY_TYPE + r""")(?!:[A-Z])            # #Name:TYPE
    | (?:(?P<aname>""" + ENTITY_NAME + r""")|\[(?P<abname>""" + _ENTITY_BNAME + r""")\])
        :ALIAS_OF_(?P<canon>[A-Z0-9][A-Z0-9_]*)
        :(?P<atype>""" + _ENTITY_TYPE + r""")                      # Name:ALIAS_OF_X:TYPE
    | (?:(?P<rname>""" + ENTITY_NAME + r""")|\[(?P<rbname>""" + _ENTITY_BNAME + r""")\])
        :REJECT_ENTITY""" + _ENTITY_END + r"""                     # Name:REJECT_ENTITY
    )
    """,
    re.VERBOSE,
)

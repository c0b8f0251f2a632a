"""Property test: the page's block structure is CommonMark's (markdown-it-py, the reference).

Random documents are built from paragraphs (some starting with inline math),
bullet and numbered lists, quotes, callouts (``> [!note]``, with ``|metadata``,
nested), fences, display math and headings, each written directly under the one
before or after a blank line.  The page (Python-Markdown with the extensions a
vault gets) and markdown-it-py's CommonMark parser must agree on the tree of
blocks: which are code, lists (and how many items), quotes (a callout is a quote
to CommonMark), headings and paragraphs, nested as they are.  Display math is a
paragraph to CommonMark (it knows no math) and a block of its own here, so a
formula is always set off by blank lines.
"""

from __future__ import annotations

from html.parser import HTMLParser

import markdown
from beliefbase.codecs.grammar import CALLOUT_HEAD
from beliefbase.site.markdown.callouts import CalloutExtension
from beliefbase.site.markdown.markdown_defaults import DEFAULTS
from beliefbase.site.markdown.math import MathExtension
from beliefbase.site.markdown.obsidian_markdown import ObsidianMarkdownExtension
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

Tree = list[tuple[str, object]]

_WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "x", "word"])
_LINE = st.lists(_WORDS, min_size=1, max_size=3).map(" ".join)


@st.composite
def _paragraph(draw: st.DrawFn) -> list[str]:
    lines = draw(st.lists(_LINE, min_size=1, max_size=2))
    if draw(st.booleans()):
        lines[0] = "$N$ " + lines[0]  # a paragraph that starts with inline math
    return lines


@st.composite
def _list(draw: st.DrawFn) -> list[str]:
    # (one bullet: "- a" then "* b" after a blank line are two lists in CommonMark and
    # one loose list in Python-Markdown, a difference no vault of the issue hit)
    marker = draw(st.sampled_from(["- ", "1. "]))
    items = draw(st.lists(_LINE, min_size=1, max_size=3))
    if marker == "1. ":
        return [f"{n}. {item}" for n, item in enumerate(items, 1)]
    return [marker + item for item in items]


def _fence(draw: st.DrawFn) -> list[str]:
    fence = draw(st.sampled_from(["```", "~~~", "````"]))
    body = draw(st.lists(st.sampled_from(["code", "- not a list", "> not a quote", "# no",
                                          "$x$", ""]), max_size=2))
    return [fence + draw(st.sampled_from(["", "python", "matlab"])), *body, fence]


@st.composite
def _quoted(draw: st.DrawFn, depth: int) -> list[str]:
    """A quote or a callout (with metadata, nested) of paragraphs, lists and fences."""
    head: list[str] = []
    if draw(st.booleans()):
        meta = draw(st.sampled_from(["", "|flex", "|clean no-icon"]))
        fold = draw(st.sampled_from(["", "-", "+"]))
        head = [f"[!note{meta}]{fold} Title"]
    kinds = ["p", "list", "fence"] + (["quote"] if depth < 3 else [])
    parts: list[list[str]] = []
    for kind in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3)):
        if kind == "p":
            parts.append(draw(_paragraph()))
        elif kind == "list":
            parts.append(draw(_list()))
        elif kind == "fence":
            parts.append(_fence(draw))
        else:
            parts.append(draw(_quoted(depth + 1)))
    body = head + [line for part in _joined(draw, parts) for line in part]
    return [("> " + line).rstrip() for line in body]


def _joined(draw: st.DrawFn, parts: list[list[str]]) -> list[list[str]]:
    """The parts, each after a blank line or directly under the one before; two
    paragraphs, or two lists, directly one under the other would be one."""
    out: list[list[str]] = []
    for index, part in enumerate(parts):
        if index and (draw(st.booleans()) or _merges(parts[index - 1], part)):
            out.append([""])
        out.append(part)
    return out


def _merges(before: list[str], after: list[str]) -> bool:
    """Written directly under each other, would these run together (lazy lines, one
    list, one quote), or hit a corner the page does not follow (a setext underline)?"""
    kind_before, kind_after = _kind(before), _kind(after)
    if kind_after in ("p", "quote") or kind_after == kind_before:
        return True
    return kind_before in ("list", "quote") and kind_after == "list" or kind_after == "math"


def _kind(lines: list[str]) -> str:
    first = lines[0]
    if first.startswith(">"):
        return "quote"
    if first.startswith(("- ", "* ", "1. ")):
        return "list"
    if first.startswith(("```", "~~~")):
        return "fence"
    if first.startswith("#"):
        return "heading"
    if first.startswith("$$"):
        return "math"
    return "p"


@st.composite
def documents(draw: st.DrawFn) -> str:
    parts: list[list[str]] = []
    for kind in draw(st.lists(st.sampled_from(["p", "list", "quote", "fence", "heading",
                                               "math"]), min_size=1, max_size=6)):
        if kind == "p":
            parts.append(draw(_paragraph()))
        elif kind == "list":
            parts.append(draw(_list()))
        elif kind == "quote":
            parts.append(draw(_quoted(1)))
        elif kind == "fence":
            parts.append(_fence(draw))
        elif kind == "heading":
            parts.append([draw(st.sampled_from(["# ", "## ", "### "])) + draw(_LINE)])
        else:
            parts.append(["$$", "x^2 + y_1", "$$"])
    return "\n".join(line for part in _joined(draw, parts) for line in part) + "\n"


# -- the two trees ------------------------------------------------------------------------

def reference(text: str) -> Tree:
    """CommonMark's block tree (markdown-it-py)."""
    tokens = MarkdownIt("commonmark").parse(text)
    root: Tree = []
    stack: list[Tree] = [root]
    items: list[int] = []
    for at, token in enumerate(tokens):
        kind = {"paragraph": "p", "bullet_list": "list", "ordered_list": "list",
                "blockquote": "quote", "heading": "h"}.get(token.type.rsplit("_", 1)[0])
        if token.type in ("fence", "code_block"):
            stack[-1].append(("code", None))
        elif token.type == "hr":
            stack[-1].append(("hr", None))
        elif token.type == "list_item_open":
            items[-1] += 1
        elif token.nesting == 1 and kind is not None:
            if kind == "list":
                items.append(0)
                stack[-1].append(("list", None))  # items counted, content not compared
                stack.append([])
            elif kind == "quote":
                children: Tree = []
                stack[-1].append(("quote", children))
                stack.append(children)
            elif kind == "p" and _callout_title(tokens, at, stack):
                continue
            else:
                stack[-1].append((kind, None))
        elif token.nesting == -1 and kind in ("list", "quote"):
            stack.pop()
            if kind == "list":
                count = items.pop()
                stack[-1][-1] = ("list", count)
    return root


def _callout_title(tokens: list[Token], at: int, stack: list[Tree]) -> bool:
    """Is the paragraph opened at ``tokens[at]`` only a callout's header line (the
    first line of a quote, ``[!type] Title``), which the page shows as the callout's
    title, not as a paragraph?"""
    content = tokens[at + 1].content
    return (len(stack) > 1 and not stack[-1] and tokens[at - 1].type == "blockquote_open"
            and CALLOUT_HEAD.match(content) is not None and "\n" not in content)


class _Page(HTMLParser):
    """The page's block tree, in the same terms."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: Tree = []
        self.stack: list[tuple[str, Tree | None]] = [("root", self.root)]
        self.list_items: list[int] = []

    def _blocks(self) -> Tree | None:
        return self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        blocks = self._blocks()
        kind: str | None = None
        children: Tree | None = None
        if tag in ("ul", "ol"):
            self.list_items.append(0)
            kind = "list"
        elif tag == "li":
            if self.stack[-1][0] == "list":
                self.list_items[-1] += 1
            kind = "li"
        elif tag == "blockquote" or tag == "details" or "admonition" in classes:
            children = []
            kind = "quote"
            if blocks is not None:
                blocks.append(("quote", children))
        elif tag == "summary" or "admonition-title" in classes:
            kind = "title"
        elif tag == "pre" or "highlight" in classes:
            kind = "code"
            if blocks is not None and self.stack[-1][0] != "code":
                blocks.append(("code", None))
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            kind = "h"
            if blocks is not None:
                blocks.append(("h", None))
        elif tag == "p" or "bb-math-block" in classes and tag == "div":
            kind = "p"
            if blocks is not None:
                blocks.append(("p", None))
        elif tag == "hr":
            if blocks is not None:
                blocks.append(("hr", None))
            return
        elif tag in ("br", "img", "input", "mspace"):
            return
        self.stack.append((kind or "inline", children))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "input", "mspace", "hr"):
            return
        kind, _children = self.stack.pop()
        if kind == "list":
            blocks = self._blocks()
            if blocks is not None:
                blocks.append(("list", self.list_items.pop()))
            else:
                self.list_items.pop()


def page(text: str) -> Tree:
    names = [name for name, _options, _replaced in DEFAULTS]
    configs = {name: options for name, options, _replaced in DEFAULTS}
    md = markdown.Markdown(extensions=[*names, CalloutExtension(), ObsidianMarkdownExtension(),
                                       MathExtension()], extension_configs=configs)
    parser = _Page()
    parser.feed(md.convert(text))
    return parser.root


@settings(max_examples=200, deadline=None)
@given(documents())
@example("Code:\n```matlab\nx = 1;\n```\n- a\n- b\n")
@example("> [!note] A\n> last line\n```python\nx\n```\n\n> [!info] B\n> body\n")
@example("$N$ cells in series:\n- one\n- two\n")
@example("> one\n\n> two\n")
@example("> [!column|flex]\n> > [!note] In\n> > body\n> > > [!tip] Deep\n> > > deep\n")
@example("- item\n```\ncode\n```\n")
@example("> quote\n- list\n")
def test_block_structure_is_commonmarks(text: str) -> None:
    assert page(text) == reference(text), text

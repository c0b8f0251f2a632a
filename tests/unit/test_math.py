"""Math: Obsidian's ``$`` delimiters, MathML rendering, and math as non-structure."""

from __future__ import annotations

import markdown
import pytest
from beliefbase.codecs.inline import plain_text
from beliefbase.codecs.markdown import parse_markdown
from beliefbase.codecs.mask import code_and_math, code_only_regions, mask
from beliefbase.codecs.math import find_math, to_mathml
from beliefbase.site.markdown.callouts import CalloutExtension
from beliefbase.site.markdown.math import MathExtension


def formulas(text: str) -> list[tuple[str, bool]]:
    found = [(f.latex, f.display) for f in code_and_math(text)[1]]
    # the same formulas from the code regions alone (what the page and codec agree on)
    assert found == [(f.latex, f.display) for f in find_math(text, code_only_regions(text))]
    return found


@pytest.mark.parametrize(("text", "expected"), [
    ("$x$", [("x", False)]),
    ("a $x^2$ b $y$.", [("x^2", False), ("y", False)]),
    ("costs $5 and $10", []),                    # closer after a space: not math
    ("costs $5 and $10.", []),
    ("$ x$", []),                                # opener before a space
    ("$x $", []),                                # closer after a space
    ("$x$1", []),                                # closer before a digit
    ("$x$, $y$!", [("x", False), ("y", False)]),
    (r"\$x$", []),                               # an escaped dollar opens nothing
    (r"$a \$ b$", [(r"a \$ b", False)]),         # ... and closes nothing
    (r"\\$x$", [("x", False)]),                  # an escaped backslash, then math
    ("`$x$` and ```$y$```", []),                 # code spans
    ("```\n$x$\n```\n", []),                     # fences
    ("$a `b` c$", [("a `b` c", False)]),         # a backtick in math is LaTeX
    ("$$\\text{`Roma`}$$\n\n## H\n", [("\\text{`Roma`}", True)]),
    ("`a $x` b$", []),                           # the code span opens first
    ("a $$x\n\ny$$ b", [("x\n\ny", True)]),      # in a paragraph, across a blank line
    ("a $$x\n## H\ny$$ b", []),                 # never across a heading
    ("a $x\n# H\ny$ b", []),
    ("$$\na\n# b\nc\n$$\n", [("\na\n# b\nc\n", True)]),  # a # line in a $$ block
    ("$$\na\n\n## Section\n\ntext $$ b\n", []),  # ... but not a heading set off
    ("| $a \\| b$ | c |\n|---|---|\n", [("a | b", False)]),  # a cell's escaped pipe
    ("$a \\| b$", [("a \\| b", False)]),      # ... elsewhere LaTeX's \|
    ("$a\nb$", [("a\nb", False)]),               # one paragraph, two lines
    ("$a\n\nb$", []),                            # not across paragraphs
    ("$$x$$", [("x", True)]),
    ("in a $$x = 1$$ paragraph", [("x = 1", True)]),
    ("$$\n\\frac{a}{b}\n$$\n", [("\n\\frac{a}{b}\n", True)]),
    ("$$\na\n\nb\n$$\n", [("\na\n\nb\n", True)]),  # on its own lines: may hold a blank line
    ("$$ $$", []),
    ("$$$x$$$", []),
    ("pay $$ or", []),
    ("> $$\n> a \\\\\n> b\n> $$\n", [("\na \\\\\nb\n", True)]),  # quote markers are not LaTeX
    ("$[[x]] #tag *a* _b_ <c>$", [("[[x]] #tag *a* _b_ <c>", False)]),
    ("[[Note#The $x$ rule]] and $y$", [("y", False)]),  # a wikilink's `$` is its text
])
def test_delimiters(text: str, expected: list[tuple[str, bool]]) -> None:
    assert formulas(text) == expected


def render(text: str) -> str:
    md = markdown.Markdown(extensions=["tables", "pymdownx.superfences", "admonition",
                                       MathExtension(), CalloutExtension()])
    return md.convert(text)


def test_inline_and_display_render_to_mathml() -> None:
    html = render("Let $x_1 * y_1 * z$ be.\n\n$$\n\\int_0^1 f\\,dx\n$$\n")
    assert '<span class="bb-math"><math display="inline">' in html
    assert "<em>" not in html  # `*` and `_` are LaTeX, not emphasis
    assert '<div class="bb-math-block"><math display="block">' in html
    assert "<p><div" not in html
    assert "<msubsup><mo>∫</mo>" in html or "∫" in html


def test_markdown_syntax_inside_math_stays_math() -> None:
    html = render(r"$[[Note]] \\ [t](u) #tag a<b$")
    assert "<a " not in html and "bb-tag" not in html
    assert "&lt;" in html or "&#x0003C;" in html
    assert "<b" not in html.replace("<br", "")


@pytest.mark.parametrize("text", [
    "- item\n  $$\n  y = 1\n  $$\n- next\n",
    "> [!note] Title\n> $$\n> y = 1\n> $$\n",
    "> quote\n> $$\n> y = 1\n> $$\n",
    "| a |\n|---|\n| $|y| = 1$ |\n",
    "para $$y = 1$$ para\n",
])
def test_math_in_lists_callouts_quotes_tables_and_paragraphs(text: str) -> None:
    html = render(text)
    assert html.count("<math") == 1, html
    assert "$" not in html and "<p><div" not in html
    assert "<mi>y</mi>" in html


def test_an_escaped_dollar_shows_a_dollar_sign() -> None:
    assert render(r"I have \$1 and you have \$2") == "<p>I have $1 and you have $2</p>"


def test_display_block_in_a_callout_is_inside_the_callout() -> None:
    html = render("> [!note] Title\n> $$\n> y = 1\n> $$\n\nafter\n")
    assert html.index("<math") < html.index("</div>\n</div>") < html.index("after")


def test_a_formula_that_does_not_convert_shows_its_escaped_source() -> None:
    html = render(r"bad $\frac{1}{$ and $\text{<img src=x onerror=alert(1)>}$")
    # the first does not convert; the second is text, escaped (a < in \text{} converts)
    assert html.count('<code class="bb-math-error">') == 1
    assert "<img" not in html
    assert "<mtext>&lt;img" in html


def test_no_link_or_event_attribute_reaches_the_page() -> None:
    html, why = to_mathml(r"\href{javascript:alert(1)}{x} \color{red\" onclick=\"x}{y}", False)
    assert why == "" and html is not None
    assert "href" not in html and "onclick" not in html and "javascript" not in html


def test_unknown_commands_are_errors_and_aligned_converts() -> None:
    assert to_mathml(r"\nosuchcommand{eq} x", True) == (None, r"unknown command \nosuchcommand")
    html, why = to_mathml("\\begin{aligned} a &= b \\\\ &= c \\end{aligned}", True)
    assert why == "" and html is not None and "<mtable" in html and ">&amp;<" not in html


def test_conversion_is_memoised() -> None:
    to_mathml.cache_clear()
    to_mathml(r"\sum_{i=1}^n i", True)
    to_mathml(r"\sum_{i=1}^n i", True)
    assert to_mathml.cache_info().hits == 1


def test_plain_text_reads_a_formula_as_toc_names_a_heading() -> None:
    assert plain_text("The $\\alpha$ rule") == "The α rule"
    assert plain_text("Sum $x_1 + x_2$") == "Sum x1+x2"
    assert plain_text("costs $5 and $10") == "costs $5 and $10"


def parse(text: str):  # type: ignore[no-untyped-def]
    return parse_markdown("note.md", text.encode(), "docs/note.md")  # type: ignore[arg-type]


def test_math_is_no_structure_for_the_codec() -> None:
    doc = parse("---\ntitle: T\n---\nSee $[[Hidden]] + \\#x #tag$ and [[Shown]] #real\n"
                "$$\n[[AlsoHidden]]\n# not a heading\n$$\n")
    assert [link.target for link in doc.links] == ["Shown"]
    assert [tag.name for tag in doc.tags] == ["real"]
    assert doc.headings == ()
    assert "Hidden" not in mask("$[[Hidden]]$")


def test_math_error_is_reported_at_file_line_column() -> None:
    doc = parse("---\ntitle: T\n---\nok $x$\n\nbad $\\frac{1}{$ here\n")
    errors = [d for d in doc.diagnostics if d.code == "math-error"]
    assert [(d.file, d.line, d.column, d.level.value) for d in errors] == [
        ("docs/note.md", 6, 5, "warning")]
    assert errors[0].message.startswith("could not convert this formula: ")
    assert errors[0].message.endswith("; it is shown as source (check the LaTeX)")


@pytest.mark.parametrize(("latex", "needle"), [
    (r"\Big\vert x \Big\vert", 'maxsize="1.623em" stretchy="true" symmetric="true">|</mo>'),
    (r"\bigg\vert y \bigg\vert", 'maxsize="2.047em" stretchy="true" symmetric="true">|</mo>'),
    (r"\Big\langle x \Big\rangle", "\u27e8</mo>"),
    (r"\big\| x \big\|", "\u2016</mo>"),
    (r"\bigl\{ x \bigr\}", ">{</mo>"),
    (r"\text{a < b}", "<mtext>a\xa0&lt;\xa0b</mtext>"),
    (r"\text{a > b \& c \% d}", "<mtext>a\xa0&gt;\xa0b\xa0&amp;\xa0c\xa0%\xa0d</mtext>"),
    (r"\textbraceleft x \textbraceright", "<mi>{</mi><mi>x</mi><mi>}</mi>"),
    (r"x = 1 \label{eq:one}", "<mi>x</mi><mo>=</mo><mn>1</mn></mrow>"),
])
def test_latex_that_mathjax_renders_converts(latex: str, needle: str) -> None:
    mathml, why = to_mathml(latex, False)
    assert mathml is not None, why
    assert needle in mathml
    assert "\\" not in mathml  # no command left as text


def test_a_formula_that_still_fails_says_why() -> None:
    mathml, why = to_mathml(r"\frac{1}{", False)
    assert mathml is None and "ends too early" in why

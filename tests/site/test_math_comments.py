"""Whole builds: math renders to MathML offline; %%comments%% reach no file of the site."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import diagnostic_lines

SECRET = "zqxsecretmarker"


def site_files(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
            for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".json", ".xml")}


def test_math_in_paragraphs_lists_callouts_and_tables(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", """\
        # Calculus

        The derivative $f'(x) = \\lim_{h \\to 0} \\frac{f(x+h) - f(x)}{h}$ and [[Other]].

        $$
        \\int_a^b f(x)\\,dx = F(b) - F(a)
        $$

        - item $x_1 * x_2 * x_3$
        - block in an item:
          $$
          \\sum_{i=1}^n i = \\frac{n(n+1)}{2}
          $$

        > [!note] A callout
        > $$
        > A = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}
        > $$

        | f | f' |
        |---|----|
        | $x^2$ | $2x$ |

        Costs $5 and $10. A broken one: $\\frac{1}{$ here.
        """)
    project.write("other.md", "# Other\n\nSee $[[index]]$ and [[index]].\n")
    result = project.build()
    assert result.error is None
    article = result.article("")
    # the note's text (the panels after it quote other notes, math included)
    assert _text(article).count("<math") == 7
    assert article.count('<div class="bb-math-block">') == 2  # top level and callout
    assert "<em>" not in article
    assert "Costs $5 and $10." in article
    assert '<code class="bb-math-error">$\\frac{1}{$</code>' in article
    callout = article[article.index('data-callout="note"'):]
    assert callout.index("<mtable") < callout.index("</div>")
    # offline: no script or stylesheet from any host, no math library
    page = result.page("")
    assert "mathjax" not in page.lower() and "katex" not in page.lower()
    errors = diagnostic_lines(result, "math-error")
    assert len(errors) == 1 and "docs/index.md:24:33: math-error: could not convert this formula: the formula ends too early" in errors[0], result.lines
    # math is not structure: the link inside $…$ in other.md is no link
    assert [line for line in result.lines if "other.md" in line] == []
    graph = (result.site / "_beliefbase" / "graph.json").read_text(encoding="utf-8")
    assert graph.count('"links_to"') == 2  # index -> Other, Other -> index (once)


def test_comments_leak_nowhere(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", f"""\
        # Home %%{SECRET}1%%

        Visible text %%{SECRET}2 [[Ghost]] #ghosttag%% and [[Note]].

        %%
        {SECRET}3 [[Note]] ![[Note]] [^9]
        [^9]: {SECRET}4
        %%

        `%%kept in code%%`
        """)
    project.write("note.md", f"""\
        # Note

        Home is mentioned here %%and Home {SECRET}5%%. Some text.
        %% unclosed {SECRET}6 [[nowhere]]
        """)
    result = project.build()
    assert result.error is None
    leaks = [name for name, text in site_files(result.site).items() if SECRET in text]
    assert leaks == []
    assert "Ghost" not in result.article("") and "ghosttag" not in result.page("")
    assert "%%kept in code%%" in result.article("")
    assert [line for line in result.lines if "nowhere" in line or "Ghost" in line] == []
    graph = (result.site / "_beliefbase" / "graph.json").read_text(encoding="utf-8")
    assert "embeds" not in graph


def test_heading_with_math_keeps_its_anchor(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", """\
        # Home

        See [[other#The $\\alpha$ rule]] and [[other#Sum $x_1 + x_2$]].
        """)
    project.write("other.md", "# Other\n\n## The $\\alpha$ rule\n\ntext\n\n## Sum $x_1 + x_2$\n")
    result = project.build()
    assert result.error is None
    assert diagnostic_lines(result) == []
    article = result.article("")
    other = result.article("other/")
    anchors = re.findall(r'href="other/#([^"]+)"', article)
    assert len(anchors) == 2 and "bb-anchor-missing" not in article
    for anchor in anchors:  # the codec's anchor is the id toc gave the heading
        assert f'id="{anchor}"' in other, (anchor, other)


def test_math_and_comments_in_an_embedded_note(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n![[part]]\n\n![[part#Section]]\n")
    project.write("part.md", f"""\
        # Part

        Intro $a^2 + b^2 = c^2$ %%{SECRET}%%

        ## Section

        $$
        \\sum_{{i=1}}^n i
        $$
        """)
    result = project.build()
    assert result.error is None
    article = result.article("")
    assert _text(article).count("<math") == 3  # the whole note, then its section
    assert SECRET not in article


def _text(article: str) -> str:
    """A page's text, without the panels and lists after it (recent notes, backlinks)."""
    return re.split(r'<section class="bb-', article, maxsplit=1)[0]

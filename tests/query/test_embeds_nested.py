"""Query fences and embeds inside list items, quotes and callouts render in place,
as Obsidian renders a code-block plugin there (issue 18); code stays code."""

from __future__ import annotations

import re

import pytest

from tests.conftest import Project, diagnostic_lines

from .test_pages import build

COUNT = "```query view=count\nMATCH (p:Project) RETURN count(*)\n```"
NUMBER = '<p class="bb-query bb-query-count"><span class="bb-query-number">3</span></p>'


def quoted(text: str, marker: str = "> ") -> str:
    return "\n".join(marker + line for line in text.split("\n"))


def indented(text: str, indent: str) -> str:
    return "\n".join(indent + line for line in text.split("\n"))


PAGE = f"""\
# Dash

- tight one
{indented(COUNT, "  ")}
- tight two

1. first
{indented(COUNT.replace("```", "~~~"), "   ")}
2. second

> quoted
{quoted(COUNT)}
> after the fence

> [!note] A callout
> {{{{query:active-projects}}}}
>
{quoted(COUNT)}

> [!tip]- Folded
{quoted(COUNT)}

> > deep
{quoted(COUNT, "> > ")}

> - a quoted list
{quoted(indented(COUNT, "  "))}

The end.
"""

CODE = f"""\
# Code

````markdown
{quoted(COUNT)}
- x
{indented(COUNT, "  ")}
````

> `{{{{query:active-projects}}}}` and \\{{{{query:active-projects}}}}
> ```python
> # ```query
> x = 1
> ```

{indented(COUNT, "    ")}

- an embed in a list item's code
  ```text
  {{{{query:active-projects}}}}
  ```

> ```text
> {{{{query:active-projects}}}}
> ```
"""


@pytest.mark.parametrize("extensions", [None, ["fenced_code"]], ids=["superfences", "plain"])
def test_fences_and_embeds_in_containers(project: Project, extensions: list[str] | None) -> None:
    result = build(project, {"dash.md": PAGE},
                   **({"markdown_extensions": extensions} if extensions else {}))
    html = result.article("dash/")
    assert html.count(NUMBER) == 7 and "MATCH" not in html and "```" not in html
    # each result inside its container, the container whole
    lists = re.findall(r"<[uo]l>.*?</[uo]l>", html, re.S)
    assert NUMBER in lists[0] and "tight two" in lists[0]
    assert NUMBER in lists[1] and "second" in lists[1]
    quote = html.split("<blockquote>", 1)[1].split("</blockquote>", 1)[0]
    assert NUMBER in quote and "<p>after the fence</p>" in quote
    callout = html.split('<div class="admonition note"', 1)[1].split("</div>\n<", 1)[0]
    assert '<a href="../beta/">Beta</a>' in callout
    folded = html.split('<details class="tip"', 1)[1].split("</details>", 1)[0]
    assert NUMBER in folded
    assert "<blockquote>\n<blockquote>\n<p>deep</p>\n" + NUMBER in html
    assert "<p>a quoted list</p>\n" + NUMBER in html
    assert "<p><div" not in html and "<p><p" not in html and "<p>The end.</p>" in html


def test_code_stays_code(project: Project) -> None:
    html = build(project, {"code.md": CODE}).article("code/")
    assert "bb-query" not in html
    assert "<code>{{query:active-projects}}</code> and {{query:active-projects}}" in html
    assert html.count("```query") == 4  # two in the markdown fence, one quoted, one indented


def test_errors_in_a_callout_report_their_line(project: Project) -> None:
    result = build(project, {"dash.md": "# Dash\n\n> [!warning] Broken\n> text\n"
                                        "> ```query\n> MATCH (x:Nope) RETURN x\n> ```\n"})
    html = result.article("dash/")
    assert 'class="bb-query-error' in html.split('<div class="admonition warning"', 1)[1]
    # the box's title says it failed; its text is the engine's message
    assert "<p>Binder exception: Table Nope does not exist.</p>" in html
    lines = diagnostic_lines(result, "query-error")
    assert [line.split(": query-error")[0] for line in lines] == ["WARNING docs/dash.md:5:1"]


def test_a_count_in_a_line_of_text_is_a_phrase(project: Project) -> None:
    html = build(project, {"dash.md": """\
        # Dash

        We have {{query:active-projects | view:count}} active projects.

        > - {{query:active-projects | view:count}}

        | what | how many |
        |---|---|
        | active | {{query:active-projects | view:count}} |
        """}).article("dash/")
    phrase = ('<span class="bb-query-inline bb-query-count"><span class="bb-query-number">2'
              "</span></span>")
    assert f"<p>We have {phrase} active projects.</p>" in html
    assert f"<td>{phrase}</td>" in html
    alone = '<p class="bb-query bb-query-count"><span class="bb-query-number">2</span></p>'
    assert f"<li>{alone}" in html  # alone on its line (after quote and list markers)

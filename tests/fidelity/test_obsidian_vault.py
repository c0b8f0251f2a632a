"""A vault written the way Obsidian users write, built with the README's minimal
``mkdocs.yml`` (``plugins: [search, beliefbase]``), end to end.

The vault (``vault/docs``) uses every construct of Obsidian's "Basic formatting
syntax" and "Advanced formatting syntax" help pages, plus what real vaults hold:
``.obsidian/`` settings, a ``.trash/`` folder, a templates folder, ignored
folders, ``%%comments%%``, math, lists straight after a line, block ids on their
own line, an Excalidraw drawing, a note without a leading H1, tags, drafts and
no ``index.md``.

Each note's ``<article>`` is compared with ``expected/<page>.html``
(``pytest tests/fidelity --update-golden`` rewrites them; review the diff), and
the rules the golden files could hide are asserted one by one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import BuildResult, build_copy
from tests.golden.test_golden import normalize

HERE = Path(__file__).parent
PAGES = {
    "home": "",
    "basic-formatting": "Basic formatting/",
    "advanced-formatting": "Advanced formatting/",
    "lists-after-lines": "Lists after lines/",
    "block-ids": "Block ids/",
    "links-to-blocks": "Links to blocks/",
    "math-heavy": "Math heavy/",
    "late-heading": "Late heading/",
    "tagged-note": "Tagged note/",
    "fences-after-lines": "Fences after lines/",
    "quotes-and-lists": "Quotes and lists/",
    "math-second-round": "Math second round/",
    "block-ids-under-blocks": "Block ids under blocks/",
    "inline-fields": "Inline fields/",
    "planning-board": "Projects/Planning.canvas/",
    "reading-map": "Reading map.canvas/",
    "canvas-in-a-note": "Canvas in a note/",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return build_copy(HERE / "vault", tmp_path_factory.mktemp("fidelity"))


def _article(built: BuildResult, url: str) -> str:
    return built.article(url)


# Pygments' markup inside a highlighted block: its token classes and its escaping of
# quotes change between releases (2.21 writes `"` where 2.20 wrote `&quot;`).
_HIGHLIGHT = re.compile(r'<div class="highlight">.*?</div>', re.DOTALL)
_TOKEN = re.compile(r'</?span(?: class="[^"]*")?>')


def _plain_code(html: str) -> str:
    """``html`` with each highlighted block's text only (the golden files' form)."""
    return _HIGHLIGHT.sub(lambda m: _TOKEN.sub("", m.group()).replace("&quot;", '"'), html)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_golden(built: BuildResult, name: str, request: pytest.FixtureRequest) -> None:
    got = _plain_code(normalize(_article(built, PAGES[name])))
    got = re.sub(r'data-bb-target="[0-9a-f-]+"', 'data-bb-target="…"', got)
    # the dates under the title and the home page's recent notes (their order too) are
    # the files' times here: they change with every checkout
    got = re.sub(r'<p class="bb-note-meta">.*?</p>', "", got)
    got = re.sub(r'<section class="bb-recent bb-recent--home">.*?</section>', "", got,
                 flags=re.DOTALL)
    expected = HERE / "expected" / f"{name}.html"
    if request.config.getoption("--update-golden") or not expected.exists():
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def _all_output(site: Path) -> str:
    texts = []
    for path in sorted(site.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".json", ".xml", ".js", ".txt"):
            texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(texts)


def test_excluded_files_leave_no_trace(built: BuildResult) -> None:
    everything = _all_output(built.site)
    for name in ("Old idea", "Nowhere at all", "Daily", "Inbox that does not exist",
                 "Diary", "Secret target"):
        assert name not in everything, name
    assert not any(".trash" in line or "Templates/" in line or "Private/" in line
                   for line in built.all_lines)
    assert not (built.site / ".trash").exists()
    assert not (built.site / "Templates").exists()


def test_comments_reach_no_output(built: BuildResult) -> None:
    everything = _all_output(built.site)
    assert "SECRET-" not in everything
    assert "Release process" not in everything
    assert "comment-tag" not in everything
    assert not any("Nowhere from comment" in line for line in built.lines)
    # ... but %% inside code is code (Pygments puts its own spans around the %%)
    assert "%%not a comment%%" in re.sub(r"<[^>]+>", "", _article(built, "Basic formatting/"))


def test_home_page_is_never_a_404(built: BuildResult) -> None:
    home = built.page("")
    assert "Welcome to the vault" in home


def test_titles(built: BuildResult) -> None:
    graph = json.loads((built.site / "_beliefbase" / "graph.json").read_text())
    titles = {n["path"]: n["title"] for n in graph["nodes"] if n["kind"] == "Document"}
    assert titles["Late heading.md"] == "Late heading"
    assert titles["Advanced formatting.md"] == "Advanced formatting"
    assert titles["Basic formatting.md"] == "Basic formatting"


def test_math_is_mathml_and_dollars_stay_text(built: BuildResult) -> None:
    math = _article(built, "Math heavy/")
    assert math.count("<math") >= 8
    assert "costs $5 and $10" in math
    assert "$20" in math
    assert "<code>$x$</code>" in math
    advanced = _article(built, "Advanced formatting/")
    assert "a_1 * b_2 * c_3" not in advanced  # converted, and its stars kept out of Markdown
    assert "<em>" not in advanced.split("keeps its")[0].rsplit("Inline math", 1)[-1]


def test_inline_fields_render_as_in_reading_view(built: BuildResult) -> None:
    fields = _article(built, "Inline fields/")
    assert "Rating:: 4" in fields  # a line field as written
    assert 'inline-field-key" data-dv-key="mood" data-dv-norm-key="mood">mood</span>' in fields
    assert 'inline-field-standalone-value" data-dv-key="finished"' in fields
    assert "January 02, 2022" in fields and "6 hours, 4 minutes" in fields
    assert "<table>" in fields and 'data-dv-key="rank"' in fields
    for inert in ("code", "math", "fenced"):
        assert f'data-dv-key="{inert}"' not in fields
    graph = json.loads((built.site / "_beliefbase" / "graph.json").read_text())
    types = {e["type"] for e in graph["edges"] if e["file"] == "Inline fields.md"}
    assert {"owner", "reviewer", "bold_field"} <= types  # links in fields: typed links


def test_lists_start_right_after_a_line(built: BuildResult) -> None:
    lists = _article(built, "Lists after lines/")
    assert lists.count("<ul>") >= 2 and lists.count("<ol>") >= 2
    assert "<li>eggs</li>" in lists
    assert "-5 degrees" in lists


def test_block_ids_anchor_the_block_above(built: BuildResult) -> None:
    blocks = _article(built, "Block ids/")
    for block_id in ("para-one", "list-one", "table-one", "callout-one", "quote-one",
                     "image-one", "item-one"):
        assert f'id="^{block_id}"' in blocks, block_id
    assert "^list-one" not in re.sub(r'id="[^"]*"', "", blocks)
    assert not any("unresolved-anchor" in line for line in built.lines)


def test_excalidraw_is_an_image_not_a_page(built: BuildResult) -> None:
    assert not (built.site / "Architecture.excalidraw").exists()
    assert "Architecture.excalidraw.svg" in built.page("")
    assert "Text Elements" not in _all_output(built.site)


def test_no_warnings_on_a_clean_vault(built: BuildResult) -> None:
    warnings = [line for line in built.lines if line.startswith(("WARNING", "ERROR"))]
    # the one broken formula, written on purpose, says why at warning level
    broken = [line for line in warnings if "Math heavy.md:29:" in line]
    assert len(broken) == 1 and "math-error" in broken[0], warnings
    assert [line for line in warnings if line not in broken] == []


def test_code_is_highlighted_at_build_time(built: BuildResult) -> None:
    basic = _article(built, "Basic formatting/")
    block = basic[basic.index("greet") - 400: basic.index("greet") + 100]
    assert '<div class="highlight">' in block and '<span class="' in block  # Pygments' tokens


def test_fences_end_paragraphs_callouts_quotes_and_lists(built: BuildResult) -> None:
    page = _article(built, "Fences after lines/")
    assert "<p>Code:</p>" in page and "<p>Code:<div" not in page
    assert "<li>a list right under the closing fence</li>" in page
    assert "[!info]" not in page and "[!tip]" not in page  # the callouts after it render
    assert page.count('<div class="admonition') == 3
    callout = page[page.index('data-callout="note"'):page.index('data-callout="info"')]
    assert callout.count("</div>") == 2  # the code is after the callout, not inside it
    assert "<p>The paragraph after the code.</p>" in page


def test_lists_after_math_quotes_apart_and_callout_metadata(built: BuildResult) -> None:
    page = _article(built, "Quotes and lists/")
    assert "<li>one cell</li>" in page
    assert page.count("<blockquote>") == 2
    assert ('class="admonition warning clean no-icon" data-callout="warning" '
            'data-callout-metadata="clean no-icon"') in page
    assert 'data-callout="column" data-callout-metadata="flex"' in page
    assert "[!" not in page  # every callout marker, at every depth, is a callout
    assert 'data-callout="tip"' in page and 'data-callout="example"' in page


def test_math_is_never_markdown_and_converts(built: BuildResult) -> None:
    page = _article(built, "Math second round/")
    assert 'id="heading-after-the-backticks"' in page and 'id="last-heading"' in page
    assert "bb-math-error" not in page and "$" not in re.sub(r"<math.*?</math>", "", page)
    assert "<code>" not in page  # the backticks inside the formula are LaTeX
    assert page.count("<math") == 8
    assert "<mtext>if\xa0</mtext>" in page and "&lt;" in page  # < inside \text{}


def test_block_ids_under_blocks_with_line_breaks(built: BuildResult) -> None:
    page = _article(built, "Block ids under blocks/")
    for name in ("callout", "image", "para", "list", "quote", "table"):
        assert f'id="^{name}-two"' in page, name
        assert f"^{name}-two" not in re.sub(r'(?:id|href)="[^"]*"', "", page), name
    assert "<br />" not in page


def test_canvas_boards_as_obsidian_shows_them(built: BuildResult) -> None:
    board = _article(built, "Projects/Planning.canvas/")
    assert '<h1 class="bb-title">Planning</h1>' in board
    for label in ("This quarter", "Reference"):  # groups
        assert f'<h3 class="bb-canvas__group-label">{label}</h3>' in board
    for label in ("details", "limits", "read more", "the maths"):  # edge labels
        assert f">{label}</div>" in board
    assert board.count("<math") > 2 and 'data-callout="warning"' in board  # and Math heavy
    assert 'class="task-list-item"' in board and 'class="bb-tag"' in board
    assert "A quoted paragraph" in board and "## Links" not in board  # the section only
    assert 'src="../../images/diagram.png"' in board
    assert 'href="https://help.obsidian.md/Plugins/Canvas"' in board
    assert board.count("<polygon") == 5  # one edge with none, one with two arrowheads
    reading = _article(built, "Reading map.canvas/")
    assert '<h1 class="bb-title">Reading map</h1>' in reading  # a node's H1 is no title
    assert reading.count('class="bb-canvas bb-canvas--embedded"') == 1  # in a file node
    note = _article(built, "Canvas in a note/")
    assert 'class="bb-canvas bb-canvas--embedded"' in note
    assert not any("bad-canvas" in line for line in built.lines)

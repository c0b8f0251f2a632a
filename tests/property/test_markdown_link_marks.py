"""Property: each Markdown-syntax link on a page shows the compiled resolution of that
exact link, by its position.

On random notes mixing ``[t](note.md)``, ``![](note.md#s)``, ``[t](<a b.md>)``,
anchors, external links, reference-style links, wikilinks, code, tables, quotes
and raw HTML, every compiled Markdown link is given a resolution of its own (a
stand-in: note ``n<i>``, anchor ``a<i>``, as if found by name) and the page must
show link ``i``'s stand-in where link ``i`` is written, each exactly once and in
the note's order, and every other href as written.  Two links written alike
would take the same resolution if the page matched them up again by text.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import tempfile
from pathlib import Path

from beliefbase.codecs.grammar import LINK_MARK
from beliefbase.compile.compiled import Compiled
from beliefbase.ids import SrcPath
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ..conftest import BASE_CONFIG, Project
from ..page_render import render_note

PIECES = st.sampled_from([
    "[t](target.md)", "[t](target.md)", "[u](target.md#Section%20One)", "[w](<a b.md>)",
    "[x](#Section%20One)", "[y](target.md \"title\")", "[n [nested]](other.md)",
    "![](target.md)", "![](target.md#Section%20One)", "![alt](<a b.md>)",
    "[e](https://example.org/t.md)", "<https://example.org>", "[r][ref]", "\\[esc](target.md)",
    "`[c](target.md)`", "| [c](target.md) | [d](<a b.md>) |\n|---|---|\n| [t](target.md) | x |\n",
    "> [q](target.md) quoted\n", "- item [l](other.md)\n", "## H [h](target.md)\n",
    "```\n[f](target.md)\n```\n", "    [i](target.md) indented\n",
    "<div>\n[h](target.md)\n</div>\n", "[[target]]", "[[other|o]]", "$[m](x.md)$",
    " ", "\n", "\n\n", "text", "*em* ",
])
BODY = st.lists(PIECES, max_size=12).map("".join)
STAND_INS = 40
#: what a link that is no stand-in shows: as written (external, reference-style by
#: path, a wikilink's source path), or as resolved on its own (a link the codec does
#: not read, Python-Markdown does: ``[[x]][u](target.md#Section%20One)``)
AS_WRITTEN = {"https://example.org/t.md", "https://example.org", "target.md", "other.md",
              "target.md#section-one", "a%20b.md", "a b.md", "#Section%20One"}
# A link straight after a ``]`` (``[r][ref][x](y.md)``): the codec does not read it as
# Python-Markdown does.
_AFTER_BRACKET = re.compile(r"\]!?\[")
# A stand-in's evidence: a link's href (``n3.md#a3``, ``#a3``) or an embed's text.
_STAND_IN = re.compile(r'(?:href|src)="(?:n(\d+)\.md)?#a(\d+)"|Text of N(\d+)\.')
_HREF = re.compile(r'<(?:a|img)\b[^>]*?(?:href|src)="([^"]*)"')


def _stand_ins(compiled: Compiled) -> tuple[Compiled, int]:
    """Every Markdown link of a.md resolved to a note and anchor of its own."""
    path = SrcPath("a.md")
    links = list(compiled.links.get(path, ()))
    count = 0
    for index, resolution in enumerate(links):
        if resolution.link.form not in ("markdown", "image"):
            continue
        image = resolution.link.form == "image"
        links[index] = dataclasses.replace(
            resolution, target=SrcPath(f"n{count}.md"), status="ok", step=5, is_asset=False,
            anchor=None if image else f"a{count}", anchor_missing=False)
        count += 1
    return dataclasses.replace(compiled, links={**compiled.links, path: tuple(links)}), count


def _render(project: Project, compiled: Compiled) -> str:
    return render_note(project, compiled, "a.md", ["tables", "md_in_html"])


_ROOT = Path(tempfile.mkdtemp(prefix="bb-mdmarks-"))


def _vault() -> Project:
    """One vault for every example (only a.md changes)."""
    project = Project(_ROOT, dict(BASE_CONFIG))
    if not (project.docs / "target.md").exists():
        project.write("target.md", "# Target\n\n## Section One\n\nTarget's text.\n")
        project.write("other.md", "# Other\n\nOther's text.\n")
        project.write("a b.md", "# A B\n\nSpaced.\n")
        for i in range(STAND_INS):
            project.write(f"n{i}.md", f"# N{i}\n\nText of N{i}.\n")
    return project


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODY)
def test_each_markdown_link_shows_its_own_compiled_resolution(body: str) -> None:
    project = _vault()
    project.write("a.md", "# A\n\n" + body + "\n\n[ref]: target.md\n", dedent=False)
    compiled, count = _stand_ins(project.compile())
    assume(count <= STAND_INS)
    html = _render(project, compiled)
    shown = [int(next(g for g in m.groups() if g is not None))
             for m in _STAND_IN.finditer(html)]
    # each link i where link i is written: once, in the note's order
    assert shown == sorted(set(shown)), (body, shown)
    assert all(0 <= i < count for i in shown)
    if not any(c in body for c in "`<$") and "    " not in body and not _AFTER_BRACKET.search(
            body):
        # (around code, raw HTML and math the codec and Python-Markdown may see
        # different links: those the page shows as text have nothing to show)
        assert shown == list(range(count)), (body, shown)
        others = [h for h in _HREF.findall(html) if not re.fullmatch(r"(n\d+\.md)?#a\d+", h)]
        assert set(others) <= AS_WRITTEN | {f"../n{i}/" for i in range(STAND_INS)}, others
    assert not LINK_MARK.search(html)


def teardown_module() -> None:
    shutil.rmtree(_ROOT, ignore_errors=True)

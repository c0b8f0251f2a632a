"""Heading links resolve as Obsidian resolves them (issue 29): the heading as
written or as shown, with the punctuation Obsidian's link suggester leaves out
read as spaces. Each row is a heading and a link Obsidian follows to it."""

from __future__ import annotations

import pytest
from beliefbase.builder.resolve import obsidian_heading_key

RESOLVED = [
    ("$\\Theta$ notation", "$\\Theta$ notation"),  # math, as written
    ("The \\_\\_iter\\_\\_ method", "The \\_\\_iter\\_\\_ method"),  # escapes, as written
    ("The \\_\\_iter\\_\\_ method", "The __iter__ method"),  # as shown
    ("See [[Other]] too", "See Other too"),  # a wikilink: Obsidian drops [[ ]]
    ("See [[Other|the other]]", "See Other the other"),  # ... and | too
    ("See [[Other|the other]]", "See the other"),  # as shown
    ("A [link](https://x.org) here", "A link here"),
    ("**Bold** and *em*", "**Bold** and *em*"),
    ("**Bold** and *em*", "Bold and em"),
    ("🚀 Launch", "🚀 Launch"),  # emoji
    ("⚠️ Careful", "⚠️ Careful"),  # emoji with a variation selector
    ("Minecraft: The Video Game", "Minecraft The Video Game"),  # the suggester drops ':'
    ("wifi 2.4 vs 5.0", "wifi 2 4 vs 5 0"),
    ("TCP/IP Model", "TCP IP Model"),
    ("CI/CD && DevOps", "CI CD DevOps"),
    ("a | b", "a b"),
    ("C# tips", "C tips"),
    ("`code` span", "code span"),
    ("==high== light", "high light"),
    ("Café au lait", "café AU  lait"),  # case and whitespace
]

MISSING = [
    ("Results", "Result"),
    ("TCP/IP Model", "TCP Model"),
    ("$\\Theta$ notation", "Omega notation"),
]


def _link(project, heading: str, link: str):  # type: ignore[no-untyped-def]
    project.write("note.md", f"# Note\n\n## Intro\n\n## {heading}\n\ntext\n")
    project.write("other.md", "x\n")
    project.write("index.md", f"[[note#{link}]]\n")
    compiled = project.compile()
    return compiled, compiled.links["index.md"][0]


@pytest.mark.parametrize(("heading", "link"), RESOLVED)
def test_obsidian_resolves_it_and_so_do_we(project, heading: str, link: str) -> None:  # type: ignore[no-untyped-def]
    compiled, resolved = _link(project, heading, link)
    assert not resolved.anchor_missing, [str(d) for d in compiled.diagnostics]
    section = compiled.documents["note.md"].sections[2]
    assert resolved.anchor == section.anchor
    assert not [d for d in compiled.diagnostics if d.code == "unresolved-anchor"]


@pytest.mark.parametrize(("heading", "link"), MISSING)
def test_other_headings_stay_missing(project, heading: str, link: str) -> None:  # type: ignore[no-untyped-def]
    compiled, resolved = _link(project, heading, link)
    assert resolved.anchor_missing
    assert [d.code for d in compiled.diagnostics] == ["unresolved-anchor"]


def test_exact_match_wins_over_obsidian_key(project) -> None:  # type: ignore[no-untyped-def]
    project.write("note.md", "# Note\n\n## C tips\n\n## C# tips\n")
    project.write("index.md", "[[note#C# tips]] [[note#C tips]]\n")
    compiled = project.compile()
    # '#' splits heading paths: "C# tips" is "C" then " tips" (a path Obsidian reads too)
    anchors = [rl.anchor for rl in compiled.links["index.md"]]
    assert anchors[1] == compiled.documents["note.md"].sections[1].anchor


def test_key() -> None:
    assert obsidian_heading_key("Minecraft: The  Video Game!") == "minecraft the video game"
    assert obsidian_heading_key("__init__ - it's") == "__init__ - it's"


def test_build_reports_none_of_them(project) -> None:  # type: ignore[no-untyped-def]
    """Through the whole build (Python-Markdown reads the links too): no warning, and
    each link goes to its heading's anchor."""
    headings = list(dict.fromkeys(h for h, _ in RESOLVED if "#" not in h))
    project.write("note.md", "# Note\n\n" + "".join(f"## {h}\n\ntext\n\n" for h in headings))
    project.write("other.md", "x\n")
    links = [link for h, link in RESOLVED if "#" not in h]
    project.write("index.md", "".join(f"- [[note#{link}]]\n" for link in links))
    result = project.build(markdown_extensions=["toc", "attr_list", "tables"])
    assert result.error is None
    assert [line for line in result.lines if "anchor" in line] == []
    page = result.page("")
    assert page.count('href="note/#') == len(links)


@pytest.mark.parametrize(("written", "link"), [("^intro-1", "^Intro-1"), ("^Key", "^key"),
                                               ("^key", "^key ")])
def test_block_ids_as_obsidian_reads_them(project, written: str, link: str) -> None:  # type: ignore[no-untyped-def]
    project.write("note.md", f"# Note\n\nA paragraph. {written}\n")
    project.write("index.md", f"[[note#{link}]]\n")
    compiled = project.compile()
    resolved = compiled.links["index.md"][0]
    assert not resolved.anchor_missing
    assert resolved.anchor == written

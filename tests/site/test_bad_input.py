"""SPEC §12: bad input never crashes a build and never loses a note.

Each case: the build succeeds, a diagnostic says what is wrong at file:line,
the page (and the rest of the site) is still there.
"""

from __future__ import annotations

import os
import time

import pytest

from tests.conftest import diagnostic_lines


def ok(project, **kwargs):  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nThe rest of the site. [[other]]\n")
    project.write("other.md", "# Other\n")
    result = project.build(**kwargs)
    assert result.error is None, result.error
    assert "The rest of the site." in result.article("")
    return result


def test_malformed_yaml_frontmatter(project) -> None:  # type: ignore[no-untyped-def]
    project.write("bad.md", "---\ntitle: x: y\n---\nKept text.\n")
    result = ok(project)
    article = result.article("bad/")
    assert "Kept text." in article and "<code>" in article and "title" in article
    assert diagnostic_lines(result, "bad-frontmatter")[0].startswith(
        "WARNING docs/bad.md:2:")


def test_malformed_toml_frontmatter(project) -> None:  # type: ignore[no-untyped-def]
    project.write("bad.md", '+++\ntitle = "unterminated\n+++\nKept text.\n')
    result = ok(project)
    assert "Kept text." in result.article("bad/")
    assert diagnostic_lines(result, "bad-frontmatter")[0].startswith("WARNING docs/bad.md:2:")


def test_invalid_utf8(project) -> None:  # type: ignore[no-untyped-def]
    project.write("latin.md", "# Caf\xe9\n\nna\xefve text [[other]]\n".encode("latin-1"))
    result = ok(project)
    article = result.article("latin/")
    assert "Caf\ufffd" in article and "na\ufffdve text" in article
    assert 'href="../other/"' in article
    assert diagnostic_lines(result, "bad-encoding") == [
        "WARNING docs/latin.md:1:6: bad-encoding: the file is not valid UTF-8; invalid bytes "
        "are shown as \ufffd (re-save it as UTF-8)"]


def test_huge_file(project) -> None:  # type: ignore[no-untyped-def]
    paragraph = "Lorem ipsum dolor sit amet, [[other]] consectetur adipiscing elit. " * 10
    project.write("huge.md", "# Huge\n\n" + "\n\n".join([paragraph] * 1500))  # ~1 MB
    start = time.perf_counter()
    result = ok(project)
    assert time.perf_counter() - start < 120
    assert result.article("huge/").count('href="../other/"') == 15000


def test_deeply_nested_list_and_quote(project) -> None:  # type: ignore[no-untyped-def]
    deep = "".join("    " * i + f"- level {i}\n" for i in range(400))
    quotes = ">" * 300 + " deep quote\n"
    project.write("deep.md", f"# Deep\n\nBefore.\n\n{deep}\n{quotes}\nAfter.\n")
    start = time.perf_counter()
    result = ok(project)
    assert time.perf_counter() - start < 60
    article = result.article("deep/")
    assert "level 399" in article and "deep quote" in article and "After." in article
    lines = diagnostic_lines(result, "nesting-depth")
    assert [line.split(": ")[0] for line in lines] == ["WARNING docs/deep.md:106:1",
                                                       "WARNING docs/deep.md:406:1"]


def test_bracket_bombs(project) -> None:  # type: ignore[no-untyped-def]
    project.write("brackets.md", "[" * 1000 + "\n\n" + "[[a" * 1000 + "\n\n" + "]" * 1000 + "\n")
    start = time.perf_counter()
    result = ok(project)
    assert time.perf_counter() - start < 30
    article = result.article("brackets/")
    assert "[" * 1000 in article and "[[a" * 1000 in article


def test_embed_cycles_and_self_embed(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n\nA text.\n\n![[b]]\n")
    project.write("b.md", "# B\n\nB text.\n\n![[a]]\n")
    project.write("self.md", "# Self\n\nMe.\n\n![[self]]\n")
    result = ok(project)
    a = result.article("a/")
    assert a.count("B text.") == 1 and a.count("A text.") == 1  # a -> b, b's ![[a]] is a link
    assert "bb-embed-blocked" in a and "bb-embed-blocked" in result.article("self/")
    assert diagnostic_lines(result, "embed-cycle") == [
        "WARNING docs/a.md:5:1: embed-cycle: this embed includes itself (a.md -> b.md -> a.md); "
        "it is shown as a link instead. Remove one embed of the loop",
        "WARNING docs/b.md:5:1: embed-cycle: this embed includes itself (b.md -> a.md -> b.md); "
        "it is shown as a link instead. Remove one embed of the loop",
        "WARNING docs/self.md:5:1: embed-cycle: this embed includes itself (self.md -> "
        "self.md); it is shown as a link instead. Remove one embed of the loop",
    ]


def test_embed_depth(project) -> None:  # type: ignore[no-untyped-def]
    for i in range(5):
        project.write(f"n{i}.md", f"# N{i}\n\nText {i}.\n\n![[n{i + 1}]]\n")
    project.write("n5.md", "# N5\n\nText 5.\n")
    result = ok(project, plugins=["search", {"beliefbase": {"embed_depth": 2}}])
    n0 = result.article("n0/")
    assert "Text 2." in n0 and "Text 3." not in n0
    assert diagnostic_lines(result, "embed-depth")[0].startswith(
        "WARNING docs/n2.md:5:1: embed-depth: embeds nested more than 2 deep (n0.md -> n1.md "
        "-> n2.md -> n3.md)")


def test_self_link_is_a_link_not_a_backlink(project) -> None:  # type: ignore[no-untyped-def]
    project.write("me.md", "# Me\n\nSee [[me]].\n")
    result = ok(project)
    assert 'href="./">Me</a>' in result.article("me/")
    assert "No other page links here yet." in result.page("me/")


def test_dotdot_targets(project) -> None:  # type: ignore[no-untyped-def]
    project.write("sub/note.md", "[[../../../etc/passwd]] ![[../../secret.png]]\n")
    result = ok(project)
    assert "bb-unresolved" in result.article("sub/note/")
    assert [line.split(": ")[1] for line in diagnostic_lines(result, "path-escape")] == [
        "path-escape", "path-escape"]


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_symlink_out_of_docs_is_not_read(project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nSECRET-OUTSIDE\n")
    (project.docs / "link.md").symlink_to(outside)
    result = ok(project)
    for path in result.site.rglob("*.html"):
        assert "SECRET-OUTSIDE" not in path.read_text()
    assert diagnostic_lines(result, "path-escape") == [
        "WARNING docs/link.md:1:1: path-escape: this file is a symlink to a place outside the "
        "docs folder; it is not read or published (copy the file in, or link to it instead)"]


def test_duplicate_ids(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\nid: same\n---\ntext ^blk\n\nmore ^blk\n")
    project.write("b.md", "---\ntitle: B\nid: same\n---\n")
    project.write("c.md", "[[same]]\n")  # a link by that id: the duplicate matters
    result = ok(project)
    assert diagnostic_lines(result, "duplicate-id") == [
        "WARNING docs/a.md:6:6: duplicate-id: block id ^blk is already used on line 4; "
        "[[a#^blk]] goes to the first. Rename this one",
        "WARNING docs/b.md:3:1: duplicate-id: id 'same' is also used by docs/a.md; links by id "
        "go to docs/a.md. Give this note another id",
    ]


def test_duplicate_id_no_link_uses_is_info(project) -> None:  # type: ignore[no-untyped-def]
    """Obsidian gives ``id:`` no meaning (Zettelkasten plugins reuse it): a vault that
    never links by id is told once, as info, and ``--strict`` still passes."""
    project.write("a.md", "---\nid: 202401\n---\n[[b]]\n")
    project.write("b.md", "---\ntitle: B\nid: 202401\n---\n")
    result = project.build(strict=True)
    assert result.error is None
    assert diagnostic_lines(result, "duplicate-id") == [
        "INFO docs/b.md:3:1: duplicate-id: id '202401' is also used by docs/a.md; no link "
        "uses it, so nothing goes wrong. If you mean to link by id ([[202401]]), give this "
        "note another id",
    ]

"""A page transcludes at most MAX_EMBEDS notes (nested embeds count): an embed bomb
(ten embeds of notes that embed ten more, five deep) is cut off, reported once, and
the rest are links."""

from __future__ import annotations

from beliefbase.builder.embeds import MAX_EMBEDS


def _bomb(project, fan: int, depth: int) -> None:  # type: ignore[no-untyped-def]
    for level in range(depth):
        for i in range(fan):
            below = "".join(f"![[n{level + 1}-{j}]]\n\n" for j in range(fan)) \
                if level + 1 < depth else "leaf text\n"
            project.write(f"n{level}-{i}.md", f"# N{level}-{i}\n\n{below}")
    project.write("index.md", "".join(f"![[n0-{i}]]\n\n" for i in range(fan)))


def test_an_embed_bomb_is_cut_off(project) -> None:  # type: ignore[no-untyped-def]
    _bomb(project, fan=10, depth=4)  # 11,110 transclusions uncut
    result = project.build()
    assert result.error is None
    home = result.page("")
    assert home.count('class="bb-embed"') == MAX_EMBEDS
    assert "bb-embed-blocked" in home
    lines = [line for line in result.lines if ": embed-too-large:" in line]
    # once per page over the limit (the home page and each n0-*: 1,110 each), at the
    # page's own embed within which the limit was reached
    assert sorted(line.split(":")[0] for line in lines) == sorted(
        ["WARNING docs/index.md"] + [f"WARNING docs/n0-{i}.md" for i in range(10)])
    assert "WARNING docs/index.md:1:1: embed-too-large" in lines[0] or any(
        line.startswith("WARNING docs/index.md:1:1:") for line in lines)
    assert len(home) < 2_000_000


def test_a_page_within_the_limits_embeds_everything(project) -> None:  # type: ignore[no-untyped-def]
    _bomb(project, fan=3, depth=3)  # 39 transclusions
    result = project.build()
    assert result.page("").count('class="bb-embed"') == 39
    assert not any("embed-too-large" in line for line in result.lines)

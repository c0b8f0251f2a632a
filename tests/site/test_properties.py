"""The Properties block under a note's title (issue 28, item 5; site/properties.py)."""

from __future__ import annotations

import re

from tests.conftest import Project

FILM = """\
    ---
    title: Inception
    director: "[[Christopher Nolan]]"
    cast:
      - "[[Leonardo DiCaprio]]"
      - Ellen Page
      - "[[Nobody Here]]"
    rating: 8.8
    released: 2010-07-16
    watched: true
    tags: [film]
    aliases: [Origin]
    bid: 0d7f3c8e-4b8a-4a3e-9a53-0d6a3f1e2b11
    cssclasses: [wide]
    website: https://example.org/?a=<b>
    note: "<script>alert(1)</script>"
    trap: "javascript:alert(1)"
    ---
    """


def _film(project: Project) -> None:
    project.write("films/Inception.md", FILM)
    project.write("Christopher Nolan.md", "# Christopher Nolan\n\nDirector.\n")
    project.write("Leonardo DiCaprio.md", "# Leonardo DiCaprio\n\nActor.\n")
    project.write("index.md", "# Home\n")


def _block(html: str) -> str:
    m = re.search(r'<details class="bb-properties".*?</details>', html, re.DOTALL)
    assert m is not None, "no Properties block"
    return m.group(0)


def _keys(block: str) -> list[str]:
    return re.findall(r'<dt class="bb-properties__key">.*?<span>(.*?)</span></dt>', block,
                      re.DOTALL)


def test_properties_in_order_with_types_and_resolved_links(project: Project) -> None:
    _film(project)
    result = project.build()
    assert result.error is None, result.lines
    block = _block(result.page("films/Inception/"))
    # in the order written; the site's own fields (title, tags, aliases, bid,
    # cssclasses) are left out
    assert _keys(block) == ["director", "cast", "rating", "released", "watched", "website",
                            "note", "trap"]
    assert '<a class="bb-properties__link bb-link" href="../../Christopher%20Nolan/">' \
           'Christopher Nolan</a>' in block
    assert 'href="../../Leonardo%20DiCaprio/">Leonardo DiCaprio</a>' in block
    assert 'bb-unresolved' in block and ">Nobody Here<" in block
    assert '<time datetime="2010-07-16">2010-07-16</time>' in block
    assert 'data-property-type="number"' in block and ">8.8<" in block
    assert "bb-properties__checkbox--checked" in block
    assert 'data-property-type="list"' in block and ">Ellen Page<" in block


def test_every_value_is_escaped(project: Project) -> None:
    _film(project)
    block = _block(project.build().page("films/Inception/"))
    assert "<script>" not in block
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in block
    assert 'href="https://example.org/?a=&lt;b&gt;"' in block
    assert 'href="javascript' not in block  # only http(s) and mailto values are links


def test_block_sits_under_the_title_rows(project: Project) -> None:
    _film(project)
    page = project.build().page("films/Inception/")
    article = page[page.index("<article"):]
    assert article.index("<h1") < article.index('class="bb-tags"') < article.index(
        'class="bb-properties"')


def test_note_and_site_can_turn_it_off(project: Project) -> None:
    _film(project)
    project.write("Quiet.md", "---\nproperties: false\nrating: 3\n---\n# Quiet\n\nText.\n")
    result = project.build()
    assert "bb-properties" not in result.page("Quiet/")
    assert "bb-properties" in result.page("films/Inception/")
    off = project.build(plugins=["search", {"beliefbase": {"properties": False}}])
    assert "bb-properties" not in off.page("films/Inception/")


def test_no_block_without_shown_fields(project: Project) -> None:
    project.write("Plain.md", "---\ntitle: Plain\ntags: [a]\n---\nText.\n")
    project.write("Bare.md", "Just text.\n")
    result = project.build()
    assert "bb-properties" not in result.page("Plain/")
    assert "bb-properties" not in result.page("Bare/")


def test_frontmatter_link_is_in_the_backlinks(project: Project) -> None:
    _film(project)
    page = project.build().page("Christopher Nolan/")
    assert "Linked from" in page and "Inception" in page


def test_dates_the_dates_line_shows_are_not_shown_twice(project: Project) -> None:
    project.write("Day.md", "---\ncreated: 2024-01-05\nupdated: 2024-02-01\n"
                  "released: 2010-07-16\n---\n# Day\n\nText.\n")
    page = project.build().page("Day/")
    assert "Created <time" in page
    assert _keys(_block(page)) == ["released"]
    off = project.build(plugins=["search", {"beliefbase": {"dates": False}}]).page("Day/")
    assert _keys(_block(off)) == ["created", "updated", "released"]


def test_odd_keys_and_values(project: Project) -> None:
    project.write("Odd.md", "---\n2024: a year\nnested: {a: [1, 2]}\nempty list: []\n"
                  "'<b>key</b>': v\nmany: [" + ", ".join(str(i) for i in range(250)) + "]\n"
                  "---\n# Odd\n")
    block = _block(project.build().page("Odd/"))
    assert _keys(block) == ["2024", "nested", "empty list", "&lt;b&gt;key&lt;/b&gt;", "many"]
    assert "+50 more" in block and block.count("bb-properties__pill") > 200
    assert '{&#34;a&#34;: [1, 2]}' in block

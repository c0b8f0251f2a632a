"""The Markdown codec: every link form, with file line and column."""

from __future__ import annotations

from beliefbase.codecs.markdown import parse_markdown, split_wikilink
from beliefbase.codecs.model import LinkRef


def parse(text: str, path: str = "note.md"):  # type: ignore[no-untyped-def]
    return parse_markdown(path, text.encode(), f"docs/{path}")  # type: ignore[arg-type]


def links(text: str) -> list[tuple[str, str, str, str | None, int, int, str]]:
    return [(l.form, l.target, l.fragment, l.display, l.line, l.column, l.relation)
            for l in parse(text).links]


def test_every_link_form_with_positions() -> None:
    text = (
        "---\n"
        "depends_on: [[Auth]]\n"
        'related: ["[[A]]", "[[B#H]]"]\n'
        "---\n"
        "[[T]] [[T|shown]] [[T#H1#H2]] [[#Local]] [[T#^blk]]\n"
        "![[T]] ![[img.png|300]] ![[doc.pdf]]\n"
        "[text](other.md) [t](../x/other.md#anchor) ![alt](pic.png)\n"
        "<https://example.com> [ext](https://example.org/p)\n"
        "owner:: [[Alice]]\n"
    )
    assert links(text) == [
        ("wikilink", "T", "", None, 5, 1, "links_to"),
        ("wikilink", "T", "", "shown", 5, 7, "links_to"),
        ("wikilink", "T", "H1#H2", None, 5, 19, "links_to"),
        ("wikilink", "", "Local", None, 5, 31, "links_to"),
        ("wikilink", "T", "^blk", None, 5, 42, "links_to"),
        ("embed", "T", "", None, 6, 1, "embeds"),
        ("embed", "img.png", "", None, 6, 8, "embeds"),
        ("embed", "doc.pdf", "", None, 6, 25, "embeds"),
        ("markdown", "other.md", "", "text", 7, 1, "links_to"),
        ("markdown", "../x/other.md", "anchor", "t", 7, 18, "links_to"),
        ("image", "pic.png", "", "alt", 7, 44, "embeds"),
        ("autolink", "https://example.com", "", None, 8, 1, "links_to"),
        ("autolink", "https://example.org/p", "", "ext", 8, 23, "links_to"),
        ("field", "Alice", "", None, 9, 9, "owner"),
        ("meta", "Auth", "", None, 2, 1, "depends_on"),
        ("meta", "A", "", None, 3, 1, "related"),
        ("meta", "B", "H", None, 3, 1, "related"),
    ]
    embed = parse(text).links[6]
    assert embed.size == "300"


def test_links_in_code_never_count() -> None:
    text = "`[[a]]`\n\n```\n[[b]]\n```\n\n    [[c]]\n\n<!-- [[d]] -->\n[[e]]\n"
    assert [l[1] for l in links(text)] == ["e"]


def test_escaped_wikilink_is_literal() -> None:
    assert links(r"\[[a]] and [[b]]") == [("wikilink", "b", "", None, 1, 12, "links_to")]


def test_wikilinks_inside_tables() -> None:
    text = "| a | b |\n|---|---|\n| [[X\\|x]] | [[Y|y]] |\n"
    assert [(l[1], l[3]) for l in links(text)] == [("X", "x"), ("Y", "y")]


def test_split_wikilink() -> None:
    assert split_wikilink("A#B|C") == ("A", "B", "C")
    assert split_wikilink(r"A\|C") == ("A", "", "C")
    assert split_wikilink(" A ") == ("A", "", None)
    assert split_wikilink("A|") == ("A", "", None)


def test_markdown_link_href_forms() -> None:
    got = links("[a](<with space.md>) [b](x.md?q=1#f) [c](my%20note.md) [d](mailto:x@y)")
    assert [(l[1], l[2]) for l in got] == [("with space.md", ""), ("x.md", "f"),
                                           ("my note.md", "")]


def test_headings_atx_setext_attr_list() -> None:
    doc = parse("# One\n\nSetext\n======\n\n## Two {#custom .cls}\n\n### Three ###\n#tag\n")
    assert [(h.level, h.text, h.explicit_id, h.line) for h in doc.headings] == [
        (1, "One", None, 1), (1, "Setext", None, 3), (2, "Two", "custom", 6),
        (3, "Three", None, 8),
    ]
    assert [t.name for t in doc.tags] == ["tag"]


def test_heading_in_code_is_not_a_heading() -> None:
    assert parse("```\n# not\n```\n").headings == ()


def test_block_ids() -> None:
    doc = parse("para line one\nline two ^p1\n\n- item ^li\n- other\n\n| t |\n|---|\n\n^tbl\n")
    got = [(b.id, b.line, b.start, b.end) for b in doc.blocks]
    assert got == [("p1", 2, 1, 2), ("li", 4, 4, 4), ("tbl", 10, 7, 8)]


def test_tags_rules() -> None:
    doc = parse("#a text #b/c not#d #123 #e-f `#g` [x](#h) #Smaug:CREATURE\n")
    assert [t.name for t in doc.tags] == ["a", "b/c", "e-f"]


def test_attr_list_ids_are_not_tags() -> None:
    # `{ #id }` ending a line is attr_list's id (MkDocs); it would give every such
    # id a tag page
    doc = parse("## Head { #custom-id }\n\ntext #tag {: #other .cls }\n\n{ #kept } mid #end\n")
    assert [t.name for t in doc.tags] == ["tag", "kept", "end"]


def test_footnotes() -> None:
    doc = parse("Claim[^1] and[^n].\n\n[^1]: Source.\n[^n]: Other.\n")
    assert [f.id for f in doc.footnote_refs] == ["1", "n"]
    assert [(f.id, f.line) for f in doc.footnote_defs] == [("1", 3), ("n", 4)]


def test_context_is_the_sentence() -> None:
    doc = parse("First sentence. Second has [[X]] in it. Third.\n")
    assert doc.links[0].context == "Second has [[X]] in it."


def test_context_of_list_item_is_the_item() -> None:
    doc = parse("- one [[A]]\n- two [[B]]\n")
    assert [l.context for l in doc.links] == ["- one [[A]]", "- two [[B]]"]


def test_invalid_utf8_is_a_diagnostic_and_keeps_text() -> None:
    doc = parse_markdown("bad.md", b"ok [[A]]\n\xff\xfe bad\n", "docs/bad.md")  # type: ignore[arg-type]
    assert [d.code for d in doc.diagnostics] == ["bad-encoding"]
    assert (doc.diagnostics[0].line, doc.diagnostics[0].column) == (2, 1)
    assert [l.target for l in doc.links] == ["A"]


def test_crlf_and_bom() -> None:
    doc = parse_markdown("w.md", "\ufeff---\r\ntitle: W\r\n---\r\n# H\r\n[[A]]\r\n".encode(),  # type: ignore[arg-type]
                         "docs/w.md")
    assert doc.meta == {"title": "W"}
    assert [(l.target, l.line) for l in doc.links] == [("A", 5)]


def test_linkref_is_embed() -> None:
    assert LinkRef("image", "a", "", None, 1, 1, "embeds").is_embed


def test_inline_field_links_follow_dataview_rules() -> None:
    """A wikilink in an inline field is a typed link, by Dataview's rules: a
    ``Key:: value`` line, ``[key:: value]`` or ``(key:: value)`` anywhere in
    text (also on list items); a bare ``- key:: value`` list line is prose."""
    text = (
        "Depends On:: [[A]], [[B]]\n"
        "Met [owner:: [[C]]] and (reviewer:: [[D]]) after [[E]].\n"
        "- [blocks:: [[F]]]\n"
        "- plain:: [[G]]\n"
        "[Hello!:: [[H]]]\n"
        "`code:: [[I]]`\n"
    )
    assert [(l.form, l.target, l.relation, l.line, l.column) for l in parse(text).links] == [
        ("field", "A", "depends_on", 1, 14),
        ("field", "B", "depends_on", 1, 21),
        ("field", "C", "owner", 2, 14),
        ("field", "D", "reviewer", 2, 37),
        ("wikilink", "E", "links_to", 2, 50),
        ("field", "F", "blocks", 3, 13),
        ("wikilink", "G", "links_to", 4, 11),
        ("wikilink", "H", "links_to", 5, 11),
    ]


def test_every_inline_field_is_recorded_typed() -> None:
    doc = parse("---\nx: 1\n---\nRating:: 4\n- [done:: true] and (size:: 1.5)\n"
                "```\nhidden:: 1\n```\n$a:: b$\n")
    assert [(f.key, f.sanitized, f.value, f.style, f.line, f.column)
            for f in doc.inline_fields] == [
        ("Rating", "rating", 4, "line", 4, 1),
        ("done", "done", True, "bracket", 5, 3),
        ("size", "size", 1.5, "paren", 5, 21),
    ]

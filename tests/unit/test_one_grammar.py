"""What changed when every Markdown block rule got one home (issue 30).

The readers that kept their own copy of a rule disagreed with the page or with
the inline-field reader at the edges; each test names one such edge (each fails
on the copies the issue removed).
"""

from __future__ import annotations

from beliefbase.codecs import grammar
from beliefbase.codecs.inline_fields import extract_inline_fields, line_field
from beliefbase.codecs.snippet import first_paragraph, render_text
from beliefbase.dataview.items import extract_items
from beliefbase.site.reader.mentions import prose


def test_a_snippet_reads_a_line_field_key_as_the_field_reader_does() -> None:
    """``**Bold Field**:: x`` is a line field (the compile records its key "Bold Field");
    the snippet's own key rule wanted a letter first and left the ``::``."""
    assert [f.key for f in extract_inline_fields("**Bold Field**:: some *emphasis*")] \
        == ["Bold Field"]
    assert render_text("**Bold Field**:: some *emphasis*") == "Bold Field: some emphasis"
    # a key the reader does not take stays as written; a code span holds no key
    assert render_text("Hello!:: world") == "Hello!:: world"
    assert "key::" in render_text("`key:: [[x]]` and more")


def test_a_block_that_starts_with_a_line_field_is_no_prose() -> None:
    """The first paragraph skips a ``Due date:: x`` line as it skipped ``due:: x``."""
    assert first_paragraph("due:: tomorrow\n\nProse here.") == "Prose here."
    assert first_paragraph("Due date:: tomorrow\n\nProse here.") == "Prose here."


def test_a_snippet_drops_every_task_box_the_page_draws() -> None:
    """The page draws ``[c]`` (any status but a blank, a bracket or a backslash) as a
    checkbox (``TaskStatuses``); the snippet dropped only ``[ xX/-<>!?*]``."""
    assert render_text("- [c] a con") == "a con"
    assert render_text("- [x] done") == "done"
    assert render_text("- [/] half") == "half"
    assert render_text("- [[Note]] link") == "Note link"


def test_dataview_sections_keep_a_heading_that_ends_in_a_hash() -> None:
    """``# About C#``: a closing sequence needs a blank before it (CommonMark)."""
    items = extract_items("# About C#\n\n- item\n\n## Done ##\n\n- other\n")
    assert [(i.section, i.text) for i in items] == [("About C#", "item"), ("Done", "other")]


def test_dataview_items_number_as_commonmark_does() -> None:
    """An ordered item's number has 1 to 9 digits: ``1234567890.`` is text."""
    items = extract_items("- item\n1234567890. not an item\n")
    assert [i.text for i in items] == ["item"]
    assert grammar.LIST_ITEM.match("123456789. x")
    assert not grammar.LIST_ITEM.match("1234567890. x")


def test_a_line_field_key_is_no_prose_for_unlinked_mentions() -> None:
    """``Project Alpha:: done``: the key is no mention of a note "Project Alpha" (a key
    with a blank was prose to the mentions' own rule); the value still is prose."""
    text = prose("Project Alpha:: done\nProject Alpha is here")
    assert "Project Alpha::" not in text
    assert text.endswith(" done\nProject Alpha is here")
    assert prose("`key:: x` Alpha") .endswith("Alpha")


def test_line_field_is_the_one_key_rule() -> None:
    assert line_field("Due date:: 2024") == ("Due date", 10)
    assert line_field("> **Bold**:: x") == ("Bold", 12)
    assert line_field("- key:: x") is None  # a list item's fields need brackets
    assert line_field("Some text [k:: v]") is None


def test_the_grammar_pieces_compose_the_block_rules() -> None:
    m = grammar.TASK_ITEM.match("  3) [>] moved")
    assert m is not None and m.group("marker") == "3)" and m.group("status") == ">"
    assert grammar.TASK_ITEM.match("- [\\] x").group("status") is None  # type: ignore[union-attr]
    assert grammar.QUOTE_MARKS.match("> > x").group() == "> > "  # type: ignore[union-attr]
    assert grammar.CLOSING_HASHES.sub("", "Title ##") == "Title"
    assert grammar.CLOSING_HASHES.sub("", "C#") == "C#"
    assert grammar.LIST_ITEM_BLANK.match("-") is None and grammar.LIST_ITEM.match("-")

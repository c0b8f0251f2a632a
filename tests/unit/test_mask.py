"""Code regions are masked so links inside code never count."""

from __future__ import annotations

from beliefbase.codecs.mask import code_regions, mask


def masked_words(text: str) -> str:
    return " ".join(mask(text).split())


def test_mask_keeps_length_and_newlines() -> None:
    text = "a `code` b\n```\nx\ny\n```\nc\n"
    out = mask(text)
    assert len(out) == len(text)
    assert out.count("\n") == text.count("\n")


def test_code_span() -> None:
    assert masked_words("see `[[x]]` and [[y]]") == "see and [[y]]"


def test_double_backtick_span_with_single_inside() -> None:
    assert masked_words("a ``x ` [[y]]`` [[z]]") == "a [[z]]"


def test_unmatched_backtick_is_text() -> None:
    assert masked_words("a ` [[y]]") == "a ` [[y]]"


def test_code_span_does_not_cross_blank_line() -> None:
    assert masked_words("a `x\n\n[[y]]` z") == "a `x [[y]]` z"


def test_escaped_backtick_opens_nothing() -> None:
    assert masked_words(r"a \`[[y]]\` b") == r"a \` [[y]]\` b".replace(" [[", "[[")


def test_fenced_backticks_and_tildes() -> None:
    text = "```python\n[[a]]\n```\n~~~\n[[b]]\n~~~\n[[c]]\n"
    assert masked_words(text) == "[[c]]"


def test_longer_closing_fence_and_unclosed_fence() -> None:
    assert masked_words("````\n```\n[[a]]\n````\n[[b]]\n") == "[[b]]"
    assert masked_words("[[a]]\n```\n[[b]]\n") == "[[a]]"


def test_fence_in_list_and_quote() -> None:
    out = masked_words("- item\n  ```\n  [[a]]\n  ```\n> ```\n> [[b]]\n> ```\n")
    assert "[[" not in out and out.startswith("- item")


def test_indented_code_block() -> None:
    assert masked_words("para\n\n    [[a]]\n\n[[b]]\n") == "para [[b]]"


def test_indented_continuation_of_list_or_admonition_is_not_code() -> None:
    assert "[[a]]" in masked_words("- item\n\n    [[a]]\n")
    assert "[[b]]" in masked_words('!!! note "Title"\n\n    [[b]]\n')
    assert "[[c]]" in masked_words("[^1]: note\n\n    [[c]]\n")


def test_html_comment() -> None:
    assert masked_words("a <!-- [[x]] --> [[y]]") == "a [[y]]"


def test_regions_sorted_and_disjoint() -> None:
    regions = code_regions("`a` ```\nb\n``` `c`\n\n    d\n")
    assert regions == sorted(regions)
    assert all(a[1] <= b[0] for a, b in zip(regions, regions[1:], strict=False))


def test_fenced_block_region_ends_with_its_closing_fence() -> None:
    # from the opening fence line to the end of the closing one, newline excluded
    assert code_regions("a\n```py\nx\n```\nb\n  ~~~\ny") == [(2, 13), (16, 23)]

"""Property tests: the link scanner and the frontmatter splitter never crash and never lose text."""

from __future__ import annotations

import re

from beliefbase.codecs import frontmatter as fm
from beliefbase.codecs.markdown import _LINK, _next_link, decode, parse_markdown
from beliefbase.codecs.mask import _FENCE, _backtick_runs, code_regions, mask
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

# Text made of the characters that matter to the scanner, plus some of everything.
MARKDOWN_ALPHABET = st.sampled_from(
    list("[]()!#|\\`~^:-*_>\n \t{}<>=+.\"'/") + ["[[", "]]", "![[", "```", "~~~", "    ",
                                                  "\n\n", "---\n", "+++\n", "::", "a", "B",
                                                  "é", "中", "\u2028", "\r\n"]
)
markdown_text = st.lists(MARKDOWN_ALPHABET, max_size=300).map("".join)
settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


@given(markdown_text)
@example("[" * 1000)
@example("[[a" * 1000)
@example("`" * 50 + "x" + "`" * 49)
def test_scanner_never_crashes_and_positions_are_real(text: str) -> None:
    doc = parse_markdown("n.md", text.encode(), "docs/n.md")  # type: ignore[arg-type]
    decoded, _ = decode(text.encode())
    lines = decoded.split("\n")
    for link in doc.links:
        if link.form == "meta":
            continue
        assert 1 <= link.line <= len(lines)
        line = lines[link.line - 1]
        assert 1 <= link.column <= len(line)
        assert line[link.column - 1] in "![<"  # every link starts where it was written
    for heading in doc.headings:
        assert 1 <= heading.line <= len(lines)


@given(markdown_text)
def test_wikilink_targets_appear_in_text(text: str) -> None:
    doc = parse_markdown("n.md", text.encode(), "docs/n.md")  # type: ignore[arg-type]
    decoded, _ = decode(text.encode())
    for link in doc.links:
        if link.form in ("wikilink", "embed", "field"):
            assert link.target.replace("\\", "") in decoded.replace("\\", "")


@given(markdown_text)
def test_mask_preserves_length_lines_and_outside_text(text: str) -> None:
    regions = code_regions(text)
    out = mask(text, regions)
    assert len(out) == len(text)
    assert [i for i, c in enumerate(out) if c == "\n"] == [i for i, c in enumerate(text)
                                                           if c == "\n"]
    pos = 0
    for start, end in regions:
        assert out[pos:start] == text[pos:start]  # nothing outside code is touched
        assert start >= pos and end >= start
        pos = max(pos, end)
    assert out[pos:] == text[pos:]


link_text = st.lists(
    st.one_of(MARKDOWN_ALPHABET, st.sampled_from(["<http://a.b>", "<https://x", "<htt", "!["])),
    max_size=200,
).map("".join)


@given(link_text)
@example("![[a]] ![b](c) <http://x> !x [y] \\![[z]]")
def test_next_link_finds_what_a_regex_search_finds(text: str) -> None:
    for at in range(len(text) + 1):
        found, searched = _next_link(text, at), _LINK.search(text, at)
        assert (found and found.span()) == (searched and searched.span())


@given(markdown_text)
@example("\\` \\`` a\\\\``` `` `")
def test_backtick_runs_are_the_unescaped_runs(text: str) -> None:
    unescaped = re.compile(r"(?<!\\)`+")  # what the runs were found with before
    assert _backtick_runs(text) == [m.span() for m in unescaped.finditer(text)]


@given(markdown_text)
@example("```\n> ~~~~ x\n  ```` \n\n```")
def test_fence_scan_finds_the_fence_lines(text: str) -> None:
    by_line = re.compile(r"^(?P<indent>[ \t>]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$", re.M)
    expected = [(m.span(), m.groups()) for m in by_line.finditer(text)]
    found = [((m.start(), m.end() - 1), m.groups()) for m in _FENCE.finditer("\n" + text)]
    assert found == expected


@given(markdown_text)
def test_mask_blanks_everything_but_newlines_inside_regions(text: str) -> None:
    out = mask(text)
    assert all(o == c or (o == " " and c != "\n") for o, c in zip(out, text, strict=True))


@given(markdown_text)
def test_links_in_fenced_code_never_count(text: str) -> None:
    wrapped = "```\n" + text.replace("```", "") .replace("~~~", "") + "\n```\n"
    doc = parse_markdown("n.md", wrapped.encode(), "docs/n.md")  # type: ignore[arg-type]
    assert [l for l in doc.links if l.form != "meta"] == []


# Printable text: PyYAML's own emitter cannot round-trip some control characters (U+0085).
printable = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
yaml_value = st.one_of(printable, st.integers(), st.booleans(),
                       st.lists(printable, max_size=4))


@given(st.dictionaries(st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True), yaml_value,
                       max_size=6),
       markdown_text)
def test_frontmatter_roundtrip_never_loses_body(data: dict[str, object], body: str) -> None:
    import yaml

    block = yaml.safe_dump(data, allow_unicode=True, sort_keys=False) if data else ""
    text = f"---\n{block}---\n{body}"
    front = fm.split(text)
    assert front.error is None
    assert front.data == data
    assert text[front.body_offset:] == body


@given(markdown_text)
def test_splitter_never_crashes_and_never_drops_text(text: str) -> None:
    front = fm.split(text)
    if front.error is not None or front.format is None:
        assert front.body_offset == 0  # the renderer shows everything
    else:
        assert text.endswith(text[front.body_offset:])
        assert front.body_offset <= len(text)
        assert re.match(r"(---|\+\+\+)", text)

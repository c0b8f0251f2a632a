"""Property tests for Dataview's inline fields: one reader for the codec, the
Dataview engine and the page.  On random notes the reader never raises and never
reports a field inside code or math; the compile's fields (``ParsedDoc``) are the
engine's (``record_from_markdown``); and the page's pattern proposes every
bracketed field the reader finds (so none is shown as raw ``[key::`` text)."""

from __future__ import annotations

import re

from beliefbase.codecs import frontmatter as fm
from beliefbase.codecs.inline_fields import extract_inline_fields
from beliefbase.codecs.markdown import note_text, parse_markdown
from beliefbase.codecs.mask import code_regions
from beliefbase.dataview.records import record_from_markdown
from beliefbase.site.markdown.inline_fields import _CANDIDATE
from hypothesis import example, given, settings
from hypothesis import strategies as st

PIECES = st.sampled_from(
    ["[", "]", "(", ")", "[[", "]]", "::", ":: ", "key", "Big Key", "**b**", "a", "1",
     "2022-01-02", "3 days", "true", '"q"', ", ", "`", "```\n", "$", "$$", "%%", "<!--",
     "-->", "\\", "- ", "> ", "# ", "| ", "\n", "\n\n", "    ", "\t", " ", "!", "#tag",
     "---\nx: 1\n---\n", "é"])
notes = st.lists(PIECES, max_size=60).map("".join)
_CANDIDATE_RE = re.compile(_CANDIDATE)


@settings(max_examples=400, deadline=None)
@given(notes)
@example("[a:: `b]` c]")
@example("$[m:: 1]$ [k:: $x$]")
@example("[[a|[k:: no]]] (b:: [[c]])")
def test_reader_never_raises_nor_reads_code_or_math(body: str) -> None:
    regions = code_regions(body)  # code, HTML comments and math
    for f in extract_inline_fields(body):
        assert not any(start <= f.start < end for start, end in regions), (f, regions)
        assert "::" in body[f.start:f.end]


@settings(max_examples=300, deadline=None)
@given(notes)
@example("---\nx: 1\n---\nRating:: 4\n[a:: b] `(c:: d)`")
def test_codec_and_engine_agree(text: str) -> None:
    doc = parse_markdown("n.md", text.encode(), "docs/n.md")  # type: ignore[arg-type]
    decoded, _ = note_text(text.encode())
    front = fm.split(decoded)
    body = decoded[front.body_offset:]
    record = record_from_markdown("n.md", body, first_line=front.body_line)
    assert doc.inline_fields == record.inline_fields


@settings(max_examples=300, deadline=None)
@given(notes)
def test_page_pattern_proposes_every_bracketed_field(body: str) -> None:
    for f in extract_inline_fields(body):
        if f.style != "line":
            assert _CANDIDATE_RE.match(body, f.start), (f, body)


#: The page's candidate rule as it reads: an opener not after "[" and not followed by
#: "[", then key characters up to "::" (the page's own is written for speed).
_PLAIN_CANDIDATE = re.compile(r"(?<!\[)[\[(](?!\[)[^\[\]()\n:`]+?::")


@settings(max_examples=400, deadline=None)
@given(notes, st.integers(min_value=0, max_value=80))
def test_the_fast_candidate_rule_finds_what_the_plain_one_finds(note: str, start: int) -> None:
    start = min(start, len(note))
    assert [m.span() for m in _CANDIDATE_RE.finditer(note, start)] == \
        [m.span() for m in _PLAIN_CANDIDATE.finditer(note, start)]

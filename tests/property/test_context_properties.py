"""Property tests: link contexts from the per-body index equal the old per-link scan.

``_Sentences`` finds line units and sentence ends once per body and bisects;
``reference_context`` is the function it replaced, which scanned the paragraph
around every link.  Both must give the same snippet for any span of any text,
long paragraphs (the truncated window) included.
"""

from __future__ import annotations

import re

from beliefbase.codecs.markdown import _Sentences
from hypothesis import example, given
from hypothesis import strategies as st

_SENTENCE_END = re.compile(r"(?<=[.!?])[ \t\n]+(?=[A-Z0-9\"'(\[*_])")
_LINE_UNIT = re.compile(r"^[ \t]*(?:[*+-][ \t]|\d{1,9}[.)][ \t]|\|)", re.MULTILINE)
_CONTEXT_MAX = 280


def reference_context(body: str, start: int, end: int) -> str:
    """The sentence around ``body[start:end]``: the per-link scan as it was."""
    para_start = body.rfind("\n\n", 0, start)
    para_start = 0 if para_start < 0 else para_start + 2
    para_end = body.find("\n\n", end)
    para_end = len(body) if para_end < 0 else para_end
    for unit in _LINE_UNIT.finditer(body, para_start, para_end):
        if unit.start() <= start:
            para_start = unit.start()
        elif unit.start() > end:
            para_end = unit.start() - 1
            break
    if para_end - para_start > 4 * _CONTEXT_MAX:
        para_start = max(para_start, start - _CONTEXT_MAX)
        para_end = min(para_end, end + _CONTEXT_MAX)
    sent_start, sent_end = para_start, para_end
    for s in _SENTENCE_END.finditer(body, para_start, para_end):
        if s.end() <= start:
            sent_start = s.end()
        elif s.start() >= end:
            sent_end = s.start()
            break
    snippet = " ".join(body[sent_start:sent_end].split())
    if len(snippet) > _CONTEXT_MAX:
        rel = body[sent_start:start].count(" ")
        words = snippet.split(" ")
        lo = max(0, rel - 20)
        snippet = ("… " if lo else "") + " ".join(words[lo: lo + 45]) + " …"
    return snippet


# Sentence ends, list markers, table pipes, blank lines, and words to make long paragraphs.
PIECES = st.sampled_from(
    [".", "!", "?", " ", "  ", "\t", "\n", "\n\n", "\n\n\n", "- ", "* ", "+ ", "1. ", "12) ",
     "|", "A", "b", "9", "\"", "'", "(", "[", "_", "word ", "Word. ", "lorem ipsum dolor ",
     "Sit amet! ", "x" * 40, "y " * 30, "\n- item ", "\n  - nested "]
)
texts = st.lists(PIECES, min_size=1, max_size=400).map("".join)


@given(texts, st.data())
@example("a. B [[x]] c.\n\n- one [[y]]\n- two", None)
def test_index_gives_the_scanned_context(body: str, data: st.DataObject | None) -> None:
    sentences = _Sentences(body)
    spans = [(0, len(body))]
    if data is not None:
        starts = data.draw(st.lists(st.integers(0, len(body) - 1), min_size=1, max_size=12))
        for start in starts:
            spans.append((start, data.draw(st.integers(start + 1, len(body)))))
    for start, end in spans:
        assert sentences.around(start, end) == reference_context(body, start, end)


LONG_BODIES = [
    "Ab. " * 400,  # one paragraph of 1,600 characters: the window is truncated
    ("Lorem ipsum dolor sit amet! " * 50 + "\n") * 3 + "\n- " + "item words " * 150,
    "Start " + "x. Y " * 300 + "\n\n" + "| cell. A | b |\n" * 80,
    "word " * 230 + "\n\nNext.",  # one sentence just past the truncation threshold
]


def test_index_gives_the_scanned_context_in_long_paragraphs() -> None:
    for body in LONG_BODIES:
        sentences = _Sentences(body)
        for start in range(len(body) - 1):
            for width in (1, 3, 17):
                end = min(start + width, len(body))
                assert sentences.around(start, end) == reference_context(body, start, end)

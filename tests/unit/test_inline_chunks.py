"""Python-Markdown's inline processing a few blocks at a time (``inline_chunks``): the
same HTML as in one go, and never the whole page's inline elements in one list."""

from __future__ import annotations

import markdown
import pytest
from beliefbase.site.markdown import inline_chunks
from markdown.treeprocessors import InlineProcessor

TEXT = "".join(
    f"Para {i} with *em*, `code` and a [link](x{i}.md) &amp; <b>raw</b>.\n"
    f"- item {i} **strong**\n\n> quote {i} _em_\n\n" for i in range(300)
) + "A tail paragraph.\n"


def _convert(chunked: bool) -> str:
    md = markdown.Markdown(extensions=["tables", "toc", "attr_list", "footnotes"])
    if chunked:
        inline_chunks.register(md)
    return str(md.convert(TEXT))


def test_the_same_html_as_in_one_go(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    run = InlineProcessor.run

    def counting(self: InlineProcessor, tree: object, ancestors: object = None) -> object:
        sizes.append(len(tree))  # type: ignore[arg-type]
        return run(self, tree, ancestors)  # type: ignore[arg-type]

    monkeypatch.setattr(InlineProcessor, "run", counting)
    whole = _convert(chunked=False)
    assert sizes == [601]  # (a paragraph and a quote each, a tail) all at once
    sizes.clear()
    assert _convert(chunked=True) == whole
    assert sizes and max(sizes) <= inline_chunks.CHUNK and sum(sizes) == 601


def test_an_extensions_own_inline_processor_stays() -> None:
    class Own(InlineProcessor):
        pass

    md = markdown.Markdown()
    md.treeprocessors.register(Own(md), "inline", 20)
    inline_chunks.register(md)
    assert type(md.treeprocessors["inline"]) is Own

"""Section anchors equal the ids Python-Markdown's toc gives the rendered headings."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import markdown
import pytest
from beliefbase.builder.documents import Network, make_document
from beliefbase.builder.options import CompileOptions
from beliefbase.codecs.markdown import parse_markdown
from beliefbase.ids import provisional_bid
from markdown.extensions.toc import slugify, slugify_unicode
from pymdownx.slugs import slugify as pymdownx_slugify

HEADINGS = """\
# Title
## Same
## Same
## Same_1
## A & B < C > "quoted"
## `code` and **bold** and _em_ and *star*
## [link text](other.md) and ![img](x.png)
## Ünïcödé — dash… «quotes»
## snake_case_words and 3.14
## Heading with trailing hashes ##
## Explicit {#my-id}
## my-id
## &amp; entity &copy;
## <span>inline html</span> text
## Emoji 🪴 plant
##
## 中文标题
Setext heading
--------------
"""


def html_ids(text: str, **toc: object) -> list[str]:
    md = markdown.Markdown(extensions=["toc", "attr_list"], extension_configs={"toc": toc})
    html = md.convert(text)
    return re.findall(r'<h[1-6] id="([^"]*)"', html)


def compiled_anchors(text: str, **toc: object) -> list[str]:
    opts = CompileOptions(docs_dir=Path("/tmp"), project_dir=Path("/tmp"),
                          slugify=toc.get("slugify", slugify),  # type: ignore[arg-type]
                          slug_separator=str(toc.get("separator", "-")))
    parsed = parse_markdown("n.md", text.encode(), "docs/n.md")  # type: ignore[arg-type]
    net = Network(provisional_bid("network", ""), "root", "root", "", None)
    return [s.anchor for s in make_document(parsed, net, opts).sections]


@pytest.mark.parametrize(
    "toc",
    [
        {},
        {"separator": "_"},
        {"slugify": slugify_unicode},
        {"slugify": pymdownx_slugify(case="lower")},
        {"slugify": partial(pymdownx_slugify(case="fold"))},
    ],
    ids=["default", "separator", "unicode", "pymdownx-lower", "pymdownx-fold"],
)
def test_anchors_match_rendered_ids(toc: dict[str, object]) -> None:
    assert compiled_anchors(HEADINGS, **toc) == html_ids(HEADINGS, **toc)

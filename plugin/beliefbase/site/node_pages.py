"""Pages of documents that are not notes: each published ``.toml`` node gets a page
listing its properties, each ``.canvas`` board a page drawing it (``canvas.py``), each
``.base`` file a page showing its views (``dashboards.py``, issue 27)."""

from __future__ import annotations

import json
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from .. import diagnostics as diag
from ..builder.documents import Document, page_path
from ..codecs.frontmatter import jsonable
from .canvas import canvas_page_html
from .feature import FeatureContext, SiteFeature
from .generated_page import generated_page


class NodePages(SiteFeature):
    """The page of every published TOML node and canvas board (its Markdown is empty:
    the properties, or the board, are the HTML after it)."""

    name = "nodes"

    @classmethod
    def make(cls, ctx: FeatureContext) -> NodePages:
        return cls(ctx)

    def __init__(self, ctx: FeatureContext) -> None:
        self.ctx = ctx

    def add_files(self, files: Files, config: MkDocsConfig) -> list[diag.Diagnostic]:
        found: list[diag.Diagnostic] = []
        for doc in self.ctx.compiled.documents.values():
            if doc.kind in ("toml", "canvas", "base") and doc.published:
                found += self._add_page(files, config, doc)
        return found

    def _add_page(self, files: Files, config: MkDocsConfig, doc: Document
                  ) -> list[diag.Diagnostic]:
        static = files.get_file_from_path(doc.path)
        if static is not None:
            files.remove(static)
        page_src = page_path(doc.parsed)  # X.toml -> X.md, Board.canvas -> Board.canvas.md
        if files.get_file_from_path(page_src) is not None:
            return [diag.make(
                "page-conflict", self.ctx.compiled.options.display(doc.path), 1, 1,
                f"{page_src} already exists, so this node gets no page of its own; "
                "rename one of them")]
        files.append(generated_page(config, page_src))
        return []

    def after_text(self, doc: Document, page_url: str) -> str:
        if doc.kind == "canvas":
            block = self.ctx.feature("properties")
            return canvas_page_html(self.ctx.renderer, doc, page_url,
                                    block.embedded_block if block is not None else None)
        if doc.kind == "base":
            queries = self.ctx.feature("queries")
            if queries is None:
                return ""
            queries.site.rendered.add(doc.path)  # its diagnostics reported here
            return str(queries.site.dashboards.base_page(doc, page_url))
        if doc.kind != "toml":
            return ""
        rows = [{"key": key, "value": _show(value)}
                for key, value in doc.meta.items() if key != "title"]
        return self.ctx.templates.render("node.html", properties=rows, path=doc.path)


def _show(value: Any) -> str:
    data = jsonable(value)
    return data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)

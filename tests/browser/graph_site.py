"""Build a small MkDocs-Material site around the graph viewer, and serve it.

The browser tests and ``graph_perf.py`` share this: it does what the plugin
will do for the ``graph/`` page (render ``theme/graph.html`` into the content
area with ``graph_json_url``, ``search_index_url`` and ``lunr_url``; copy
``theme/assets/graph/`` to ``_beliefbase/graph/`` and MkDocs' ``lunr.js`` to
``_beliefbase/lunr.js``), without depending on the plugin itself, so the
viewer can be tested on its own.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import shutil
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from beliefbase.site.reader.lunr_index import lunr_js

REPO = Path(__file__).resolve().parents[2]
THEME = REPO / "theme"
GRAPH_ASSETS = THEME / "assets" / "graph"

# Our override of Material's main.html: the graph page gets the fragment, every
# other page its Markdown plus a local graph (as the plugin will add them).
MAIN_HTML = """\
{% extends "base.html" %}
{% block content %}
  {% set graph_json_url = base_url ~ '/_beliefbase/graph.json' %}
  {% set lunr_url = base_url ~ '/_beliefbase/lunr.js' %}
  {% if page.meta.bb_graph %}
    {% set search_index_url = base_url ~ '/_beliefbase/search-index.json' %}
    {{ super() }}
    {% include "graph.html" %}
  {% else %}
    {{ super() }}
    {% if page.meta.bb_node %}
      <link rel="stylesheet" href="{{ base_url }}/_beliefbase/graph/graph.css">
      <aside class="bb-graph" data-bb-graph data-mode="local"
             data-node-id="{{ page.meta.bb_node | e }}"
             data-graph-url="{{ graph_json_url | e }}"
             data-site-root="{{ base_url }}/"
             data-graph-page-url="{{ base_url }}/graph/"></aside>
      <script type="module" src="{{ base_url }}/_beliefbase/graph/graph.js"></script>
    {% endif %}
  {% endif %}
{% endblock %}
"""


def build_search_index(graph: Mapping[str, Any]) -> dict[str, Any]:
    """A lunr index over titles, aliases, headings and tags, refs = node ids."""
    from lunr import lunr

    documents = [
        {
            "id": node["id"],
            "title": node.get("title") or "",
            "aliases": " ".join(node.get("aliases") or []),
            "headings": " ".join(node.get("headings") or []),
            "tags": " ".join(node.get("tags") or []),
        }
        for node in graph["nodes"]
        if node.get("kind") in {"Document", "Tag", "Asset", "External"}
    ]
    index = lunr(
        ref="id",
        fields=[
            {"field_name": "title", "boost": 10},
            {"field_name": "aliases", "boost": 5},
            {"field_name": "headings", "boost": 2},
            "tags",
        ],
        documents=documents,
    )
    return dict(index.serialize())


def _page_path(url: str) -> str:
    """docs/ path of the Markdown file that MkDocs publishes at ``url``."""
    url = url.strip("/")
    return f"{url}.md" if url else "index.md"


def build_site(
    root: Path,
    graph: Mapping[str, Any],
    *,
    pages: Iterable[Mapping[str, Any]] | None = None,
    search_index: Mapping[str, Any] | None = None,
    scheme: str = "default",
) -> Path:
    """Write an MkDocs project under ``root`` and build it; return the site dir.

    ``pages`` defaults to one page per node that has a site-relative url, each
    with a local graph of its node.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = root / "docs"
    overrides = root / "overrides"
    assets = docs / "_beliefbase"
    for folder in (docs, overrides, assets):
        folder.mkdir(parents=True, exist_ok=True)
    (overrides / "main.html").write_text(MAIN_HTML, encoding="utf-8")
    shutil.copy(THEME / "graph.html", overrides / "graph.html")
    shutil.copytree(GRAPH_ASSETS, assets / "graph", dirs_exist_ok=True)
    shutil.copy(lunr_js(), assets / "lunr.js")
    (assets / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    index = search_index if search_index is not None else build_search_index(graph)
    (assets / "search-index.json").write_text(json.dumps(index), encoding="utf-8")

    (docs / "graph.md").write_text(
        "---\ntitle: Graph\nbb_graph: true\nhide: [navigation, toc]\n---\n", encoding="utf-8"
    )
    if pages is None:
        pages = [
            {"path": _page_path(n["url"]), "title": n["title"], "node": n["id"]}
            for n in graph["nodes"]
            if n.get("kind") == "Document" and n.get("url") and "://" not in n["url"]
        ]
    for page in pages:
        target = docs / page["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        # MkDocs and Material put page titles into the nav unescaped: escape
        # here, so a hostile node title cannot run on any page of the test site.
        front = {"title": html.escape(page["title"]), "bb_node": page.get("node")}
        target.write_text(
            f"---\n{json.dumps(front)}\n---\n\nA page of the test knowledge base.\n",
            encoding="utf-8",
        )
    if not (docs / "index.md").exists():
        (docs / "index.md").write_text("# Home\n\n[Graph](graph.md)\n", encoding="utf-8")

    config = {
        "site_name": "Graph test",
        "docs_dir": str(docs),
        "site_dir": str(root / "site"),
        "use_directory_urls": True,
        "theme": {
            "name": "material",
            "custom_dir": str(overrides),
            "font": False,
            "palette": {"scheme": scheme},
            "features": [],
        },
        "plugins": [],
    }
    config_file = root / "mkdocs.yml"
    config_file.write_text(json.dumps(config), encoding="utf-8")
    build(load_config(config_file=str(config_file)))
    return root / "site"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port); yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]

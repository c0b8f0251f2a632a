"""The reader's JSON files: graph-view.json, search-index.json, previews.json.

Schema, escaping (user strings stay text; no raw ``<`` in the files),
determinism (two builds give the same bytes) and drafts (never there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import BuildResult
from tests.reader.kb import HOSTILE

FILES = ("graph-view.json", "search-index.json", "previews.json")


def _load(result: BuildResult, name: str) -> Any:
    return json.loads((result.site / "_beliefbase" / name).read_text(encoding="utf-8"))


def _titles(result: BuildResult) -> dict[str, str]:
    return {n["id"]: n["title"] for n in _load(result, "graph.json")["nodes"]
            if n["kind"] == "Document"}


def test_graph_view_schema(built: BuildResult) -> None:
    view = _load(built, "graph-view.json")
    assert set(view) == {"version", "types", "nodes", "edges"}
    assert view["version"] == 1
    assert view["types"] == sorted(set(view["types"]))
    allowed = {"id", "title", "kind", "url", "schema", "folder", "tags", "aliases"}
    for node in view["nodes"]:
        assert {"id", "title"} <= set(node) <= allowed
        assert node.get("kind", "Document") in {"Document", "Tag", "Asset", "External"}
    edges = view["edges"]
    assert len(edges) % 3 == 0
    triples = [tuple(edges[k:k + 3]) for k in range(0, len(edges), 3)]
    assert triples == sorted(set(triples)), "each (source, target, type) once, sorted"
    for s, t, k in triples:
        assert 0 <= s < len(view["nodes"]) and 0 <= t < len(view["nodes"]) and s != t
        assert 0 <= k < len(view["types"])


def test_graph_view_folds_sections_and_keeps_documents(built: BuildResult) -> None:
    full = _load(built, "graph.json")
    view = _load(built, "graph-view.json")
    docs = {n["id"] for n in full["nodes"] if n["kind"] == "Document"}
    tags = {n["id"] for n in full["nodes"] if n["kind"] == "Tag"}
    assert {n["id"] for n in view["nodes"]} == docs | tags
    by_title = {n["title"]: k for k, n in enumerate(view["nodes"])}
    links = view["types"].index("links_to")
    pairs = {(view["edges"][k], view["edges"][k + 1]) for k in range(0, len(view["edges"]), 3)
             if view["edges"][k + 2] == links}
    # Alpha's "## Alpha method" section links to Hostile: it counts for Alpha.
    assert (by_title["Alpha"], by_title[HOSTILE]) in pairs
    # The Markdown link [the beta note](notes/beta.md) from Home counts too.
    assert (by_title["Home"], by_title["Beta"]) in pairs
    alpha = view["nodes"][by_title["Alpha"]]
    assert alpha == {"id": alpha["id"], "title": "Alpha", "url": "notes/alpha/",
                     "folder": "notes", "tags": ["greek", "physics"],
                     "aliases": ["First Letter"]}


def test_graph_view_is_much_smaller_than_graph_json(built: BuildResult) -> None:
    out = built.site / "_beliefbase"
    assert (out / "graph-view.json").stat().st_size * 2 < (out / "graph.json").stat().st_size


def test_previews(built: BuildResult) -> None:
    previews = _load(built, "previews.json")
    assert previews["version"] == 1
    pages = previews["pages"]
    assert set(pages) == set(_titles(built))
    by_title = {p["title"]: p for p in pages.values()}
    assert set(by_title) == {"Home", "Alpha", "Beta", "Gamma", HOSTILE}
    for page in pages.values():
        assert set(page) - {"code"} == {"title", "url", "excerpt"}  # code: only if any
        for start, end in page.get("code", []):  # ranges of the excerpt shown as <code>
            assert 0 <= start < end <= len(page["excerpt"])
    assert by_title["Alpha"]["url"] == "notes/alpha/"
    assert by_title["Home"]["url"] == "./"
    # First paragraph, headings skipped, wikilinks shown with their titles.
    assert by_title["Alpha"]["excerpt"] == (
        "Alpha is the first note of the test base; it links to Beta and Gamma.")
    assert by_title["Home"]["excerpt"] == (
        "Welcome to the test knowledge base. Start with Alpha or read the beta note.")
    # HTML in a note is not markup in the excerpt: tags dropped, text kept as text.
    assert by_title[HOSTILE]["excerpt"] == "Hostile bold text & friends, linking Alpha."


def test_search_index_loads_and_finds_by_title_alias_heading_tag(built: BuildResult) -> None:
    from lunr.index import Index

    wrapped = _load(built, "search-index.json")
    assert set(wrapped) == {"version", "index"} and wrapped["version"] == 1
    data = wrapped["index"]
    assert data["fields"] == ["title", "aliases", "headings", "tags"]
    assert data["pipeline"] == ["stemmer"]
    index = Index.load(data)
    ids = {title: bid for bid, title in _titles(built).items()}
    assert {r["ref"] for r in index.search("*")} == set(ids.values())

    def first(query: str) -> str:
        return _titles(built)[index.search(query)[0]["ref"]]

    assert first("gamma") == "Gamma"
    assert first("third letter") == "Gamma"
    assert first("method") == "Alpha"
    assert first("physics") == "Alpha"
    assert first("onerror") == HOSTILE


def test_no_raw_angle_brackets_and_hostile_strings_round_trip(built: BuildResult) -> None:
    for name in FILES:
        text = (built.site / "_beliefbase" / name).read_text(encoding="utf-8")
        assert "<" not in text and ">" not in text, name
    view = _load(built, "graph-view.json")
    assert HOSTILE in [n["title"] for n in view["nodes"]]
    hostile = next(n for n in view["nodes"] if n["title"] == HOSTILE)
    assert hostile["aliases"] == ["<script>alert(2)</script>"]


def test_drafts_are_absent(built: BuildResult) -> None:
    for name in FILES:
        text = (built.site / "_beliefbase" / name).read_text(encoding="utf-8")
        assert "Secret" not in text and "secret" not in text, name


def test_two_builds_are_byte_identical(kb: Any, tmp_path: Path) -> None:
    first = kb.build()
    saved = {n: (first.site / "_beliefbase" / n).read_bytes() for n in FILES}
    import shutil

    shutil.rmtree(first.site)
    shutil.rmtree(kb.root / ".beliefbase", ignore_errors=True)
    second = kb.build()
    for name in FILES:
        assert (second.site / "_beliefbase" / name).read_bytes() == saved[name], name


TWIN = "0a1b2c3d-0000-7000-8000-00000000beef"


def _graph_view_reference(graph: Any) -> dict[str, Any]:
    """graph-view.json as data, computed the plain way (the oracle)."""
    from beliefbase.graph.emit import _KIND_ORDER
    from beliefbase.graph.model import WeightKind
    from beliefbase.graph.view import _FOLDED, _VIEW_KINDS, _view_node

    by_path = {n.path: n.bid for n in graph.nodes.values() if n.kind == "Document" and n.path}
    fold: dict[str, str] = {}
    for node in graph.nodes.values():
        if node.kind in _VIEW_KINDS:
            fold[node.bid] = node.bid
        elif node.kind in _FOLDED and node.path in by_path:
            fold[node.bid] = by_path[node.path]
    shown = sorted((graph.nodes[b] for b in set(fold.values())),
                   key=lambda n: (_KIND_ORDER.get(n.kind, 99), n.path or "", n.url or "", n.bid))
    position = {n.bid: k for k, n in enumerate(shown)}
    triples = set()
    for edge in graph.edges:
        source, target = fold.get(edge.source), fold.get(edge.target)
        if (edge.weight_kind is not WeightKind.SUBSECTION and source is not None
                and target is not None and source != target):
            triples.add((position[source], position[target], edge.type))
    types = sorted({t for _s, _t, t in triples})
    flat: list[int] = []
    for s, t, kind in sorted(triples, key=lambda e: (e[0], e[1], types.index(e[2]))):
        flat += (s, t, types.index(kind))
    return {"version": 1, "types": types, "nodes": [_view_node(n) for n in shown],
            "edges": flat}


def test_graph_view_text_is_the_json_of_graph_view_json_through_rebuilds(kb: Any) -> None:
    """The file is put together from each node's kept text and, when nothing it
    depends on changed, the last edge list; it must stay exactly the JSON of the
    plain computation through every kind of edit, and the edge list must really
    be reused when only titles or lines changed."""
    from beliefbase.compile.entity_graph import entity_parts
    from beliefbase.graph.build import GraphBuilder
    from beliefbase.graph.emit import dumps
    from beliefbase.graph.view import ViewKept, graph_view_text

    builder, kept = GraphBuilder(), ViewKept()
    compiler = kb.compiler()
    alpha = (kb.docs / "notes/alpha.md").read_text(encoding="utf-8")
    beta = (kb.docs / "notes/beta.md").read_text(encoding="utf-8")
    gamma = (kb.docs / "notes/gamma.md").read_text(encoding="utf-8")
    edits = [
        None,
        ("notes/beta.md", beta.replace("title: Beta", "title: Beta <Renamed> & co")),  # title
        ("notes/alpha.md", alpha.replace("\n# ", "\n\n\n# ", 1)),  # lines move, nothing else
        ("notes/hostile.md", "# Hostile\n\nNow [[Gamma#Beta again]] too.\n"),  # a new edge
        # the linked section goes: the link to it is broken, the same relation, but
        # the viewer has no node to fold it into any more
        ("notes/gamma.md", gamma.replace("## Beta again", "## Beta once more")),
        ("notes/new.md", "# New\n\n[[Alpha]] #fresh\n"),  # a node appears
        ("notes/new.md", None),  # and goes
        # two notes with one BID: the graph keeps the first one's node and nothing of
        # the second, so a link to a section only the second has is no edge (the view
        # does not change); when the first goes, the second's node is the graph's and
        # the same link (its note unchanged) counts
        ("notes/twin-a.md", f"---\nbid: {TWIN}\n---\n# Twin A\n\n[[Beta]]\n"),
        ("notes/twin-b.md", f"---\nbid: {TWIN}\n---\n# Twin B\n\n## Only B\n\n[[Gamma]]\n"),
        ("notes/linker.md", "# Linker\n\nSee [[Twin B#Only B]].\n"),
        ("notes/twin-a.md", None),
    ]
    reused = []
    for edit in edits:
        if edit is not None:
            path, text = edit
            if text is None:
                (kb.docs / path).unlink()
            else:
                kb.write(path, text, dedent=False)
        compiled = kb.compile(compiler)
        graph = builder.build(compiled, entity_parts(compiled.entities, compiled.documents,
                                                     compiled.options))
        before = kept.edges
        text = graph_view_text(graph, kept)
        reused.append(kept.edges is before)
        assert text == dumps(_graph_view_reference(graph)), edit
        assert len(kept.nodes._last) == len(_graph_view_reference(graph)["nodes"])
    assert "Beta \\u003cRenamed\\u003e \\u0026 co" in text
    assert reused == [False, True, True, False, False, False, False, False, True, False,
                      False]

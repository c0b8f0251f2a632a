"""A later compile never changes an earlier one, and notes whose anchors come from
another note's title are re-derived when that title changes (issue 17, point 2).

Everything in a ``Compiled`` is read-only all the way down (the walk of
``frozen_walk.mutable_places``), and a later compile through the same
``Compiler`` (as ``mkdocs serve`` runs it) leaves an earlier result exactly as
it was, its link resolver's memos included (``frozen_walk.snapshot``).
"""

from __future__ import annotations

import dataclasses
import datetime
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from beliefbase.builder.options import CompileOptions
from beliefbase.builder.suggest import Suggester
from beliefbase.compile import Compiler
from beliefbase.compile.compiled import Compiled
from beliefbase.frozen import MAX_DEPTH, FrozenDict, freeze, thaw
from beliefbase.project import load_project

from ..property.vault_edits import edited_vault
from .frozen_walk import difference, mutable_places, snapshot

ACME = Path(__file__).resolve().parent.parent / "beliefs" / "fixtures" / "acme"

#: A vault with something of every stage: beliefs (the acme fixture: sidecars, a
#: supersession chain, a draft's sidecar), entities, a declared node type and a node
#: breaking it, a TOML node, a network, nested frontmatter, source_refs, block ids,
#: embeds, an asset, a draft, dangling links (to a note and to a file).
NOTES = {
    "people/smaug.md": """\
        ---
        tags: [dragon, lonely]
        aliases:
          - The Dragon
        extra:
          nested: {a: [1, 2, {b: [x, y]}], s: !!set {p, q}}
          when: 2026-01-02
        shared: &list [1, 2]
        again: *list
        source_refs:
          - src/engine.py
        ---
        # Smaug

        #Smaug:CREATURE lives under #[Mount Doom]:PLACE, near Smaug's gold. ^blk

        ## Hoard

        See [[Authentication#Sessions]], [[a#see-b-title]] and ![[billing]]. #gold
        """,
    "types/project.md": """\
        ---
        schema: NodeType
        name: Project
        properties:
          - {name: status, type: string, required: true}
          - {name: members, type: list}
          - {name: owner, type: link}
        acyclic: [depends_on]
        ---
        # Project type
        """,
    "proj.md": """\
        ---
        schema: Project
        status: [not, a, string]
        members: [a, b]
        owner: "[[people/smaug]]"
        ---
        # Proj

        Smaug again, and [[missing note]], [[nofile.pdf]], ![[img.png]].
        """,
    "net/inside.md": "# Inside\n\n[[a]] and [[Mount Doom]].\n",
    "a.md": "# A\n\n## See [[b]]\n\ntext ^a1\n",
    "b.md": "---\ntitle: B Title\n---\n# B\n",
    "c.md": "# C\n\n[[a#see-b-title]] [[a#^a1]] [[b]]\n",
    # Dataview inline fields: typed values (dates, links, lists) in the parsed note
    "fields.md": "# F\n\nrating:: 4\n[due:: 2022-01-02] (who:: [[a]], [[b]]) [d:: 3 days]\n",
    "draft.md": "---\ndraft: true\n---\n# Draft\n\n[[a]]\n",
}
FILES: dict[str, str | bytes] = {
    "node.toml": 'title = "Node"\nlist = [1, 2]\n[table]\nx = [{y = 1}]\n',
    "net/BeliefNetwork.toml": 'id = "net"\ntitle = "Net"\n',
    "img.png": b"\x89PNG\r\n\x1a\n",
}


class Vault:
    """The project above in ``root``, compiled again and again by one ``Compiler``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(ACME / "docs", root / "docs")
        shutil.copytree(ACME / "raw", root / "raw")
        (root / "src").mkdir()
        (root / "src" / "engine.py").write_text("print('v1')\n", encoding="utf-8")
        config = {"site_name": "Frozen", "theme": {"name": "material"},
                  "plugins": [{"beliefbase": {"cache_dir": str(root / "cache")}}]}
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
        for path, text in NOTES.items():
            self.write(path, textwrap.dedent(text))
        for path, data in FILES.items():
            self.write(path, data)
        self.stamp = 1_700_000_000_000_000_000
        _, options = load_project(root / "mkdocs.yml")
        self.compiler = Compiler(options)

    def write(self, path: str, data: str | bytes) -> None:
        file = self.root / "docs" / path
        file.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            file.write_text(data, encoding="utf-8")
        else:
            file.write_bytes(data)
        if hasattr(self, "stamp"):  # a new mtime, even when the size stays the same
            self.stamp += 1_000_000_000
            import os

            os.utime(file, ns=(self.stamp, self.stamp))

    def compile(self) -> Compiled:
        sources, _ = load_project(self.root / "mkdocs.yml")
        return self.compiler.compile(sources)


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return Vault(tmp_path / "project")


def test_nothing_in_a_compiled_can_change(vault: Vault) -> None:
    """No list, dict or set (nor an unfrozen dataclass) anywhere in a ``Compiled``,
    but in the caches classes declare (``frozen.CACHES``)."""
    compiled = vault.compile()
    # the walk reached every stage
    assert compiled.beliefs is not None and compiled.beliefs.beliefs
    assert compiled.beliefs.chain(next(iter(compiled.beliefs.beliefs))) != ()
    assert compiled.entities is not None and "SMAUG" in compiled.entities.entities
    assert compiled.entities.entities["SMAUG"].mentions
    assert compiled.graph is not None and compiled.link_resolver is not None
    codes = {d.code for d in compiled.diagnostics}
    assert {"schema-violation", "unresolved-link", "belief-superseded-cited"} & codes
    assert mutable_places(compiled) == []
    smaug = compiled.documents[next(p for p in compiled.documents if p.endswith("smaug.md"))]
    extra = smaug.meta["extra"]
    assert isinstance(extra, FrozenDict) and extra["nested"]["a"][2]["b"] == ("x", "y")
    assert extra["nested"]["s"] == frozenset({"p", "q"})
    assert smaug.meta["shared"] is smaug.meta["again"]  # a YAML alias stays one value
    with pytest.raises(TypeError):
        extra["when"] = None
    assert extra["when"] == datetime.date(2026, 1, 2)


def test_an_earlier_compile_is_left_as_it_was(vault: Vault) -> None:
    """Two rounds of edits through the same ``Compiler``: every earlier ``Compiled``
    equals its snapshot taken before, the memos of its link resolver included (a
    shared resolver memo, or a ``Document``'s memo of fragments, gained the later
    compile's answers).  Only the caches of pure functions that are shared by design
    (slugs of the options, the names' suggester) are left out."""
    shared = (CompileOptions, Suggester)
    first = vault.compile()
    before = snapshot(first, shared)
    # the same names: the next compile's resolver starts from this one's indexes
    vault.write("c.md", "# C\n\n[[a#see-b-title]] [[a#^a1]] [[b]] [[a#Nothing]] [[zzz-new]] "
                        "[[b#Other]] [[net/inside]]\n")
    vault.write("a.md", "# A\n\n## See [[b]]\n\ntext ^a1\n\n## Two\n")
    second = vault.compile()
    assert second.link_resolver is not first.link_resolver
    assert difference(before, snapshot(first, shared)) is None
    middle = snapshot(second, shared)
    # names change: retitled, deleted, a sidecar and the entities edited
    vault.write("b.md", "---\ntitle: New Title\naliases: [Bee]\n---\n# B\n")
    (vault.root / "docs" / "draft.md").unlink()
    vault.write("people/smaug.md", "---\ntags: [dragon]\n---\n# Smaug\n\n#Smaug:PERSON\n")
    auth = vault.root / "docs" / "topics" / "auth.beliefs.json"
    vault.write("topics/auth.beliefs.json", auth.read_text(encoding="utf-8").replace(
        "thirty minutes", "forty minutes"))
    third = vault.compile()
    assert difference(before, snapshot(first, shared)) is None
    assert difference(middle, snapshot(second, shared)) is None
    assert mutable_places(third) == []
    assert third.documents["b.md"].title == "New Title"


def test_freeze_keeps_shared_values_shared_and_cuts_cycles() -> None:
    inner: list[Any] = [1, {"x": [2]}]
    value = {"a": inner, "b": inner, "s": {3}, "t": (4, [5]), "d": datetime.date(2026, 1, 1)}
    frozen = freeze(value)
    assert frozen == {"a": (1, {"x": (2,)}), "b": (1, {"x": (2,)}), "s": frozenset({3}),
                      "t": (4, (5,)), "d": datetime.date(2026, 1, 1)}
    assert frozen["a"] is frozen["b"] and isinstance(frozen["a"][1], FrozenDict)
    assert thaw(frozen) == {**value, "t": [4, [5]]}
    loop: list[Any] = [1]
    loop.append(loop)
    assert freeze(loop) == (1, None)
    # "billion laughs": nine levels of ten aliases each, frozen once per level
    laughs: list[Any] = ["lol"] * 10
    for _ in range(9):
        laughs = [laughs] * 10
    top = freeze(laughs)
    assert top[0] is top[9] and top[0][0] is top[5][5]
    deep: list[Any] = []
    for _ in range(5_000):  # nested past what pickle (and the parse cache) can take
        deep = [deep]
    cut = freeze(deep)
    for _ in range(MAX_DEPTH):
        cut = cut[0]
    assert cut == (None,)


def _c_link(compiled):  # type: ignore[no-untyped-def]
    (rl,) = compiled.links["c.md"]
    return rl.status, rl.anchor, rl.anchor_missing


def test_retitled_target_rederives_title_dependent_anchors() -> None:
    notes = {"a": "# A\n\n## See [[b]]\n\ntext\n",
             "b": "---\ntitle: Old Title\n---\n# B\n",
             "c": "# C\n\n[[a#see-old-title]]\n"}
    with edited_vault(notes) as vault:
        live = Compiler(vault.options)
        first = live.compile(vault.sources)
        assert [s.anchor for s in first.documents["a.md"].sections] == ["a", "see-old-title"]
        assert _c_link(first)[2] is False
        sources = vault.edit("b", False, "---\ntitle: New Title\n---\n# B\n")
        second = live.compile(sources)
        fresh = Compiler(vault.options).compile(sources)
        assert [s.anchor for s in second.documents["a.md"].sections] == ["a", "see-new-title"]
        assert _c_link(second) == _c_link(fresh)
        assert [d.code for d in second.diagnostics] == [d.code for d in fresh.diagnostics]
        assert "unresolved-anchor" in {d.code for d in second.diagnostics}
        # the earlier compile keeps what it had
        assert [s.anchor for s in first.documents["a.md"].sections] == ["a", "see-old-title"]
        assert _c_link(first)[2] is False
        assert "unresolved-anchor" not in {d.code for d in first.diagnostics}


def test_compile_results_are_frozen() -> None:
    with edited_vault({"a": "# A\n\n## Part\n\nline ^b1\n"}) as vault:
        compiled = Compiler(vault.options).compile(vault.sources)
        doc = compiled.documents["a.md"]
        for target, name in ((doc, "title"), (doc.sections[0], "anchor"), (doc.network, "id"),
                             (compiled, "documents")):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(target, name, "x")
        assert isinstance(doc.sections, tuple)
        with pytest.raises(TypeError):
            doc.by_anchor["x"] = doc.sections[0]  # type: ignore[index]
        with pytest.raises(TypeError):
            compiled.documents["x.md"] = doc  # type: ignore[index]
        graph = compiled.graph
        assert graph is not None and compiled.beliefs is not None
        with pytest.raises(TypeError):
            graph.add(dataclasses.replace(next(iter(graph.nodes.values())), bid="new"))
        with pytest.raises(TypeError):
            graph.link(graph.edges[0])
        with pytest.raises(dataclasses.FrozenInstanceError):
            compiled.beliefs.diagnostics = []  # type: ignore[misc]


def test_a_later_compile_leaves_the_earlier_link_resolver_alone() -> None:
    """An edit that changes no name gives the edited note a new Document in new
    indexes; the earlier compile's resolver still holds the old one."""
    with edited_vault({"a": "# A\n\n## Old\n", "b": "# B\n\n[[a#Old]]\n"}) as vault:
        live = Compiler(vault.options)
        first = live.compile(vault.sources)
        second = live.compile(vault.edit("a", False, "# A\n\n## New\n"))
        assert first.link_resolver is not None and second.link_resolver is not None
        assert [s.anchor for s in first.link_resolver.published.docs["a.md"].sections] == [
            "a", "old"]
        assert [s.anchor for s in second.link_resolver.published.docs["a.md"].sections] == [
            "a", "new"]
        assert second.documents["a.md"] is second.link_resolver.published.docs["a.md"]


def test_a_heading_showing_another_notes_heading_follows_it() -> None:
    """``## About [[g#Part]]`` shows g's heading: renaming that heading (no name of the
    vault changes) moves the anchor, as a fresh compile says."""
    notes = {"a": "# A\n\n## About [[g#Part]]\n", "g": "# G\n\n## Part\n",
             "c": "# C\n\n[[a#about-part]]\n"}
    with edited_vault(notes) as vault:
        live = Compiler(vault.options)
        live.compile(vault.sources)
        sources = vault.edit("g", False, "# G\n\n## Other\n")
        second, fresh = live.compile(sources), Compiler(vault.options).compile(sources)
        assert [s.anchor for s in second.documents["a.md"].sections] == ["a", "about-g"]
        assert [s.anchor for s in fresh.documents["a.md"].sections] == ["a", "about-g"]
        assert _c_link(second) == _c_link(fresh) == ("ok", None, True)

"""A later compile never changes an earlier one, and notes whose anchors come from
another note's title are re-derived when that title changes (issue 17, point 2)."""

from __future__ import annotations

import dataclasses

import pytest
from beliefbase.builder import Compiler

from ..property.vault_edits import edited_vault


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

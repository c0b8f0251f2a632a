"""Dataview inline fields are properties of the note's node: ``WHERE n.rating > 3``
on a ``rating:: 4`` field, typed as Dataview types them, with the sanitised twin;
the frontmatter wins a clash."""

from __future__ import annotations

from beliefbase.query.run import QueryEngine

from tests.conftest import Project

from .conftest import write_vault

VAULT = {
    "good.md": """\
        # Good
        rating:: 4
        Read on [finished:: 2022-01-02] (done:: true), see [Basic Field:: [[meh]]].
        - [tag list:: a, b]
        """,
    "meh.md": "# Meh\nrating:: 2\nscore:: 1.5\n",
    "both.md": "---\nrating: 5\n---\n# Both\nRating:: 1\nweight:: 3\nweight:: 4\n",
    "code.md": "# Code\n```\nrating:: 9\n```\n`rating:: 9`\n",
}


def test_inline_fields_are_typed_node_properties(project: Project) -> None:
    write_vault(project, VAULT)
    engine = QueryEngine(project.compile().graph)
    high = engine.run("MATCH (n:Note) WHERE n.rating > 3 RETURN n.title ORDER BY n.title")
    assert high.rows == (("Both",), ("Good",))  # Both: the frontmatter's 5, not its 1
    assert engine.loaded.labels["Note"]["rating"] == "INT64"
    good = engine.run("MATCH (n:Note {title: 'Good'}) RETURN n.finished, n.done, "
                      "n.`Basic Field`, n.`basic-field`")
    assert good.rows == (("2022-01-02", True, "[[meh]]", "[[meh]]"),)
    meh = engine.run("MATCH (n:Note {title: 'Meh'}) RETURN n.score")
    assert meh.rows == ((1.5,),)
    code = engine.run("MATCH (n:Note {title: 'Code'}) RETURN n.rating")
    assert code.rows == ((None,),)  # a field in code is no field


def test_a_key_given_twice_is_a_list(project: Project) -> None:
    write_vault(project, VAULT)
    engine = QueryEngine(project.compile().graph)
    both = engine.run("MATCH (n:Note {title: 'Both'}) RETURN n.weight")
    assert both.rows == (("[3, 4]",),)  # as a frontmatter list of numbers loads: JSON text


def test_only_the_first_keys_are_properties(project: Project) -> None:
    """A note with more different keys than MAX_PROPERTY_KEYS: the rest are not
    columns (reported once, where the first one too many is)."""
    from beliefbase.codecs.inline_fields import MAX_PROPERTY_KEYS

    many = "".join(f"k{i}:: {i}\n" for i in range(MAX_PROPERTY_KEYS + 5))
    project.write("many.md", "# Many\n" + many)
    compiled = project.compile()
    (diagnostic,) = [d for d in compiled.diagnostics if d.code == "too-many-fields"]
    assert (diagnostic.line, diagnostic.column) == (MAX_PROPERTY_KEYS + 2, 1)
    (node,) = [n for n in compiled.graph.nodes.values()
               if n.path == "many.md" and n.kind == "Document"]
    assert f"k{MAX_PROPERTY_KEYS - 1}" in node.properties
    assert f"k{MAX_PROPERTY_KEYS}" not in node.properties

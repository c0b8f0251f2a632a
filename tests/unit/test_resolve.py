"""Link resolution: the five steps in order, folders, ambiguity, drafts, anchors."""

from __future__ import annotations

import random

from beliefbase.builder.resolve import Resolver, nearness
from beliefbase.compile import Compiler
from beliefbase.compile.compiled import Compiled


def targets(compiled: Compiled, source: str) -> list[tuple[str, str, str | None, str | None]]:
    return [(rl.link.target, rl.status, rl.target, rl.anchor) for rl in compiled.links[source]]


def codes(compiled: Compiled) -> list[tuple[str, str, int, int]]:
    return [(d.code, d.file, d.line, d.column) for d in compiled.diagnostics]


def test_steps_in_order(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a/index.md", "[[bid:{bref}]] [[b/target]] [[the-id]] [[Target]] [[Some Title]]\n")
    project.write("a/b/target.md", "---\nid: the-id\ntitle: Some Title\nbid: 0190f0a0-0000-7000-8000-00000000abcd\n---\n")
    page = project.docs / "a/index.md"
    page.write_text(page.read_text().replace("{bref}", "0000abcd"))
    compiled = project.compile()
    got = [(rl.link.target, rl.step, rl.target) for rl in compiled.links["a/index.md"]]
    assert got == [
        ("bid:0000abcd", 1, "a/b/target.md"),
        ("b/target", 2, "a/b/target.md"),
        ("the-id", 3, "a/b/target.md"),
        ("Target", 4, "a/b/target.md"),
        ("Some Title", 5, "a/b/target.md"),
    ]


def test_earlier_step_wins(project) -> None:  # type: ignore[no-untyped-def]
    # "Alpha" is the base name of alpha.md (step 4) and the title of other.md (step 5)
    project.write("alpha.md", "# Something else\n")
    project.write("other.md", "---\ntitle: Alpha\n---\n")
    project.write("index.md", "[[Alpha]]\n")
    assert targets(project.compile(), "index.md")[0][2] == "alpha.md"


def test_path_relative_then_root_and_escape(project) -> None:  # type: ignore[no-untyped-def]
    project.write("x/y/note.md", "[[../z]] [[x/z]] [[../../../outside]] [[/x/z.md]]\n")
    project.write("x/z.md", "")
    compiled = project.compile()
    assert [t[1:3] for t in targets(compiled, "x/y/note.md")] == [
        ("ok", "x/z.md"), ("ok", "x/z.md"), ("escape", None), ("ok", "x/z.md")]
    assert ("path-escape", "docs/x/y/note.md", 1, 18) in codes(compiled)


def test_folder_targets_resolve_to_index(project) -> None:  # type: ignore[no-untyped-def]
    project.write("guide/index.md", "# Guide\n")
    project.write("ref/README.md", "# Ref\n")
    project.write("home.md", "[[guide]] [[ref/]] [[guide/]]\n")
    assert [t[2] for t in targets(project.compile(), "home.md")] == [
        "guide/index.md", "ref/README.md", "guide/index.md"]


def test_case_and_whitespace_insensitive(project) -> None:  # type: ignore[no-untyped-def]
    project.write("My Note.md", "---\naliases: [Other   Name]\n---\n")
    project.write("home.md", "[[my note]] [[MY NOTE]] [[other name]]\n")
    assert {t[2] for t in targets(project.compile(), "home.md")} == {"My Note.md"}


def test_assets_by_name(project) -> None:  # type: ignore[no-untyped-def]
    project.write("img/pic.png", b"\x89PNG")
    project.write("home.md", "![[pic.png]] [[Pic.PNG]]\n")
    assert [(t[2]) for t in targets(project.compile(), "home.md")] == ["img/pic.png"] * 2


def test_path_suffix(project) -> None:  # type: ignore[no-untyped-def]
    project.write("deep/sub/note.md", "")
    project.write("home.md", "[[sub/note]]\n")
    assert targets(project.compile(), "home.md")[0][2] == "deep/sub/note.md"


def test_ambiguous_nearest_and_diagnostic(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a/dup.md", "")
    project.write("b/dup.md", "")
    project.write("dup.md", "")
    project.write("b/c/page.md", "see [[dup]]\n")
    compiled = project.compile()
    assert targets(compiled, "b/c/page.md")[0][2] == "b/dup.md"  # closest ancestor
    (message,) = [d.message for d in compiled.diagnostics if d.code == "ambiguous-link"]
    assert message == (
        "[[dup]] matches 3 notes (docs/b/dup.md, docs/dup.md, docs/a/dup.md); using the nearest, "
        "docs/b/dup.md. Link by path (e.g. [[folder/name]]) to choose")


def test_nearness_order() -> None:
    folder = "a/b/c"
    paths = ["z/x.md", "a/b/c/x.md", "a/x.md", "x.md", "a/b/x.md", "a/b/c/d/x.md", "b/x.md"]
    assert sorted(paths, key=lambda p: nearness(p, folder)) == [
        "a/b/c/x.md", "a/b/x.md", "a/x.md", "x.md", "b/x.md", "z/x.md", "a/b/c/d/x.md"]


def test_id_prefers_own_network(project) -> None:  # type: ignore[no-untyped-def]
    project.write("BeliefNetwork.toml", 'id = "main"\n')
    project.write("team/BeliefNetwork.toml", 'id = "team"\ntitle = "Team"\n')
    project.write("team/spec.md", "---\nid: spec\n---\n")
    project.write("spec-main.md", "---\nid: spec\n---\n")
    project.write("team/page.md", "[[spec]]\n")
    project.write("page.md", "[[spec]]\n")
    compiled = project.compile()
    assert targets(compiled, "team/page.md")[0][2] == "team/spec.md"
    assert targets(compiled, "page.md")[0][2] == "spec-main.md"
    assert compiled.documents["team/spec.md"].network.id == "team"
    assert not [d for d in compiled.diagnostics if d.code == "duplicate-id"]  # two networks


def test_unresolved_with_suggestion(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Project Plan.md", "")
    project.write("home.md", "Read [[Project Plam]] today.\n")
    compiled = project.compile()
    (d,) = [d for d in compiled.diagnostics if d.code == "unresolved-link"]
    assert str(d) == ("docs/home.md:1:6: unresolved-link: [[Project Plam]] matches no note, "
                      "title or alias (did you mean 'Project Plan'?); create the note or fix "
                      "the link")


def test_anchors_and_blocks(project) -> None:  # type: ignore[no-untyped-def]
    project.write("t.md", "# Top\n## Mid\n### Deep\ntext ^blk\n## Other\n### Deep\n")
    project.write("home.md", "[[t#Mid#Deep]] [[t#Other#Deep]] [[t#deep]] [[t#^blk]] [[t#Nope]] [[t#^nope]]\n")
    compiled = project.compile()
    assert [t[3] for t in targets(compiled, "home.md")] == [
        "deep", "deep_1", "deep", "^blk", None, None]
    missing = [str(d) for d in compiled.diagnostics if d.code == "unresolved-anchor"]
    assert missing == [
        "docs/home.md:1:55: unresolved-anchor: [[t#Nope]]: 'Top' has no heading 'Nope'; "
        "the link points at the top of the page",
        "docs/home.md:1:66: unresolved-anchor: [[t#^nope]]: 'Top' has no block ^nope; the "
        "link points at the top of the page",
    ]


def test_drafts_resolve_as_unpublished_and_never_named(project) -> None:  # type: ignore[no-untyped-def]
    project.write("secret.md", "---\ndraft: true\ntitle: Secret Plan\n---\n[[missing]]\n")
    project.write("hidden.md", "---\npublish: false\n---\n")
    project.write("home.md", "[[Secret Plan]] [[hidden]]\n")
    compiled = project.compile()
    assert [t[1] for t in targets(compiled, "home.md")] == ["unpublished", "unpublished"]
    assert "secret.md" not in compiled.links  # drafts are not checked
    public = compiled.public_diagnostics()
    assert [d.code for d in public] == ["link-to-unpublished"] * 2
    assert all("secret" not in d.message.lower() or "[[Secret Plan]]" in d.message for d in public)


def test_order_independent(project) -> None:  # type: ignore[no-untyped-def]
    for i in range(30):
        project.write(f"f{i % 4}/note{i}.md",
                      f"---\ntitle: Note {i}\naliases: [N{i % 7}]\n---\n"
                      f"[[Note {(i * 7) % 30}]] [[N{i % 5}]] [[note{(i + 3) % 30}]] [[dup]]\n")
    for i in range(3):
        project.write(f"f{i}/dup.md", "")
    sources = project.sources()
    reference = None
    for seed in range(4):
        shuffled = list(sources)
        random.Random(seed).shuffle(shuffled)
        compiled = project.compiler().compile(shuffled)
        snapshot = ({p: targets(compiled, p) for p in compiled.links},
                    [str(d) for d in compiled.diagnostics])
        if reference is None:
            reference = snapshot
        assert snapshot == reference


def test_compiler_reused_keeps_results_identical(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "[[b]]\n")
    project.write("b.md", "# B\n")
    compiler: Compiler = project.compiler()
    first = compiler.compile(project.sources())
    second = compiler.compile(project.sources())
    assert targets(first, "a.md") == targets(second, "a.md")


def test_answers_kept_for_every_note_are_what_each_note_gets(project) -> None:  # type: ignore[no-untyped-def]
    # Resolver.find keeps an answer per target when no linking note could change it;
    # from any note, in any order, it must answer as a resolver that remembers nothing.
    project.write("BeliefNetwork.toml", 'id = "main"\n')
    project.write("team/BeliefNetwork.toml", 'id = "team"\n')
    project.write("team/spec.md", "---\nid: spec\naliases: [Shared]\n---\n")
    project.write("spec-main.md", "---\nid: spec\n---\n")
    project.write("solo.md", "---\nid: solo-id\ntitle: Unique Title\naliases: [Shared]\n---\n")
    for folder in ("a", "a/b", "team"):
        project.write(f"{folder}/dup.md", "")
    project.write("secret.md", "---\ndraft: true\ntitle: Secret Plan\n---\n")
    project.write("a/b/sub/note.md", "")
    project.write("guide/index.md", "")
    compiled = project.compile()
    resolver = compiled.link_resolver.resolver
    notes = list(compiled.documents.values())
    wanted = ["spec", "solo-id", "dup", "DUP", "Unique Title", "Shared", "Secret Plan", "nothing",
              "sub/note", "../dup", "dup.md", "guide", "bid:00000000", " spec "]
    for order in (notes, notes[::-1]):
        remembering = Resolver(resolver.published, resolver.drafts)
        for target in wanted:
            for note in order:
                fresh = Resolver(resolver.published, resolver.drafts).find(target, note)
                assert remembering.find(target, note) == fresh, (target, note.path)

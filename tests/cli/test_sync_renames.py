"""``beliefbase sync`` fixes links to notes renamed, moved or retitled since a compile."""

from __future__ import annotations

from tests.cli.test_check import run

A = "0190f0a0-0000-7000-8000-00000000000a"
B = "0190f0a0-0000-7000-8000-00000000000b"


def test_links_follow_a_renamed_note(project) -> None:  # type: ignore[no-untyped-def]
    project.write("notes/old.md", f"---\nbid: {A}\ntitle: Old title\n---\n# Old\n\n## Part\n")
    source = (f"---\r\nbid: {B}\r\nrel: \"[[old]]\"\r\n---\r\n"
              "See [[old]], [[old|shown]] and [[old#Part]].\r\n"
              "![[old]] and [[Old title]] and [x](notes/old.md#part) "
              "and [y](<notes/old.md>).")
    project.write("index.md", source.encode())
    assert run(project, "check").exit_code == 0  # records what each link means
    (project.docs / "notes/old.md").unlink()
    project.write("moved/New name.md",
        f"---\nbid: {A}\ntitle: Renamed\n---\n# Old\n\n## Part\n")
    result = run(project, "sync", "--check")
    assert result.exit_code == 1, result.stderr
    assert result.stdout == "docs/index.md: would fix 8 links\n"
    assert (project.docs / "index.md").read_bytes() == source.encode()
    diff = run(project, "sync", "--diff")
    assert diff.exit_code == 1 and "+See [[New name]]" in diff.stdout
    result = run(project, "sync")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "docs/index.md: fixed 8 links\n"
    assert (project.docs / "index.md").read_bytes() == (
        f"---\r\nbid: {B}\r\nrel: \"[[New name]]\"\r\n---\r\n"
        "See [[New name]], [[New name|shown]] and [[New name#Part]].\r\n"
        "![[New name]] and [[New name]] and [x](moved/New%20name.md#part) "
        "and [y](<moved/New name.md>).").encode()
    assert run(project, "sync", "--check").exit_code == 0  # idempotent
    assert run(project, "check").stdout == ""


def test_a_build_between_rename_and_sync_loses_nothing(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", f"---\nbid: {A}\n---\n# Topic\n")
    project.write("index.md", f"---\nbid: {B}\n---\n[[a]] and [t](a.md)\n")
    assert project.build().error is None  # `mkdocs build` records too
    (project.docs / "a.md").rename(project.docs / "b.md")
    assert project.build().error is None  # the links are broken in this build's record
    assert project.build(serve=True).error is None  # ... and `mkdocs serve`'s (on exit)
    assert run(project, "sync").stdout == "docs/index.md: fixed 2 links\n"
    assert (project.docs / "index.md").read_text() == f"---\nbid: {B}\n---\n[[b]] and [t](b.md)\n"


def test_the_shortest_form_that_resolves_to_the_note_alone(project) -> None:  # type: ignore[no-untyped-def]
    project.write("x/a.md", f"---\nbid: {A}\n---\n")
    project.write("y/new.md", "---\nbid: 0190f0a0-0000-7000-8000-0000000000cc\n---\n")
    project.write("index.md", f"---\nbid: {B}\n---\n[[a]] [[x/a|A]]\n")
    run(project, "check")
    (project.docs / "z").mkdir()
    (project.docs / "x/a.md").rename(project.docs / "z/new.md")  # "new" is ambiguous now
    assert run(project, "sync").exit_code == 0
    assert (project.docs / "index.md").read_text() == (
        f"---\nbid: {B}\n---\n[[z/new]] [[z/new|A]]\n")


def test_a_note_without_bid_is_followed_only_by_its_content(project) -> None:  # type: ignore[no-untyped-def]
    project.write("moved.md", "# First\n")
    project.write("edited.md", "# Second\n")
    project.write("index.md", f"---\nbid: {B}\n---\n[[moved]] [[edited]]\n")
    run(project, "sync")  # first sync: every note gets its bid written ...
    for name in ("moved", "edited"):  # ... but take them out again: provisional BIDs
        file = project.docs / f"{name}.md"
        file.write_text(file.read_text().split("---\n", 2)[2])
    run(project, "check")
    (project.docs / "moved.md").rename(project.docs / "gone.md")  # same bytes: followed
    (project.docs / "edited.md").unlink()
    project.write("changed.md", "# Second\n\nmore\n")  # moved and edited: cannot be followed
    result = run(project, "sync", "--check")
    assert "docs/index.md: would fix 1 link, " not in result.stdout
    run(project, "sync")
    assert (project.docs / "index.md").read_text() == (
        f"---\nbid: {B}\n---\n[[gone]] [[edited]]\n")


def test_a_link_that_now_finds_another_note_follows_the_moved_one(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", f"---\nbid: {A}\ntitle: Topic\n---\n")
    project.write("index.md", f"---\nbid: {B}\n---\n[[a]] [[Topic]]\n")
    run(project, "check")
    (project.docs / "a.md").rename(project.docs / "b.md")
    project.write("x/a.md", "---\ntitle: Topic\nbid: 0190f0a0-0000-7000-8000-0000000000cc\n---\n")
    assert run(project, "sync").exit_code == 0  # [[a]] and [[Topic]] now find x/a.md
    text = (project.docs / "index.md").read_text()
    assert text == f"---\nbid: {B}\n---\n[[b]] [[Topic]]\n"


def test_an_unwritable_link_is_reported_and_no_record_means_no_fix(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", f"---\nbid: {A}\n---\n")
    project.write("index.md", f"---\nbid: {B}\n---\n[[a]] [t](a.md)\n")
    run(project, "check")
    (project.docs / "a.md").rename(project.docs / "a#1.md")  # '#' cannot be in a wikilink
    result = run(project, "sync")
    assert result.stdout == "docs/index.md: fixed 2 links\n"
    assert (project.docs / "index.md").read_text().endswith("[[bid:0000000a]] [t](a%231.md)\n")
    (project.docs / "a#1.md").rename(project.docs / "a.md")
    project.write("index.md", f"---\nbid: {B}\n---\n[t](a.md)\n")
    run(project, "check")
    (project.docs / "a.md").rename(project.docs / "z.md")
    assert run(project, "sync", "--check").exit_code == 1
    (project.root / ".beliefbase" / "link-record.json").unlink()
    assert run(project, "sync", "--check").exit_code == 0  # nothing known: nothing to fix


def test_a_link_no_text_can_reach_is_reported_and_kept(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "no bid, no heading\n")
    project.write("index.md", f"---\nbid: {B}\n---\n[[a|A]] [t](a.md)\n")
    run(project, "check")
    (project.docs / "a.md").rename(project.docs / "a#1\x1b[2J.md")  # same bytes: followed
    result = run(project, "sync")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["docs/a#1\\u001b[2J.md: recorded bid",
                                          "docs/index.md: fixed 1 link"]
    assert result.stderr == (
        "docs/index.md:4:1: [[a]] meant docs/a#1\\u001b[2J.md, which moved or was "
        "retitled; no link text resolves to it alone: fix it by hand\n")
    assert (project.docs / "index.md").read_text() == (
        f"---\nbid: {B}\n---\n[[a|A]] [t](a%231%1B%5B2J.md)\n")



def test_the_first_sync_writes_bids_that_renames_right_after_keep(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# Topic\n")
    project.write("index.md", "[[a]] [t](a.md)\n")
    assert run(project, "sync").exit_code == 0  # records provisional BIDs, then writes them
    text = (project.docs / "a.md").read_text()
    (project.docs / "a.md").unlink()  # no compile between: renamed and edited at once
    project.write("sub/b.md", text.replace("# Topic", "# Edited"))
    assert run(project, "sync").stdout == "docs/index.md: fixed 2 links\n"
    assert (project.docs / "index.md").read_text().endswith("\n---\n[[b]] [t](sub/b.md)\n")

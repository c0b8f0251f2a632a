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

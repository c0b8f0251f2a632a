"""The build log shows at most LOG_PER_FILE diagnostics of one code per file."""

from __future__ import annotations

from beliefbase import diagnostics as diag


def test_capped_keeps_order_and_counts_the_rest() -> None:
    found = [diag.make("unresolved-link", "docs/a.md", i, 1, f"m{i}") for i in range(1, 8)]
    found.insert(2, diag.make("unresolved-anchor", "docs/a.md", 99, 1, "other"))
    found.append(diag.make("unresolved-link", "docs/b.md", 1, 1, "b"))
    got = [(d.file, d.line, d.code, more) for d, more in diag.capped(found, 3)]
    assert got == [("docs/a.md", 1, "unresolved-link", 0), ("docs/a.md", 2, "unresolved-link", 0),
                   ("docs/a.md", 99, "unresolved-anchor", 0),
                   ("docs/a.md", 3, "unresolved-link", 4), ("docs/b.md", 1, "unresolved-link", 0)]


def test_a_flood_of_broken_links_is_summed_up(project) -> None:  # type: ignore[no-untyped-def]
    from beliefbase.site.build import LOG_PER_FILE

    project.write("index.md", " ".join(f"[[missing {i}]]" for i in range(LOG_PER_FILE + 30)) + "\n")
    result = project.build()
    lines = [line for line in result.lines if ": unresolved-link:" in line]
    assert len(lines) == LOG_PER_FILE
    assert lines[-1].endswith("(and 30 more unresolved-link in this file: all in "
                              "_beliefbase/diagnostics.json)")
    import json

    data = json.loads((result.site / "_beliefbase" / "diagnostics.json").read_text())
    assert len(data["diagnostics"]) == LOG_PER_FILE + 30

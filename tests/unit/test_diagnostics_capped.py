"""The build log never floods: a code met many times shows its first few and a count."""

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
    from beliefbase.site.log import FIRST

    project.write("index.md", " ".join(f"[[missing {i}]]" for i in range(80)) + "\n")
    result = project.build(strict=True)
    assert result.error is not None  # --strict still fails: the lines are warnings
    lines = [line for line in result.all_lines if "unresolved-link" in line]
    assert len(lines) == FIRST + 2  # the first few, the code's count, the summary
    assert all(line.startswith("WARNING ") for line in lines[:FIRST + 1])
    assert lines[FIRST] == ("WARNING beliefbase: unresolved-link: 80 in all, the first 5 above "
                            "(every one is in _beliefbase/diagnostics.json; `beliefbase check` "
                            "prints them all)")
    import json

    data = json.loads((result.site / "_beliefbase" / "diagnostics.json").read_text())
    assert len(data["diagnostics"]) == 80

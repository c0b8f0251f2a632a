"""A link to a file that exists but is left out of the site (issue 29) says which
exclusion left it out, instead of "create the note": the file is there."""

from __future__ import annotations

import json

from ..conftest import Project, diagnostic_lines


def _vault(project: Project) -> None:
    obsidian = project.docs / ".obsidian"
    obsidian.mkdir()
    (obsidian / "app.json").write_text(json.dumps({"userIgnoreFilters": ["Archive/"]}))
    (obsidian / "templates.json").write_text(json.dumps({"folder": "Meta/Templates"}))
    project.write("Meta/Templates/Daily.md", "# {{title}}\n")
    project.write("Archive/Old.md", "# Old\n")
    project.write("private/Secret.md", "# Secret\n")
    project.write("scratch/Idea.md", "# Idea\n")
    project.write("templates/Tpl.md", "# Tpl\n")
    project.write(".trash/Dot.md", "# Dot\n")  # Obsidian never sees it: unresolved


#: link -> what the message names (the file, and the exclusion)
CASES = {
    "[[Daily]]": ("docs/Meta/Templates/Daily.md", "Obsidian's templates folder 'Meta/Templates/'"),
    "[[Archive/Old]]": ("docs/Archive/Old.md", "Obsidian's excluded files ('Archive/'"),
    "[[Secret]]": ("docs/private/Secret.md", "exclude_docs in mkdocs.yml"),
    "[[Idea]]": ("docs/scratch/Idea.md", "the beliefbase plugin's exclude option"),
    "![[Tpl]]": ("docs/templates/Tpl.md", "MkDocs, which leaves out the docs folder's "
                 "templates/"),
}


def _check(lines: list[str]) -> None:
    assert len(lines) == len(CASES), lines
    for line, (link, (path, why)) in zip(lines, CASES.items(), strict=True):
        assert line.startswith("INFO docs/index.md:"), line
        assert f"link-to-unpublished: {link} names {path}, which is excluded from the site " \
               f"by " in line and why in line, line
        assert "create the" not in line


def test_the_build_says_which_exclusion(project: Project) -> None:
    _vault(project)
    project.write("index.md", "".join(f"- {link}\n" for link in CASES))
    result = project.build(strict=True, exclude_docs="private/\n",
                           plugins=[{"beliefbase": {"exclude": ["scratch/"]}}])
    assert result.error is None  # info: --strict passes
    assert diagnostic_lines(result, "unresolved-link") == []
    _check(diagnostic_lines(result, "link-to-unpublished"))


def test_check_says_so_too(project: Project) -> None:
    from beliefbase.cli import main
    from click.testing import CliRunner

    _vault(project)
    project.write("index.md", "".join(f"- {link}\n" for link in CASES))
    project.write_config(exclude_docs="private/\n",
                         plugins=[{"beliefbase": {"exclude": ["scratch/"]}}])
    out = CliRunner().invoke(main, ["check", "--json", "-f", str(project.root / "mkdocs.yml")])
    found = json.loads(out.stdout)["diagnostics"]
    _check([f"INFO {d['file']}:{d['line']}:{d['column']}: {d['code']}: {d['message']}"
            for d in found if d["code"] == "link-to-unpublished"])


def test_a_missing_note_is_still_unresolved(project: Project) -> None:
    _vault(project)
    project.write("index.md", "[[Nowhere]] [[Dot]]\n")
    result = project.build()
    assert [line.split(": ")[1] for line in diagnostic_lines(result)] == [
        "unresolved-link", "unresolved-link"]


def test_serve_tells_when_a_file_is_excluded_later(project: Project) -> None:
    """The compiler of ``mkdocs serve`` words the message again when the set of
    excluded files changes (a template added after the link was written)."""
    from beliefbase.compile import Compiler
    from beliefbase.project import load_project

    obsidian = project.docs / ".obsidian"
    obsidian.mkdir()
    (obsidian / "templates.json").write_text(json.dumps({"folder": "T"}))
    project.write("index.md", "[[Daily]]\n")
    project.write_config()
    sources, options = load_project(project.root / "mkdocs.yml")
    compiler = Compiler(options)
    first = compiler.compile(sources, {})
    assert [d.code for d in first.diagnostics] == ["unresolved-link"]
    second = compiler.compile(sources, {"T/Daily.md": "Obsidian's templates folder"})
    assert [d.code for d in second.diagnostics] == ["link-to-unpublished"]
    third = compiler.compile(sources, {})
    assert [d.code for d in third.diagnostics] == ["unresolved-link"]

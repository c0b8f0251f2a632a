"""``compile.vault_files``: one shared record per published file for both query
engines (issue 27), made once per build and only when a query needs it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from beliefbase import bases
from beliefbase import dataview as dv
from beliefbase.compile.vault_files import link_path

from tests.conftest import Project


def _vault(project: Project) -> None:
    project.write("a/Note.md", "---\ntags: [proj/x]\n---\n# Note\n\nSee [[b/Other]] "
                  "%%a comment the site leaves out%% and [[#Note]].\n\n![[pic.png]]\n")
    project.write("b/Other.md", "# Other\n\n[[Note]]\n")
    project.write("Secret.md", "---\ndraft: true\n---\n# Secret\n\n[[Note]]\n")
    project.write("pic.png", b"\x89PNG\r\n\x1a\n")


def test_one_record_per_published_file_made_on_first_use(project: Project) -> None:
    _vault(project)
    compiled = project.compile()
    files = compiled.vault_files()
    assert files._files is None  # nothing made until a query reads it
    assert list(files.files) == ["a/Note.md", "b/Other.md", "pic.png"]  # never the draft
    note = files.files["a/Note.md"]
    assert note.tags == ("proj/x",) and note.meta is compiled.documents["a/Note.md"].meta
    assert note.links is compiled.links["a/Note.md"]  # the compile's own, not a copy
    assert [(f.link.target, link_path(f), f.link.is_embed, f.is_asset) for f in note.links] == [
        ("b/Other", "b/Other.md", False, False), ("", "a/Note.md", False, False),
        ("pic.png", "pic.png", True, True)]
    assert note.backlinks == ("b/Other.md",)
    assert files.files is files.files  # made once
    assert files.resolve("Other", "a/Note.md") == "b/Other.md"


def test_both_engines_read_the_shared_records(project: Project) -> None:
    _vault(project)
    compiled = project.compile()
    files = compiled.vault_files()
    docs = Path(compiled.options.docs_dir)
    records = bases.records_from_files(files)
    index = dv.index_from_files(files, lambda p: (docs / p).read_text(encoding="utf-8"))
    made = files.files
    for path in ("a/Note.md", "b/Other.md"):
        assert records.by_path[path].size == made[path].size == index.by_path[path].size
        assert records.by_path[path].tags == made[path].tags
    assert records.by_path["a/Note.md"].links[0] is records.by_path["a/Note.md"].links[0]


def test_dataview_file_size_is_the_files_size(project: Project) -> None:
    """A bug found on the way: Dataview's ``file.size`` was the length of the note's
    text with its ``%%comments%%`` left out, not the file's size (Bases' and
    Obsidian's ``file.size``)."""
    _vault(project)
    compiled = project.compile()
    docs = Path(compiled.options.docs_dir)
    index = dv.index_from_compiled(compiled, lambda p: dv_text(docs / p))
    size = dv.evaluate_inline("this.file.size", index, "a/Note.md",
                              now=dt.datetime(2025, 1, 1))
    assert size == (docs / "a/Note.md").stat().st_size


def dv_text(path: Path) -> str:
    from beliefbase.codecs.markdown import note_text

    return note_text(path.read_bytes())[0]  # as the site reads it: comments left out

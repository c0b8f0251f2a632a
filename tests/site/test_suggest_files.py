""""Did you mean" for links to files names files, never notes (issue 16, point 13)."""

from __future__ import annotations

from tests.conftest import diagnostic_lines


def test_asset_link_suggests_files_not_notes(project) -> None:  # type: ignore[no-untyped-def]
    project.write("movie.md", "# movie\n")
    project.write("clip-intro.mp4", b"\0")
    project.write("index.md", "# Home\n\nWatch [[movie.mp4]] and ![[clip-intro.mp5]].\n")
    lines = diagnostic_lines(project.build(),
                             "unresolved-link")
    assert len(lines) == 2, lines
    movie, clip = lines
    assert "[[movie.mp4]] matches no file" in movie and "did you mean" not in movie
    assert "did you mean 'clip-intro.mp4'?" in clip


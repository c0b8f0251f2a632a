"""A small vault of projects, people and notes that the query tests ask about."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from beliefbase.query.run import QueryEngine

from tests.conftest import Project

VAULT = {
    "alpha.md": """\
        ---
        schema: Project
        status: active
        priority: 3
        owner: "[[ada]]"
        due: 2026-03-01
        tags: [work]
        ---
        # Alpha
        Links [[beta]] and [[ada]].
        """,
    "beta.md": """\
        ---
        schema: Project
        status: active
        priority: 7
        tags: [work, urgent]
        ---
        # Beta
        See [[gamma]].
        """,
    "gamma.md": """\
        ---
        schema: Project
        status: done
        priority: 1
        ---
        # Gamma
        """,
    "ada.md": """\
        ---
        schema: Person
        ---
        # Ada Lovelace
        """,
    "loose.md": "# Loose\nNo links here.\n",
    "draft.md": "---\ndraft: true\nschema: Project\nstatus: active\n---\n# Secret draft\n",
    "hidden.md": "---\npublish: false\nschema: Project\nstatus: active\n---\n# Hidden\n",
}


def write_vault(project: Project, extra: dict[str, str] | None = None) -> None:
    for path, text in {**VAULT, **(extra or {})}.items():
        project.write(path, text)


@pytest.fixture
def engine(project: Project) -> Iterator[QueryEngine]:
    write_vault(project)
    yield QueryEngine(project.compile().graph)

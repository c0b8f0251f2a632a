"""The ``beliefbase entity`` commands (SPEC §7, §10): explicit edits of one mention.

``register(group, docs_dir_of)`` adds the ``entity`` group to the ``beliefbase``
click group; ``docs_dir_of(config_file)`` gives the project's docs_dir (the
root no edit may leave).  Each command edits FILE through ``writeback.edit_file``
(atomic, byte-preserving, refusing changed files and paths outside docs_dir);
``--check`` exits 1 when something would change, ``--diff`` prints the change;
both write nothing.  Exit 1 on a refused edit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..terminal import echo, printable
from ..writeback import EditError, edit_file
from .edit import Action, mention_edit

DocsDirOf = Callable[[str | None], Path]
F = TypeVar("F", bound=Callable[..., Any])


def _common(func: F) -> F:
    for option in reversed((
        click.option("-f", "--config-file", "config_file", default=None,
                     type=click.Path(exists=True, dir_okay=False),
                     help="Path to mkdocs.yml (default: ./mkdocs.yml)."),
        click.option("--check", is_flag=True,
                     help="Write nothing; exit 1 if the file would change."),
        click.option("--diff", is_flag=True, help="Write nothing; print a unified diff."),
        click.option("--nth", type=click.IntRange(min=1), default=None,
                     help="Which occurrence of MENTION in the note (1 = first); needed "
                     "when it occurs more than once."),
    )):
        func = option(func)
    return func


def _run(docs_dir_of: DocsDirOf, config_file: str | None, file: str, action: Action,
         mention: str, check: bool, diff: bool, **kwargs: Any) -> None:
    docs_dir = docs_dir_of(config_file)
    path = Path(file)
    if not path.exists() and (docs_dir / file).exists():
        path = docs_dir / file
    try:
        transform = mention_edit(action, mention, **kwargs)
    except EditError as exc:
        raise click.ClickException(printable(str(exc))) from exc
    result = edit_file(path, transform, check=check, diff=diff, root=docs_dir, label=file)
    if result.diff:
        echo(result.diff, nl=False)
    if result.refused:
        echo(printable(f"refused: {result.refused}"), err=True)
        sys.exit(1)
    if result.written:
        echo(printable(f"{file}: {action} {mention}"), err=True)
    elif not result.changed:
        echo(printable(f"{file}: already so, nothing to change"), err=True)
    if check and result.changed:
        sys.exit(1)


def register(group: click.Group, docs_dir_of: DocsDirOf) -> None:
    """Add ``entity change-type|alias|create|reject`` to ``group``."""

    @group.group("entity")
    def entity() -> None:
        """Tag, alias or reject one mention of an entity in a note (edits the note)."""

    @entity.command("change-type")
    @click.argument("file")
    @click.argument("mention")
    @click.argument("type_", metavar="TYPE")
    @_common
    def change_type(file: str, mention: str, type_: str, config_file: str | None,
                    check: bool, diff: bool, nth: int | None) -> None:
        """Give MENTION in FILE the type TYPE: it becomes #MENTION:TYPE (an existing
        tag is retyped, an alias keeps its canonical)."""
        _run(docs_dir_of, config_file, file, "change-type", mention, check, diff,
             type_=type_, nth=nth)

    @entity.command("create")
    @click.argument("file")
    @click.argument("mention")
    @click.argument("type_", metavar="TYPE")
    @_common
    def create(file: str, mention: str, type_: str, config_file: str | None,
               check: bool, diff: bool, nth: int | None) -> None:
        """Make MENTION in FILE a new entity of type TYPE: #MENTION:TYPE."""
        _run(docs_dir_of, config_file, file, "create", mention, check, diff,
             type_=type_, nth=nth)

    @entity.command("alias")
    @click.argument("file")
    @click.argument("mention")
    @click.argument("canonical")
    @click.argument("type_", metavar="TYPE")
    @_common
    def alias(file: str, mention: str, canonical: str, type_: str,
              config_file: str | None, check: bool, diff: bool, nth: int | None) -> None:
        """Make MENTION in FILE an alias of the entity CANONICAL (a key like
        CORY_GILFORD, or its name): MENTION:ALIAS_OF_CANONICAL:TYPE."""
        _run(docs_dir_of, config_file, file, "alias", mention, check, diff,
             type_=type_, canonical=canonical, nth=nth)

    @entity.command("reject")
    @click.argument("file")
    @click.argument("mention")
    @_common
    def reject(file: str, mention: str, config_file: str | None, check: bool, diff: bool,
               nth: int | None) -> None:
        """Say MENTION in FILE is not an entity in this note: MENTION:REJECT_ENTITY."""
        _run(docs_dir_of, config_file, file, "reject", mention, check, diff, nth=nth)

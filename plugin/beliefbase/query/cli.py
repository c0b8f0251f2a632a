"""``beliefbase query "CYPHER"``: the build's query engine on the command line.

The command line (``cli.py``) hands it the project's compile the way every
command gets it (``project``): the same graph the build would load, run under
the same sandbox and limits.  A failing query exits 1 with the engine's
message, never a traceback.

``--dataview "QUERY"`` and ``--base FILE [--view NAME]`` answer with the vault's
own query languages instead (issue 27): ``cli.py`` passes the function that runs
them (``site/dashboard_cli.py``; the engines are above this layer).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..terminal import echo
from .run import QueryEngine, QueryResult, is_node, json_default

FORMATS = ("table", "json", "csv")

#: mkdocs.yml (None: ./mkdocs.yml) -> an engine over its compiled graph, with the
#: plugin's query limits
EngineLoader = Callable[[Path | None], QueryEngine]
#: (mkdocs.yml, a Dataview query, a .base file, a view name) -> (columns, rows of text)
VaultAnswer = Callable[[Path | None, str | None, Path | None, str | None],
                       tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]]


def register(group: click.Group, load: EngineLoader,
             vault_answer: VaultAnswer | None = None) -> None:
    """Add ``query`` to the ``beliefbase`` command group; ``vault_answer`` runs
    ``--dataview`` and ``--base``."""
    group.add_command(_query_command(load, vault_answer))


def _query_command(load: EngineLoader, vault_answer: VaultAnswer | None) -> click.Command:
    @click.command("query")
    @click.argument("cypher", required=False)
    @click.option("--dataview", "dataview", default=None, metavar="QUERY",
                  help="Run a Dataview query (DQL) instead of Cypher.")
    @click.option("--base", "base_file", default=None,
                  type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help="Show a view of an Obsidian .base file instead of running Cypher.")
    @click.option("--view", "view", default=None, metavar="NAME",
                  help="With --base: the view to show (default: its first).")
    @click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                  show_default=True,
                  help="table: aligned text; json: a list of records; csv: a header and rows.")
    @click.option("-f", "--config-file", "config_file",
                  type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
                  help="Path to mkdocs.yml (default: ./mkdocs.yml).")
    def query_command(cypher: str | None, dataview: str | None, base_file: Path | None,
                      view: str | None, fmt: str, config_file: Path | None) -> None:
        """Run a read-only Cypher query over the compiled graph (SPEC §8), or a
        Dataview query (--dataview), or a view of a base (--base)."""
        if len([x for x in (cypher, dataview, base_file) if x is not None]) != 1:
            raise click.UsageError("give one of: a Cypher query, --dataview QUERY, "
                                   "--base FILE")
        if view is not None and base_file is None:
            raise click.UsageError("--view needs --base")
        if cypher is None:
            if vault_answer is None:
                raise click.ClickException("--dataview and --base are not available here")
            columns, rows = vault_answer(config_file, dataview, base_file, view)
            echo(FORMATTERS[fmt](QueryResult(columns, rows)), nl=False)
            return
        result = load(config_file).run(cypher)
        if result.error is not None:
            raise click.ClickException(result.error)
        echo(FORMATTERS[fmt](result), nl=False)

    return query_command


def as_table(result: QueryResult) -> str:
    cells = [[cell_text(v) for v in row] for row in result.rows]
    widths = [max([len(c), *(len(row[i]) for row in cells)])
              for i, c in enumerate(result.columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(result.columns, widths, strict=True)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.append(f"({len(result.rows)} row{'' if len(result.rows) == 1 else 's'})")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def as_json(result: QueryResult) -> str:
    return json.dumps(result.records(), indent=1, ensure_ascii=False,
                      default=json_default) + "\n"


def as_csv(result: QueryResult) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows([cell_text(v) for v in row] for row in result.rows)
    return out.getvalue()


def cell_text(value: Any) -> str:
    """One value as text: a node by its title, a list joined, nothing for null."""
    if value is None:
        return ""
    if is_node(value):
        return str(value.get("title", value["bid"]))
    if isinstance(value, list):
        return ", ".join(cell_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).replace("\n", " ")


FORMATTERS: dict[str, Callable[[QueryResult], str]] = {
    "table": as_table, "json": as_json, "csv": as_csv}

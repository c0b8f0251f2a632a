"""``beliefbase query "CYPHER"``: the build's query engine on the command line.

``--dataview "QUERY"`` and ``--base FILE [--view NAME]`` answer with the vault's
own query languages instead (issue 27): ``cli.py`` gives ``register`` the function
that runs them (``site/dashboard_cli.py``; the engines are above this layer).

It compiles the project the way every command does (``project``), loads the
same graph the build would and runs one query under the same sandbox and
limits.  A failing query exits 1 with the engine's message, never a traceback.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..project import compile_project, load_config, plugin_config
from ..terminal import echo
from .run import QueryEngine, QueryResult, is_node, json_default

FORMATS = ("table", "json", "csv")
#: (compiled, dataview query, base file, view name) -> (columns, rows of text)
VaultAnswer = Callable[[Any, str | None, Path | None, str | None],
                       tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]]
_VAULT: list[VaultAnswer] = []


def register(group: click.Group, vault_answer: VaultAnswer | None = None) -> None:
    """Add ``query`` to the ``beliefbase`` command group; ``vault_answer`` runs
    ``--dataview`` and ``--base``."""
    if vault_answer is not None:
        _VAULT[:] = [vault_answer]
    group.add_command(query_command)


@click.command("query")
@click.argument("cypher", required=False)
@click.option("--dataview", "dataview", default=None, metavar="QUERY",
              help="Run a Dataview query (DQL) instead of Cypher.")
@click.option("--base", "base_file", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Show a view of an Obsidian .base file instead of running Cypher.")
@click.option("--view", "view", default=None, metavar="NAME",
              help="With --base: the view to show (default: its first).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table: aligned text; json: a list of records; csv: a header and rows.")
@click.option("-f", "--config-file", "config_file",
              type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Path to mkdocs.yml (default: ./mkdocs.yml).")
def query_command(cypher: str | None, dataview: str | None, base_file: Path | None,
                  view: str | None, fmt: str, config_file: Path | None) -> None:
    """Run a read-only Cypher query over the compiled graph (SPEC §8), or a Dataview
    query (--dataview), or a view of a base (--base)."""
    asked = [x for x in (cypher, dataview, base_file) if x is not None]
    if len(asked) != 1:
        raise click.UsageError("give one of: a Cypher query, --dataview QUERY, --base FILE")
    if view is not None and base_file is None:
        raise click.UsageError("--view needs --base")
    config = load_config(config_file)
    options = plugin_config(config)
    compiled = compile_project(config_file, use_cache=True)
    if cypher is None:
        if not _VAULT:
            raise click.ClickException("--dataview and --base are not available here")
        columns, rows = _VAULT[0](compiled, dataview, base_file, view)
        echo(FORMATTERS[fmt](QueryResult(columns, rows)), nl=False)
        return
    engine = QueryEngine(compiled.graph, timeout=float(options.query_timeout),
                         max_rows=options.query_max_rows, display=compiled.options.display)
    result = engine.run(cypher)
    if result.error is not None:
        raise click.ClickException(result.error)
    echo(FORMATTERS[fmt](result), nl=False)


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

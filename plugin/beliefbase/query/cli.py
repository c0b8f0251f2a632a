"""``beliefbase query "CYPHER"``: the build's query engine on the command line.

The command line (``cli.py``) hands it the project's compile the way every
command gets it (``project``): the same graph the build would load, run under
the same sandbox and limits.  A failing query exits 1 with the engine's
message, never a traceback.
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


def register(group: click.Group, load: EngineLoader) -> None:
    """Add ``query`` to the ``beliefbase`` command group."""
    group.add_command(_query_command(load))


def _query_command(load: EngineLoader) -> click.Command:
    @click.command("query")
    @click.argument("cypher")
    @click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                  show_default=True,
                  help="table: aligned text; json: a list of records; csv: a header and rows.")
    @click.option("-f", "--config-file", "config_file",
                  type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
                  help="Path to mkdocs.yml (default: ./mkdocs.yml).")
    def query_command(cypher: str, fmt: str, config_file: Path | None) -> None:
        """Run a read-only Cypher query over the compiled graph (SPEC §8)."""
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

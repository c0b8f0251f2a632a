"""``beliefbase query --dataview "…"`` and ``--base FILE [--view NAME]`` (issue 27):
a Dataview query or a base's view, over the compile, as rows of text.

The command lives in ``query/cli.py`` (Cypher), a layer below the engines; it is
given ``answer`` by ``cli.py``.  Values are shown as text the way the engines
show them (``dataview.format_text``, ``bases.format_value``); a failing query or
base raises ``click.ClickException`` with the engine's message and place.
"""

from __future__ import annotations

from pathlib import Path

import click

from .. import bases
from .. import dataview as dv
from ..codecs.markdown import note_text
from ..compile.compiled import Compiled
from ..ids import SrcPath
from .dashboards import build_moment

Rows = tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]


def answer(compiled: Compiled, dataview: str | None, base_file: Path | None,
           view: str | None) -> Rows:
    """(columns, rows) of a Dataview query or of a base's view (its first: ``view``
    None)."""
    docs_dir = Path(compiled.options.docs_dir)

    def read_text(path: str) -> str:
        try:
            return note_text((docs_dir / path).read_bytes())[0]
        except OSError:
            return ""

    if dataview is not None:
        index = dv.index_from_compiled(compiled, read_text)  # links as the compile reads them
        try:
            found = dv.run(dataview, index, None, now=build_moment())
        except dv.DataviewError as error:
            raise click.ClickException(f"dataview-error: {error}") from None
        return _dataview_rows(found)
    assert base_file is not None
    try:
        text = base_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(f"cannot read {base_file}: {error}") from None
    shown = str(base_file)
    base = bases.parse_base(text, shown)
    try:
        this_path = SrcPath(base_file.resolve().relative_to(docs_dir.resolve()).as_posix())
    except ValueError:
        this_path = None
    records = bases.records_from_compiled(compiled)
    this = records.by_path.get(this_path) if this_path is not None else None
    result = bases.evaluate(base, view, records, this, now=build_moment())
    errors = [e for e in result.errors if e.level == "error"]
    if errors or result.view is None and view is not None:
        raise click.ClickException("\n".join(str(e) for e in errors) or
                                   f"{shown}: no view named {view!r}")
    columns = tuple(c.header for c in result.columns)
    rows = tuple(tuple(bases.format_value(v) for v in row.cells) for row in result.rows)
    return columns, rows


def _dataview_rows(result: dv.DataviewResult) -> Rows:
    if result.kind == "task":
        rows = tuple((entry.path, f"[{entry.item.status or ' '}] {entry.item.text}")
                     for group in result.tasks for entry in group.tasks)
        return ("File", "Task"), rows
    headers = list(result.headers)
    if result.kind != "table":
        headers = (["Group" if result.grouped else "File"] if result.show_id else []) + (
            ["Date" if result.kind == "calendar" else "Value"]
            if any(r.values for r in result.rows) else [])
    out = []
    for row in result.rows:
        values = ((row.id,) if result.show_id else ()) + row.values
        out.append(tuple(dv.format_text(v) for v in values[:len(headers)]))
    return tuple(headers), tuple(out)

"""Loading the graph (``query/load.py``): the CSV files ``COPY`` reads, written a column
at a time, hold every value as it was; and a build without a query never imports the
engine."""

from __future__ import annotations

import csv
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from beliefbase.query.load import _write_csv

from tests.conftest import Project


class Kind(StrEnum):
    ONE = "One"


#: Columns a CSV writer gets wrong easily: delimiters, quotes, line breaks, empty
#: text beside None, a StrEnum, numbers with None.
COLUMNS: list[list[Any]] = [
    [0, 1, 2, 3, 4, 5],
    ["plain", "a, b", 'say "hi"', "one\ntwo", "cr\rhere", ""],
    [None, "x", None, '"', ",", "tail"],
    [Kind.ONE, Kind.ONE, "Two", Kind.ONE, "Two", Kind.ONE],
    [1, None, 3, -4, None, 10**12],
    [1.5, None, 2.0, None, 0.1, 3.0],
]


def test_the_csv_reads_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    broken = _write_csv(path, ["a", "b", "c", "d", "e", "f"], COLUMNS)
    assert broken  # a line break: the engine's serial reader
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["a", "b", "c", "d", "e", "f"]
    expected = [["" if v is None else str(v) for v in row] for row in zip(*COLUMNS, strict=True)]
    assert rows[1:] == expected


def test_none_and_empty_cells_stay_bare(tmp_path: Path) -> None:
    """A quoted empty cell (``""``) is an empty text to the engine; a bare one is null, as
    ``csv.writer`` wrote them (documented: an empty text reads as null)."""
    path = tmp_path / "t.csv"
    assert not _write_csv(path, ["k", "s"], [[0, 1, 2], ["", None, "x"]])
    assert path.read_text(encoding="utf-8") == "k,s\n0,\n1,\n2,x\n"
    _write_csv(path, ["k", "s"], [[0, 1, 2], ["", None, "x,y"]])
    assert path.read_text(encoding="utf-8") == 'k,s\n0,\n1,\n2,"x,y"\n'


def test_hostile_values_through_the_engine(project: Project) -> None:
    from beliefbase.query.run import QueryEngine

    project.write("a.md", '---\nschema: Odd\nnote: ""\nother: "x, \\"y\\"\\r\\nz"\n---\n'
                  "# A, \"quoted\"\n[[b|shown, \"here\"]]\n")
    project.write("b.md", "---\nschema: Odd\nnote: plain\n---\n# B\n")
    engine = QueryEngine(project.compile().graph)
    result = engine.run("MATCH (o:Odd) RETURN o.title, o.note, o.other ORDER BY o.title")
    assert result.error is None, result.error
    assert result.rows == (('A, "quoted"', None, 'x, "y"\r\nz'), ("B", "plain", None))
    links = engine.run("MATCH (:Odd)-[r:links_to]->(:Odd) RETURN r.display, r.line, r.file")
    assert links.rows == (('shown, "here"', 7, "a.md"),)


#: Builds the project in a fresh interpreter, then says which engines were imported:
#: ladybug (Cypher), lark (the Bases and Dataview grammars).
_BUILD = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
config = load_config(sys.argv[1])
config.plugins.on_startup(command="build", dirty=False)
build(config)
config.plugins.on_shutdown()
print("ladybug" in sys.modules, "lark" in sys.modules)
"""


@pytest.mark.parametrize(("page", "imported"), [
    ("# Home\n\nNo query here; the word query is not one.\n", "False False"),
    ("# Home\n\n```query\nMATCH (n:Note) RETURN n.title\n```\n", "True False"),
    # no base, no Dataview: a database, a baseline, `a = b` in code, x.based
    ("# Home\n\n```\nx = 1\n```\n\nBaseline of the database; `a = b` and x.based.\n",
     "False False"),
    ("# Home\n\n```base\nviews:\n  - type: table\n```\n", "False True"),
    ("# Home\n\n> ``` dataview\n> LIST\n> ```\n", "False True"),
    ("# Home\n\nNow `= this.file.name`.\n", "False True"),
])
def test_a_build_without_a_query_never_imports_the_engine(project: Project, page: str,
                                                          imported: str) -> None:
    project.write("index.md", page)
    project.write("other.md", "# Other\n\n[[index]]\n")
    config = project.write_config()
    done = subprocess.run([sys.executable, "-c", _BUILD, str(config)], capture_output=True,
                          text=True, check=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == imported

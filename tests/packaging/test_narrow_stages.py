"""The compile's stages read narrow inputs (issue 30): a stage function takes the
fields it reads (the documents, the options, the sidecars, ...) rather than the
whole ``Linked`` or ``Compiled`` record, unless it reads most of it.  The driver
(``compile/compiler.py``, ``compile/compiled.py``) hands each its fields."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "plugin" / "beliefbase"
#: the compile stages' packages, and the compile's own stage modules
STAGES = ("graph", "entities", "beliefs", "query", "compile")
DRIVER = {"compile/compiler.py", "compile/compiled.py"}
RECORDS = {"Linked", "Compiled"}

#: stage functions that read the whole record, and why: this list may only shrink
WHOLE = {
    # the graph reads the published documents, their links, the networks, the
    # documents its links point to and the options: most of ``Linked``
    ("graph/build.py", "build"),
}


def takes_a_record(path: Path) -> set[str]:
    """The functions in ``path`` with a parameter annotated as a whole record."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                note = arg.annotation
                text = ast.unparse(note) if note is not None else ""
                if text.strip("'\"") in RECORDS:
                    found.add(node.name)
    return found


def test_stages_read_narrow_inputs() -> None:
    whole = set()
    for package in STAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name not in DRIVER:
                whole |= {(name, function) for function in takes_a_record(path)}
    assert whole - WHOLE == set(), "a stage reads the whole record: give it its fields"
    assert WHOLE - whole == set(), "narrowed: take it off WHOLE"


def test_the_check_sees_a_whole_record(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def a(c: Linked, n: int) -> None: ...\n"
                      "def b(c: 'Compiled') -> None: ...\n"
                      "def c(documents: dict) -> None: ...\n")
    assert takes_a_record(module) == {"a", "b"}

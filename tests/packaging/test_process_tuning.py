"""Process tuning lives in one place (``plugin/beliefbase/process/``): no module of
the compile, the site or the speed-ups imports ``gc`` or calls ``malloc_trim``, so
they read as the pipeline (issue 30).  The benchmarks measure with ``gc`` as they
need."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "plugin" / "beliefbase"
#: where the collector and the heap may be tuned
ALLOWED = (ROOT / "process", ROOT / "bench")


def tuning(path: Path) -> list[str]:
    """What of ``gc`` or ``malloc_trim`` the module at ``path`` reaches for."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name == "gc"]
        elif isinstance(node, ast.ImportFrom) and node.module == "gc":
            found.append("from gc")
        elif isinstance(node, ast.Attribute) and node.attr == "malloc_trim":
            found.append("malloc_trim")
    return found


def test_only_process_tunes_the_collector_and_the_heap() -> None:
    outside = {str(p.relative_to(ROOT)): found for p in sorted(ROOT.rglob("*.py"))
               if not any(p.is_relative_to(a) for a in ALLOWED) and (found := tuning(p))}
    assert outside == {}


def test_the_check_sees_it(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import gc\nimport ctypes\nctypes.CDLL(None).malloc_trim(0)\n")
    assert tuning(module) == ["gc", "malloc_trim"]

"""Every module imports on its own, first: no import cycle depends on which module a
caller happens to import first (``query.load`` before ``project`` once failed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import beliefbase

# each module of the compile's layers imported first into a fresh ``beliefbase``
# (third-party modules stay loaded: about ten seconds)
_SCRIPT = """
import importlib, pkgutil, sys
import beliefbase
LOWER = {"codecs", "builder", "graph", "beliefs", "entities", "query", "project", "cli",
         "frozen", "ids", "diagnostics"}
names = sorted(m.name for m in pkgutil.walk_packages(beliefbase.__path__, "beliefbase.")
               if ".bench" not in m.name and ".speedups" not in m.name
               and m.name.split(".")[1] in LOWER)
failed = []
for name in names:
    for loaded in [k for k in sys.modules if k == "beliefbase" or k.startswith("beliefbase.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append(f"{name}: {type(error).__name__}: {error}")
print(len(names))
print("\\n".join(failed))
"""


def test_every_module_imports_first() -> None:
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          cwd=Path(beliefbase.__file__).parent.parent, timeout=300, check=True)
    count, *failed = done.stdout.strip().split("\n")
    assert int(count) > 60
    assert not [line for line in failed if line], failed

"""The builder: sources -> parsed -> identified -> indexed -> resolved -> checked.

``builder.compiler.Compiler(options, cache_dir).compile(sources)`` returns a
``Compiled``.  Nothing here imports MkDocs.  The compiler is not imported here: it
runs the later stages (``graph``, ``entities``, ``beliefs``, ``query.schema``), which
import this package's parts, so importing it here would make every one of them an
import cycle when imported first.
"""

from __future__ import annotations

from .compiled import Compiled
from .options import COMPILER_VERSION, CompileOptions
from .sources import SourceFile, discover, make_sources

__all__ = [
    "COMPILER_VERSION",
    "CompileOptions",
    "Compiled",
    "SourceFile",
    "discover",
    "make_sources",
]

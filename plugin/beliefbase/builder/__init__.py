"""The builder: sources -> parsed -> identified -> indexed -> resolved -> checked.

``Compiler(options, cache_dir).compile(sources)`` returns a ``Compiled``.
Nothing here imports MkDocs.
"""

from __future__ import annotations

from .compiled import Compiled
from .compiler import Compiler
from .options import COMPILER_VERSION, CompileOptions
from .sources import SourceFile, discover, make_sources

__all__ = [
    "COMPILER_VERSION",
    "CompileOptions",
    "Compiled",
    "Compiler",
    "SourceFile",
    "discover",
    "make_sources",
]

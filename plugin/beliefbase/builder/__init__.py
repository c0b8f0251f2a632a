"""The builder: sources -> parsed -> identified -> indexed -> resolved -> checked.

The driver that runs these stages and the later ones (``graph``, ``entities``,
``beliefs``, the schema checks) is ``compile.Compiler``, above them all: nothing
here imports a later stage.  Nothing here imports MkDocs.
"""

from __future__ import annotations

from .compiled import Linked
from .options import COMPILER_VERSION, CompileOptions
from .sources import SourceFile, discover, make_sources

__all__ = [
    "COMPILER_VERSION",
    "CompileOptions",
    "Linked",
    "SourceFile",
    "discover",
    "make_sources",
]

"""The compile: ``Compiler(options, cache_dir).compile(sources) -> Compiled``.

The driver sits above the stages it runs: the builder's (parse, identify,
index, resolve, check: ``builder/``), then the entities (``entities/``), the
graph (``graph/``), the beliefs (``compile/beliefs.py``, the verifier in
``beliefs/``) and the declared node types (``schema.py``).
"""

from __future__ import annotations

from .compiler import Compiler

__all__ = ["Compiler"]

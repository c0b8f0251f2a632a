"""The benchmark: generated vaults and the harness behind ``python -m beliefbase.bench``.

* ``vault`` / ``notes`` / ``prose`` - the deterministic vault generator
  (``generate_vault(root, n, seed)``), reused by tests and scale checks;
* ``run`` - the harness: for each size, the Python-Markdown floor, compile-only,
  incremental re-compile, cold and warm ``mkdocs build``, plain Material;
* ``child`` - runs one measured build in a fresh process and reads its peak memory;
* ``worker`` - the in-process measurements, run in a fresh child each;
* ``report`` - the table on stdout, ``--markdown`` and ``--json``.

Nothing here runs in the test suite except the generator's own tests.
"""

from __future__ import annotations

from .vault import ensure_vault, generate_vault, read_manifest

__all__ = ["ensure_vault", "generate_vault", "read_manifest"]

"""beliefbase: compile a linked Markdown knowledge base into an MkDocs site.

The pipeline is visible in the package layout:

* ``codecs``  – read one source file (Markdown, TOML, BeliefNetwork.toml) into a
  frozen ``ParsedDoc``: frontmatter, headings, blocks, links with line/column.
* ``builder`` – discover sources, parse them (cached by content hash), index
  identities and resolve every link in several passes; produces ``Compiled``.
* ``graph``   – the typed graph (nodes, WeightKinds, edges with payloads), its
  invariants, the event stream between two compiles, ``graph.json``.
* ``site``    – everything the reader sees: Python-Markdown extensions, panels,
  generated pages, escaping.

``plugin.py`` adapts MkDocs events to these stages; ``cli.py`` drives the same
compiler from the command line.  Nothing under ``codecs``, ``builder`` or
``graph`` imports MkDocs.
"""

from __future__ import annotations

__version__ = "0.1.0"

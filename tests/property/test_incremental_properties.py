"""Property: a compiler that lived through any sequence of edits equals a fresh one.

``mkdocs serve`` keeps one ``Compiler`` and re-resolves, re-indexes and
re-checks only what an edit can affect (backlinks per target, embed walks per
page, duplicate blocks per note, symlink scan per folder).  Hypothesis edits a
small vault of notes that link, embed and alias each other; after every step
the long-lived compiler must report exactly what a new one reports.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml
from beliefbase.builder import Compiler, make_sources
from beliefbase.project import load_project
from hypothesis import given, settings
from hypothesis import strategies as st

# "sub/alpha" shares a base name with "alpha" (ambiguous); "sub/index" is a folder note
NAMES = ["alpha", "beta", "gamma", "delta", "sub/alpha", "sub/index"]
PIECES = st.sampled_from([
    "[[alpha]]", "[[beta#Part]]", "![[gamma]]", "![[delta#Part]]", "![[alpha#^b1]]",
    "[[Nick]]", "[[Title Beta]]", "[[nowhere]]", "![[beta]]", "[[gamma#^b1]]", "[[sub]]",
    "[[sub/alpha]]", "[[same]]", "[[Title Betta]]", "[[gamm]]",  # dangling: "did you mean" follows the names
    "\n## Part\n", "\nline ^b1\n", "\nagain ^b1\n", "\n```\n[[alpha]]\n```\n", "text",
])
FRONT = st.sampled_from(["", "---\ntitle: Title Beta\n---\n", "---\naliases: [Nick]\n---\n",
                         "---\nid: same\n---\n", "---\npublish: false\n---\n"])
EDIT = st.tuples(st.sampled_from(NAMES), st.booleans(), FRONT, st.lists(PIECES, max_size=6))


def snapshot(compiled) -> tuple[object, ...]:  # type: ignore[no-untyped-def]
    backlinks = {t: [(rl.source, rl.link.line, rl.link.column) for rl in rls]
                 for t, rls in compiled.backlinks.items()}
    links = {p: [(rl.link.line, rl.link.column, rl.status, rl.target, rl.anchor) for rl in rls]
             for p, rls in compiled.links.items()}
    return ([str(d) for d in compiled.diagnostics], list(backlinks.items()), links,
            sorted(compiled.documents))


@settings(max_examples=60, deadline=None)
@given(st.lists(EDIT, min_size=1, max_size=8))
def test_long_lived_compiler_equals_a_fresh_one(edits) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs = root / "docs"
        (docs / "sub").mkdir(parents=True)
        config = {"site_name": "P", "theme": {"name": "material"},
                  "plugins": [{"beliefbase": {"cache_dir": str(root / "cache")}}]}
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
        for name in NAMES:
            (docs / f"{name}.md").write_text(f"# {name}\n\n## Part\n\nSee [[alpha]].\n")
        sources, options = load_project(root / "mkdocs.yml")
        live = Compiler(options)
        live.compile(sources)
        stamp = 1_700_000_000_000_000_000
        for name, delete, front, pieces in edits:
            file = docs / f"{name}.md"
            if delete and file.exists():
                file.unlink()
            else:
                file.write_text(front + f"# {name}\n\n" + " ".join(pieces) + "\n")
                stamp += 1_000_000_000  # a new mtime even when the size stays the same
                os.utime(file, ns=(stamp, stamp))
            sources = make_sources(docs, sorted(p.relative_to(docs).as_posix()
                                                for p in docs.rglob("*.md")))
            assert snapshot(live.compile(sources)) == snapshot(Compiler(options).compile(sources))

"""Property: unlinked mentions found with a cache that lived through any sequence of
edits equal those found from scratch, and the targets said to have changed are
exactly those whose mentions differ or quote an edited note.

``mkdocs serve`` keeps one ``MentionCache``: a note's findings are kept while its
scan, its links and the owners of the names it contains stay the same, and only
the targets of what changed get their list made again.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml
from beliefbase.builder import Compiler, make_sources
from beliefbase.project import load_project
from beliefbase.site.dependents import changed_mentions
from beliefbase.site.mentions import MentionCache, find_mentions
from hypothesis import given, settings
from hypothesis import strategies as st

NAMES = ["alpha", "beta", "gamma", "delta"]
TITLES = st.sampled_from(["", "---\ntitle: Red Planet\n---\n", "---\ntitle: Blue Moon\n---\n",
                          "---\naliases: [Red Planet]\n---\n", "---\naliases: [DRF]\n---\n",
                          "---\npublish: false\n---\n"])
PROSE = st.sampled_from([
    "The Red Planet rises.", "A blue moon tonight.", "See [[Red Planet]].", "About alpha.",
    "Gamma and delta.", "DRF again.", "the drf", "[[beta]] says Beta is red planet.",
    "`Red Planet` in code.", "Nothing here."])
EDIT = st.tuples(st.sampled_from(NAMES), st.booleans(), TITLES, st.lists(PROSE, max_size=4))


@settings(max_examples=60, deadline=None)
@given(st.lists(EDIT, min_size=1, max_size=8))
def test_kept_mentions_equal_fresh_ones(edits) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs = root / "docs"
        docs.mkdir()
        config = {"site_name": "P", "theme": {"name": "material"},
                  "plugins": [{"beliefbase": {"cache_dir": str(root / "cache")}}]}
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
        for name in NAMES:
            (docs / f"{name}.md").write_text(f"# {name.title()}\n\nThe Red Planet and Gamma.\n")
        sources, options = load_project(root / "mkdocs.yml")
        compiler = Compiler(options)

        def body(doc):  # type: ignore[no-untyped-def]
            return (docs / doc.path).read_text(encoding="utf-8")[doc.parsed.body_offset:]

        cache = MentionCache()
        before = find_mentions(compiler.compile(sources), body, cache)
        stamp = 1_700_000_000_000_000_000
        for name, delete, front, prose in edits:
            file = docs / f"{name}.md"
            if delete and file.exists():
                file.unlink()
            else:
                file.write_text(front + f"# {name.title()}\n\n" + " ".join(prose) + "\n")
                stamp += 1_000_000_000
                os.utime(file, ns=(stamp, stamp))
            sources = make_sources(docs, sorted(p.relative_to(docs).as_posix()
                                                for p in docs.rglob("*.md")))
            compiled = compiler.compile(sources)
            after = find_mentions(compiled, body, cache)
            assert after == find_mentions(compiled, body, MentionCache())
            changed = compiled.changed | compiled.removed
            assert changed_mentions(before, after, changed, cache.touched_since(before)) == (
                changed_mentions(before, after, changed))
            before = after

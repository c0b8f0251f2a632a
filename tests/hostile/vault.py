"""A vault where each file alone used to end the whole build (issue 20).

``write_vault(project)`` writes it into the ``project`` fixture (tests/conftest.py)
and returns, per hostile file, the path the diagnostic must name and its code.
The pathological inputs are sized to fail as they did (a ``RecursionError``
in Python-Markdown, a pickle that recurses) in well under a second each.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

#: 3,000 nested strong or emphasis runs: Python-Markdown's tree walks recurse past
#: Python's limit (toc's ``iterparent``) unless the paragraph is shown as text
DEEP_STRONG = ("# Deep strong\n\n*before*\n\n" + "**a " * 3000 + "x" + " b**" * 3000
               + "\n\n*after*\n")
DEEP_EMPHASIS = "# Deep emphasis\n\n" + "*a " * 3000 + "x" + " b*" * 3000 + "\n"
#: frontmatter nested 3,000 lists deep: parsed, but pickle recurses on it
DEEP_META = "---\nx: " + "[" * 3000 + "]" * 3000 + "\n---\n# Deep meta\n\nText.\n"
LONG = "t" * 300  # longer than a file name may be (255 bytes)

FINE = {
    "index.md": "# Home\n\nSee [[ok]], [[Deep strong]] and [[Deep emphasis]].\n",
    "ok.md": "# Ok\n\nA fine note that embeds a bad one:\n\n![[deep-strong]]\n",
    "stars.md": "# Stars\n\n" + "*" * 20000 + "\n\n" + "*a" * 10000 + "\n",
}


def write_vault(project: Any) -> dict[str, tuple[str, str]]:
    """Write the hostile vault; return {name: (file the diagnostic names, code)}."""
    for path, text in FINE.items():
        project.write(path, text, dedent=False)
    project.write("deep-strong.md", DEEP_STRONG, dedent=False)
    project.write("deep-emphasis.md", DEEP_EMPHASIS, dedent=False)
    project.write("deep-meta.md", DEEP_META, dedent=False)
    project.write("bad-template.md", "---\ntemplate: ../../../etc/passwd\n---\n# T\n")
    project.write("missing-template.md", "---\ntemplate: nowhere.html\n---\n# T\n")
    project.write("bad-icon.md", "---\nicon: ../../../etc/passwd\n---\n# I\n")
    project.write("missing-icon.md", "---\nicon: material/no-such-icon\n---\n# I\n")
    project.write("aliased.md", "---\naliases: [sitemap.xml, 404.html, ok, index.html, "
                                f"{LONG}]\ntags: [{LONG}]\n---\n# Aliased\n")
    docs: Path = project.docs
    (docs / os.fsdecode(b"bad-\xff-name.md")).write_bytes(b"# Bad name\n")
    (docs / "sub").mkdir()
    (docs / "sub" / "inner.md").write_text("# Inner\n", encoding="utf-8")
    os.symlink("..", docs / "sub" / "loop")
    os.mkfifo(docs / "pipe.md")
    os.mkfifo(docs / "pipe.png")
    os.mkfifo(docs / "pipe.beliefs.json")  # the belief layer finds sidecars itself
    (docs / ".obsidian").mkdir()
    os.mkfifo(docs / ".obsidian" / "app.json")
    (project.root / "src").mkdir()
    os.mkfifo(project.root / "src" / "pipe.py")
    project.write("documents-pipe.md", "---\nsource_refs:\n  - path: src/pipe.py\n"
                                       "    sha256: '" + "0" * 64 + "'\n---\n# Documents a pipe\n")
    write_long_topic(project)
    return {
        "deep-strong": ("docs/deep-strong.md:5", "nesting-depth"),
        "deep-emphasis": ("docs/deep-emphasis.md:3", "nesting-depth"),
        "bad-template": ("docs/bad-template.md", "bad-template"),
        "missing-template": ("docs/missing-template.md", "bad-template"),
        "bad-name": ("docs/bad-\\xff-name.md", "unreadable-file"),
        "loop": ("docs/sub/loop", "unreadable-file"),
        "pipe": ("docs/pipe.md", "unreadable-file"),
        "pipe-asset": ("docs/pipe.png", "unreadable-file"),
        "pipe-sidecar": ("docs/pipe.beliefs.json", "unreadable-file"),
        "pipe-obsidian": ("docs/.obsidian/app.json", "obsidian-settings"),
    }


def write_long_topic(project: Any) -> None:
    """A belief whose topic is longer than a file name (its page's path is cut)."""
    quote = "the sky is blue"
    project.write("sky.md", "# Sky\n\nThe sky is blue.[^1]\n\n[^1]: A source.\n")
    project.write("sky.beliefs.json", json.dumps({
        "page": "sky.md",
        "beliefs": [{"belief_id": "b-sky-1", "statement": "The sky is blue.", "topic": LONG,
                     "footnote_ids": ["1"], "provenance_ids": ["p1"],
                     "asserted_at": "2026-01-01"}],
        "provenance": [{"id": "p1", "raw_path": "sky.md", "quote": quote,
                        "quote_hash": hashlib.sha256(quote.encode()).hexdigest()}],
    }))
    raw = project.root / "raw"
    raw.mkdir(exist_ok=True)
    (raw / "sky.md").write_text("Observed: the sky is blue.\n", encoding="utf-8")
    os.mkfifo(raw / "pipe.md")  # never opened: only regular raw files are read


def snapshot(root: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every entry under ``root`` (not following symlinks) -> a hash of what it is.

    Regular files by content, symlinks by target, pipes and folders by kind;
    ``skip``: top-level names left out (the site, the cache, mkdocs.yml).
    """
    found: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        if rel_folder == ".":
            dirs[:] = [d for d in dirs if d not in skip]
            files = [f for f in files if f not in skip]
        for name in dirs + files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                found[rel] = "link:" + os.readlink(path)
            elif os.path.isdir(path):
                found[rel] = "dir"
            elif os.path.isfile(path):
                found[rel] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            else:
                found[rel] = "special"
    return found

"""The third hostile-input round (issue 32): a vault with each payload of its findings.

``write_vault(project)`` writes it and returns, per bad file, the file:line the
build must name and the diagnostic code.  The same vault serves the build tests
(``test_round3.py``) and the browser test (``tests/browser/test_hostile_theme.py``),
which looks for the markup payloads in the live DOM.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

#: markup and attribute payloads: none may become an element, an attribute or a dialog
STATUS = 'new" data-bbx="1'
FOLDER = "<svg onload=alert(1)> x"
FOLDER_ATTR = 'f" data-bbx="2'
ALIASES = ("<img src=x onerror=alert(2)>", '"><svg onload=alert(3)>', "nul\x00alias")
TAG = "<img src=x onerror=alert(4)>"
#: the attribute every payload tries to add
INJECTED = "data-bbx"

_QUOTE = "the sky is blue"


def _belief(ident: str, **fields: str) -> dict[str, Any]:
    return {"belief_id": ident, "statement": "The sky is blue.", "topic": "sky",
            "footnote_ids": ["1"], "provenance_ids": ["p1"], "asserted_at": "2026-01-01",
            **fields}


def write_vault(project: Any) -> dict[str, tuple[str, str]]:
    """Write the vault; return {name: (file:line the diagnostic names, its code)}."""
    project.write("index.md", "# Home\n\n[[marked]] [[sky]] [[In folder]]\n")
    project.write("marked.md", "---\nstatus: '" + STATUS.replace("'", "''") + "'\n"
                  "aliases:\n" + "".join(f"  - {json.dumps(a)}\n" for a in ALIASES)
                  + f"tags: [{json.dumps(TAG)}]\n---\n# Marked\n\nA hostile note.\n",
                  dedent=False)
    project.write("status-markup.md", "---\nstatus: '<b onmouseover=alert(5)>'\n---\n"
                  "# Status markup\n", dedent=False)
    project.write(f"{FOLDER}/inner.md", "# In folder\n")
    project.write(f"{FOLDER_ATTR}/other.md", "# Other folder\n")
    # lone UTF-16 surrogates in each of the four fields the SQLite index stores
    project.write("sky.md", "# Sky\n\nThe sky is blue.[^1]\n\n[^1]: A source.\n")
    beliefs = [_belief("b-sky-ok")]
    for field in ("belief_id", "statement", "subject", "topic"):
        value = "b-\ud800" if field == "belief_id" else f"bad \udc00 {field}"
        beliefs.append(_belief(f"b-{field}", **{field: value}))
    text = json.dumps({"page": "sky.md", "beliefs": beliefs, "provenance": [
        {"id": "p1", "raw_path": "sky.md", "quote": _QUOTE,
         "quote_hash": hashlib.sha256(_QUOTE.encode()).hexdigest()}]}, indent=1)
    project.write("sky.beliefs.json", text, dedent=False)
    raw = project.root / "raw"
    raw.mkdir(exist_ok=True)
    (raw / "sky.md").write_text("Observed: the sky is blue.\n", encoding="utf-8")
    # frontmatter never closed (and a rule Obsidian shows as one: no diagnostic)
    project.write("open-yaml.md", "---\ntitle: Open\ntags: [a]\n\n# Open YAML\n\nText.\n",
                  dedent=False)
    project.write("open-toml.md", '+++\ntitle = "Open"\n\n# Open TOML\n\nText.\n',
                  dedent=False)
    project.write("rule.md", "---\n\nA paragraph under a rule.\n", dedent=False)
    # user files where the plugin makes pages and files
    for name in ("beliefs", "wanted", "graph"):
        project.write(f"{name}.md", f"# My own {name}\n\nMINE-{name}\n")
    project.write("recent/index.md", "# My own recent\n\nMINE-recent\n")
    project.write("_beliefbase/redirects.json", '{"mine": true}')
    project.write("_beliefbase/beliefbase.js", "/* MINE */\n")
    lines = [n for n, line in enumerate(text.splitlines(), 1) if "\\ud800" in line
             or "\\udc00" in line]
    assert len(lines) == 4
    return {
        **{f"surrogate {n}": (f"docs/sky.beliefs.json:{line}", "bad-sidecar")
           for n, line in enumerate(lines)},
        "open yaml": ("docs/open-yaml.md:1", "bad-frontmatter"),
        "open toml": ("docs/open-toml.md:1", "bad-frontmatter"),
        **{f"{name} page": (f"docs/{name}.md:1", "page-conflict")
           for name in ("beliefs", "wanted", "graph")},
        "recent page": ("docs/recent/index.md:1", "page-conflict"),
        "data json": ("docs/_beliefbase/redirects.json:1", "page-conflict"),
        "data script": ("docs/_beliefbase/beliefbase.js:1", "page-conflict"),
    }

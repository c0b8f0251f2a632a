"""The second generator: ``gen_vault.py``, files named by title as Obsidian users name them.

``../shared/tools/gen_vault.py N OUT --seed S`` (beside this checkout; not part
of the repository) writes notes only.  ``ensure_gen_vault`` runs it into
``docs/`` and writes the configs the harness measures with, as a user of the
plugin would have them:

* ``mkdocs.yml``: ``plugins: [search, beliefbase]`` and no
  ``markdown_extensions``: the plugin adds its defaults (``markdown_policy``);
* ``mkdocs.plain.yml`` (the floor's and Material's): ``plugins: [search]`` with
  those same extensions listed, so the floor converts with what the build
  converts with (MkDocs adds ``toc``, ``tables`` and ``fenced_code`` to both).

``bench-vault.json`` names the generator, size and seed (no link counts: the
script does not count them), written last, so a vault with one is complete.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..markdown_policy import DEFAULTS
from .vault import CONFIG, MANIFEST, PLAIN_CONFIG, clear_vault, config_text, read_manifest

GENERATOR = "gen_vault"
SCRIPT = Path("shared") / "tools" / "gen_vault.py"


def find_script(start: Path | None = None) -> Path | None:
    """``shared/tools/gen_vault.py`` in a folder above ``start`` (this checkout), or None."""
    here = (start or Path(__file__)).resolve()
    return next((p / SCRIPT for p in here.parents if (p / SCRIPT).is_file()), None)


def gen_vault_dir(out: Path, n: int, seed: int) -> Path:
    """Where the harness keeps gen_vault.py's vault of ``n`` notes for ``seed``."""
    return Path(out) / f"gen-vault-{n}-s{seed}"


def plugin_defaults_yaml() -> str:
    """The plugin's default Markdown extensions as a ``markdown_extensions:`` list."""
    lines = ["markdown_extensions:"]
    for name, options, _replaced_by in DEFAULTS:
        if not options:
            lines.append(f"  - {name}")
            continue
        lines.append(f"  - {name}:")
        lines.extend(f"      {key}: {json.dumps(value)}" for key, value in options.items())
    return "\n".join(lines) + "\n"


def ensure_gen_vault(root: Path, n: int, seed: int, script: Path) -> tuple[Path, bool]:
    """Reuse the vault at ``root`` if ``script`` made it for (n, seed); else make it.

    Returns the vault folder and whether it was reused."""
    manifest = read_manifest(root)
    if manifest and (manifest.get("generator"), manifest.get("notes"), manifest.get("seed")) \
            == (GENERATOR, n, seed):
        return Path(root), True
    clear_vault(root)
    done = subprocess.run([sys.executable, str(script), str(n), str(root / "docs"),
                           "--seed", str(seed)], capture_output=True, text=True, check=True)
    title = f"gen_vault.py: {n:,} notes (seed {seed})"
    (root / CONFIG).write_text(config_text(title, ["search", "beliefbase"], ""),
                               encoding="utf-8")
    (root / PLAIN_CONFIG).write_text(
        config_text(title + ", plain", ["search"], plugin_defaults_yaml()), encoding="utf-8")
    (root / MANIFEST).write_text(json.dumps(_manifest(n, seed, done.stdout), indent=2) + "\n",
                                 encoding="utf-8")
    return Path(root), False


def _manifest(n: int, seed: int, printed: str) -> dict[str, Any]:
    said: Any = {}
    for line in reversed(printed.splitlines()):
        try:
            said = json.loads(line)
            break
        except ValueError:
            continue
    return {"generator": GENERATOR, "notes": n, "seed": seed,
            "script_says": said if isinstance(said, dict) else {}}

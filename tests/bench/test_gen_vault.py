"""The harness runs gen_vault.py's vaults (``--generator gen_vault``): notes from the
script, configs from us, the floor converting with the plugin's default extensions."""

from __future__ import annotations

from pathlib import Path

from beliefbase.bench.__main__ import parser
from beliefbase.bench.gen_vault import ensure_gen_vault, find_script, gen_vault_dir
from beliefbase.bench.vault import CONFIG, PLAIN_CONFIG, explorer_config, nonav_config
from beliefbase.config import BeliefbaseConfig
from beliefbase.markdown_policy import missing_defaults
from mkdocs.config import load_config

#: what gen_vault.py does, small: ``SCRIPT N OUT --seed S`` writes N notes, prints JSON
STUB = '''import json, os, sys
n, out, seed = int(sys.argv[1]), sys.argv[2], sys.argv[4]
os.makedirs(os.path.join(out, "Folder"), exist_ok=True)
for i in range(n):
    with open(os.path.join(out, "Folder", f"Note {i}.md"), "w") as f:
        f.write(f"# Note {i}\\n\\nSee [[Note {(i + 1) % n}]], seed {seed}.\\n")
print(json.dumps({"notes": n}))
'''


def _stub(tmp_path: Path) -> Path:
    script = tmp_path / "gen_vault.py"
    script.write_text(STUB, encoding="utf-8")
    return script


def test_configs_and_reuse(tmp_path: Path) -> None:
    script = _stub(tmp_path)
    root = gen_vault_dir(tmp_path / "out", 5, 42)
    vault, reused = ensure_gen_vault(root, 5, 42, script)
    assert not reused and len(list((vault / "docs").rglob("*.md"))) == 5
    ours = (vault / CONFIG).read_text(encoding="utf-8")
    assert "  - beliefbase\n" in ours and "markdown_extensions" not in ours
    # the variants the harness measures with are made from these
    assert "explorer: true" in explorer_config(vault).read_text(encoding="utf-8")
    assert "custom_dir: nonav-theme" in nonav_config(vault).read_text(encoding="utf-8")
    assert ensure_gen_vault(root, 5, 42, script) == (vault, True)
    assert ensure_gen_vault(root, 6, 42, script)[1] is False  # another size: made again
    assert len(list((vault / "docs").rglob("*.md"))) == 6


def test_the_floor_converts_with_the_plugins_defaults(tmp_path: Path) -> None:
    vault, _ = ensure_gen_vault(tmp_path / "v", 3, 1, _stub(tmp_path))
    plain = load_config(str(vault / PLAIN_CONFIG))
    options = BeliefbaseConfig()
    options.load_dict({})
    # nothing left for the plugin to add: the floor has what the build converts with
    assert missing_defaults(plain.markdown_extensions, options) == ()
    bare = load_config(str(vault / CONFIG))
    assert missing_defaults(bare.markdown_extensions, options) != ()


def test_command_line_and_script_lookup(tmp_path: Path) -> None:
    args = parser().parse_args(["--generator", "gen_vault", "--gen-vault", str(tmp_path)])
    assert args.generator == "gen_vault" and args.gen_vault == tmp_path
    assert parser().parse_args([]).generator == "bench"
    (tmp_path / "shared" / "tools").mkdir(parents=True)
    (tmp_path / "shared" / "tools" / "gen_vault.py").write_text("", encoding="utf-8")
    assert find_script(tmp_path / "checkout" / "plugin" / "x.py") == (
        tmp_path / "shared" / "tools" / "gen_vault.py")

"""The benchmark's vault generator: deterministic, the promised link mix, fake links in code."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from beliefbase.bench.notes import LINK_MIX, plan_vault
from beliefbase.bench.vault import ensure_vault, generate_vault, read_manifest

N = 200

_FENCE = re.compile(r"^```[^\n]*\n.*?^```$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_WIKILINK = re.compile(r"(?P<bang>!?)\[\[(?P<inner>[^\[\]\n]+)\]\]")
_FRONTMATTER = re.compile(r"\A---\n(?P<yaml>.*?)\n---\n", re.DOTALL)


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_vault(tmp_path_factory.mktemp("vault"), N, seed=7)


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _notes(vault: Path) -> dict[str, str]:
    return {
        p.relative_to(vault / "docs").as_posix(): p.read_text("utf-8")
        for p in sorted((vault / "docs").rglob("*.md"))
    }


def _links_outside_code(text: str) -> list[re.Match[str]]:
    body = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return list(_WIKILINK.finditer(body))


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    first = generate_vault(tmp_path / "first", 60, seed=7)
    again = generate_vault(tmp_path / "again", 60, seed=7)
    other = generate_vault(tmp_path / "other", 60, seed=8)
    assert _digest(again) == _digest(first)
    assert _digest(other) != _digest(first)


def test_layout_folders_frontmatter_and_configs(vault: Path) -> None:
    notes = _notes(vault)
    assert len(notes) == N
    depths = Counter(path.count("/") for path in notes)
    assert set(depths) <= {2, 3} and depths[2] > 0 and depths[3] > 0  # 2-3 folder levels
    per_folder = Counter(path.rsplit("/", 1)[0] for path in notes)
    assert 15 <= N / len(per_folder) <= 25
    sizes = [len(text.encode()) for text in notes.values()]
    assert 4000 <= sum(sizes) / len(sizes) <= 6000
    with_aliases = 0
    for text in notes.values():
        match = _FRONTMATTER.match(text)
        assert match, text[:80]
        meta = yaml.safe_load(match["yaml"])
        assert isinstance(meta["title"], str) and isinstance(meta["tags"], list)
        with_aliases += "aliases" in meta
        assert re.search(r"^## ", text, re.MULTILINE)
    assert 0.15 * N <= with_aliases <= 0.45 * N
    ours = yaml.safe_load((vault / "mkdocs.yml").read_text())
    plain = yaml.safe_load((vault / "mkdocs.plain.yml").read_text())
    assert ours["plugins"] == ["search", "beliefbase"] and plain["plugins"] == ["search"]
    assert ours["theme"] == plain["theme"] == {"name": "material", "font": False}
    assert ours["markdown_extensions"] == plain["markdown_extensions"]
    assert ours["docs_dir"] == plain["docs_dir"] == "docs"


def test_link_mix_matches_the_manifest_and_the_weights(vault: Path) -> None:
    manifest = read_manifest(vault)
    assert manifest is not None
    links = manifest["links"]
    total = sum(links.values())
    for kind, weight in LINK_MIX:
        assert abs(100 * links[kind] / total - weight) < 3.5, (kind, links[kind], total)
    found: Counter[str] = Counter()
    for text in _notes(vault).values():
        in_note = _links_outside_code(text)
        wikilinks = [m for m in in_note if not m["bang"]]
        assert 5 <= len(wikilinks) <= 15
        found["wikilinks"] += len(wikilinks)
        found["embeds"] += len(in_note) - len(wikilinks)
    assert found["wikilinks"] == manifest["wikilinks"] == total
    assert found["embeds"] == manifest["embeds"] > 0
    assert manifest["markdown_links"] > 0
    assert len(manifest["duplicate_stems"]) >= 2


def test_fake_links_in_code_spans_and_fences(vault: Path) -> None:
    manifest = read_manifest(vault)
    assert manifest is not None
    in_fences = in_spans = 0
    for text in _notes(vault).values():
        for fence in _FENCE.findall(text):
            in_fences += len(re.findall(r"\[\[Code Sample \d+\]\]", fence))
        in_spans += len(re.findall(r"`\[\[Code Sample \d+\]\]`", text))
        assert not any("Code Sample" in m["inner"] for m in _links_outside_code(text))
    assert in_fences == manifest["fake_links"]["fence"] > 0
    assert in_spans == manifest["fake_links"]["code_span"] > 0


def test_targets_exist_except_dangling_and_shared_stems_are_ambiguous(vault: Path) -> None:
    notes = _notes(vault)
    by_name: dict[str, set[str]] = {}
    headings: dict[str, set[str]] = {}
    blocks: dict[str, set[str]] = {}
    for path, text in notes.items():
        meta = yaml.safe_load(_FRONTMATTER.match(text)["yaml"])  # type: ignore[index]
        stem = path.rsplit("/", 1)[-1].removesuffix(".md")
        for name in [meta["title"], stem, *meta.get("aliases", [])]:
            by_name.setdefault(name.casefold(), set()).add(path)
        headings[path] = set(re.findall(r"^#{2,3} (.+)$", text, re.MULTILINE))
        blocks[path] = set(re.findall(r" \^(blk-\d+)$", text, re.MULTILINE))
    dangling = ambiguous = 0
    for text in notes.values():
        for m in _links_outside_code(text):
            target, _, fragment = m["inner"].split("|", 1)[0].partition("#")
            found = by_name.get(target.casefold(), set())
            dangling += not found
            ambiguous += len(found) > 1
            if len(found) == 1 and fragment:
                (path,) = found
                assert (
                    fragment.removeprefix("^") in (blocks if fragment[0] == "^" else headings)[path]
                )
    manifest = read_manifest(vault)
    assert manifest is not None
    assert dangling == manifest["links"]["dangling"]
    assert ambiguous == manifest["links"]["ambiguous"]


def test_plan_is_pure_and_vaults_are_reused(tmp_path: Path) -> None:
    assert plan_vault(50, 3) == plan_vault(50, 3)
    root = tmp_path / "v"
    assert ensure_vault(root, 40, 2) == (root, False)
    assert ensure_vault(root, 40, 2) == (root, True)
    assert ensure_vault(root, 41, 2) == (root, False)  # another size replaces it
    assert len(list((root / "docs").rglob("*.md"))) == 41
    stranger = tmp_path / "not-a-vault"
    stranger.mkdir()
    (stranger / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        generate_vault(stranger, 10)
    assert (stranger / "keep.txt").read_text() == "mine"

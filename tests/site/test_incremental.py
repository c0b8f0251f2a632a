"""``mkdocs serve``: builds in one process reuse the compiler and stay correct.

MkDocs keeps a plugin with ``on_startup`` across rebuilds (also across
``load_config`` calls in one process), so two ``project.build()`` calls are
exactly what ``mkdocs serve`` does on a file change.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from beliefbase.compile import Compiler

VAULT = {
    "index.md": "# Home\n\nSee [[alpha]], [[Beta Title]] and [[Gamma]].\n\n![[alpha#Part]]\n",
    "alpha.md": "---\ntitle: Alpha Title\n---\n# Alpha\n\n## Part\n\nPart text links [[beta]].\n",
    "beta.md": "---\ntitle: Beta Title\naliases: [B]\n---\nBeta [[alpha]].\n",
    "old.md": "# Old\n\nLinks [[alpha]].\n",
}


def write_vault(project, files: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    for path, text in files.items():
        project.write(path, text, dedent=False)


def site_files(site: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(site)): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and p.suffix in (".html", ".json")
    }


def edit(project) -> None:  # type: ignore[no-untyped-def]
    project.write("alpha.md", "---\ntitle: Renamed Alpha\n---\n# Alpha\n\n## Part\n\nNew part "
                  "text links [[beta]].\n", dedent=False)
    project.write("gamma.md", "# Gamma\n\nNew note, was a dangling link.\n", dedent=False)
    (project.docs / "old.md").unlink()


def test_rebuild_matches_clean_build(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    first = project.build()
    assert "Alpha Title" in first.article("")
    edit(project)
    second = project.build()
    home = second.article("")
    assert ">Renamed Alpha</a>" in home and "Alpha Title" not in home  # auto-title
    assert "New part text links" in home  # the embed follows the edit
    assert 'href="gamma/">Gamma</a>' in home  # dangling link now resolves
    beta = second.page("beta/")
    assert "Old" not in beta[beta.index("bb-backlinks"):]  # deleted note left the backlinks
    clean_root = tmp_path / "clean"
    shutil.copytree(project.root / "docs", clean_root / "docs")
    clean = type(project)(clean_root, project.config).build()
    assert site_files(second.site) == site_files(clean.site)


def test_only_changed_files_are_reparsed(project) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    compiler: Compiler = project.compiler()
    compiler.compile(project.sources())
    assert compiler.cache.misses == 4
    project.write("beta.md", "---\ntitle: Beta Title\n---\nChanged.\n", dedent=False)
    compiled = compiler.compile(project.sources())
    assert compiler.cache.misses == 5  # one more parse: beta.md
    assert compiled.changed == {"beta.md"}


def test_title_change_re_resolves_only_dependents(project) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    compiler: Compiler = project.compiler()
    first = compiler.compile(project.sources())
    project.write("beta.md", "---\ntitle: Beta Renamed\naliases: [B]\n---\nBeta [[alpha]].\n",
                  dedent=False)
    second = compiler.compile(project.sources())
    # index.md linked [[Beta Title]]: now unresolved
    assert [rl.status for rl in second.links["index.md"]][1] == "unresolved"
    # alpha.md links [[beta]] by file name: neither the name nor beta's headings changed
    assert second.links["alpha.md"] is first.links["alpha.md"]
    assert second.links["old.md"] is first.links["old.md"]


def test_heading_change_re_resolves_linkers(project) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    compiler: Compiler = project.compiler()
    first = compiler.compile(project.sources())
    project.write("alpha.md", "---\ntitle: Alpha Title\n---\n# Alpha\n\n## Renamed\n",
                  dedent=False)
    second = compiler.compile(project.sources())
    assert second.links["index.md"] is not first.links["index.md"]
    assert second.links["index.md"][-1].anchor_missing  # ![[alpha#Part]] lost its heading
    assert second.links["beta.md"] is not first.links["beta.md"]


def test_persistent_cache_second_cold_build(project) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    project.write("bad.md", "---\ntitle: [x\n---\n", dedent=False)
    cold = project.compiler(cache=True)
    first = cold.compile(project.sources())
    assert cold.cache.misses == 5
    warm = project.compiler(cache=True)  # a new process: only the cache file survives
    second = warm.compile(project.sources())
    assert warm.cache.misses == 0 and warm.cache.hits == 5
    assert [str(d) for d in second.diagnostics] == [str(d) for d in first.diagnostics]
    assert any(d.code == "bad-frontmatter" for d in second.diagnostics)  # replayed


def test_deleting_the_cache_never_changes_output(project) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    first = site_files(project.build().site)
    cache = project.root / ".beliefbase"
    assert (cache / "parse-cache.pickle").exists()
    shutil.rmtree(cache)
    assert site_files(project.build().site) == first


def test_corrupt_cache_is_ignored(project) -> None:  # type: ignore[no-untyped-def]
    write_vault(project, VAULT)
    cache = project.root / ".beliefbase"
    cache.mkdir()
    (cache / "parse-cache.pickle").write_bytes(b"not a pickle")
    result = project.build()
    assert result.error is None and "Alpha Title" in result.article("")


def test_mkdocs_build_writes_the_cache_in_the_background_and_waits_for_it(  # type: ignore[no-untyped-def]
        project, monkeypatch) -> None:
    from beliefbase.builder import cache as cache_module
    from beliefbase.site.session import SiteBuild

    monkeypatch.setattr(cache_module, "BACKGROUND_THRESHOLD", 1)
    on_disk_at_end: list[bool] = []
    children: list[object] = []
    real_save, real_outputs = cache_module.ParseCache.save, SiteBuild.write_outputs
    real_write = cache_module.ParseCache._write

    def slow_write(self) -> bool:  # type: ignore[no-untyped-def]
        time.sleep(1.0)  # the child outlives the rest of the build unless waited for
        return real_write(self)

    def save(self, background: bool = False) -> None:  # type: ignore[no-untyped-def]
        real_save(self, background)
        if self._saving is not None:
            children.append(self._saving)

    def outputs(self, *args) -> None:  # type: ignore[no-untyped-def]
        # on_post_build, before on_shutdown (which would save it anyway)
        on_disk_at_end.append((project.root / ".beliefbase/parse-cache.pickle").exists())
        real_outputs(self, *args)

    monkeypatch.setattr(cache_module.ParseCache, "save", save)
    monkeypatch.setattr(cache_module.ParseCache, "_write", slow_write)
    monkeypatch.setattr(SiteBuild, "write_outputs", outputs)
    write_vault(project, VAULT)
    first = site_files(project.build().site)
    assert len(children) == 1, "mkdocs build wrote the cache in a child"
    assert on_disk_at_end == [True], "and waited for it before the build ended"
    warm = project.compiler(cache=True)
    warm.compile(project.sources())
    assert warm.cache.misses == 0 and warm.cache.hits == len(VAULT)
    shutil.rmtree(project.root / ".beliefbase")
    monkeypatch.setattr(cache_module, "BACKGROUND_THRESHOLD", 10**9)
    assert site_files(project.build().site) == first

"""``mkdocs serve --dirty``: dependents are re-rendered; the result equals a clean build."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.site.test_incremental import VAULT, edit, site_files, write_vault

EXPLORER = ["search", {"beliefbase": {"explorer": True}}]


@pytest.mark.parametrize("plugins", [None, EXPLORER], ids=["material-nav", "explorer"])
def test_dirty_rebuild_matches_clean_build(project, tmp_path: Path, plugins) -> None:  # type: ignore[no-untyped-def]
    kwargs = {"plugins": plugins} if plugins else {}
    write_vault(project, VAULT)
    project.write("unrelated.md", "# Unrelated\n\nNothing links here.\n", dedent=False)
    first = project.build(**kwargs)
    assert first.error is None
    unrelated = first.site / "unrelated" / "index.html"
    before = unrelated.stat().st_mtime_ns
    time.sleep(0.05)
    edit(project)  # a title change, a new note resolving a dangling link, a deletion
    second = project.build(dirty=True, **kwargs)
    assert second.error is None
    assert ">Renamed Alpha</a>" in second.article("")
    assert not (second.site / "old" / "index.html").exists()
    if plugins:  # with the explorer, pages that do not show the change are left alone
        assert unrelated.stat().st_mtime_ns == before
    clean_root = tmp_path / "clean"
    shutil.copytree(project.root / "docs", clean_root / "docs")
    clean = type(project)(clean_root, project.config).build(**kwargs)
    got, want = site_files(second.site), site_files(clean.site)
    search = "search/search_index.json"
    assert {k: v for k, v in got.items() if k != search} == {
        k: v for k, v in want.items() if k != search}
    entries = lambda data: sorted(json.dumps(e, sort_keys=True)  # noqa: E731
                                  for e in json.loads(data)["docs"])
    assert entries(got[search]) == entries(want[search])

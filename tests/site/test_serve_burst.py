"""A real ``mkdocs serve --dirty`` under a burst of saves, a rename and deletions ends
in the site a clean build makes, page for page, and the server never wedges."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.site.test_serve import fetch, free_port, wait_for

pytestmark = pytest.mark.slow

# what the server adds to every HTML page it serves (MkDocs' live reload)
_LIVERELOAD = re.compile(r"<script>\s*var livereload.*?</script>", re.DOTALL)


def _served(url: str) -> str | None:
    """The page as a clean build would write it (None: not there)."""
    try:
        return _LIVERELOAD.sub("", fetch(url))
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


def _clean_build(root: Path, into: Path, site_url: str) -> Path:
    """A clean ``mkdocs build`` of a copy of the project (the served one stays as it is),
    with the ``site_url`` that ``mkdocs serve`` gives its site."""
    copy = into / "project"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("site", ".beliefbase"))
    config = copy / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + f"site_url: {site_url}\n",
                      encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=copy, check=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True)
    return copy / "site"


def _vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n![[emb]]\n\nSee [[a]], [[b]] and [[c]].\n")
    project.write("emb.md", "# Emb\n\nEmbedded text, see [[a]].\n")
    project.write("a.md", "# A\n\nversion 0, see [[b]] #tag0\n")
    project.write("b.md", "# B\n\nB links [[a]] and ![[emb]].\n")
    project.write("c.md", "# C\n\nC text.\n")
    project.write("folder/d.md", "# D\n\nIn a folder, see [[c]].\n")


def _burst(project) -> None:  # type: ignore[no-untyped-def]
    """20 saves 50 ms apart, a rename, two deletions (an embedded note among them)."""
    for i in range(1, 21):
        target = ("a.md", "b.md", "folder/d.md")[i % 3]
        text = {"a.md": f"---\ntitle: A v{i}\n---\nversion {i}, see [[b]] #tag{i % 4}\n",
                "b.md": f"# B\n\nB links [[a]] and ![[emb]], save {i}.\n",
                "folder/d.md": f"# D\n\nIn a folder, save {i}, see [[c]].\n"}[target]
        project.write(target, text)
        time.sleep(0.05)
    (project.docs / "c.md").rename(project.docs / "folder" / "c2.md")
    (project.docs / "emb.md").unlink()
    (project.docs / "folder" / "d.md").unlink()
    project.write("a.md", "---\ntitle: A final\n---\nversion FINAL, see [[b]] #tag9\n")


def test_a_burst_of_saves_ends_in_the_clean_build(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _vault(project)
    project.write_config()
    port = free_port()
    log_path = tmp_path / "serve.log"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--dirty", "-a", f"127.0.0.1:{port}"],
            cwd=project.root, stdout=log, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}/"
        try:
            wait_for(url, lambda page: "Embedded text" in page)
            time.sleep(1.0)  # let the watcher settle
            _burst(project)
            last_save = time.monotonic()
            wait_for(url + "a/", lambda page: "version FINAL" in page, timeout=60)
            settled = time.monotonic() - last_save
            wait_for(url, lambda page: "Embedded text" not in page and "A final" in page,
                     timeout=60)
            time.sleep(2.0)  # a rebuild still running would change what is compared
            clean = _clean_build(project.root, tmp_path / "clean", url)
            pages = sorted(p.relative_to(clean) for p in clean.rglob("index.html"))
            assert len(pages) > 5
            differing = []
            for page in pages:
                folder = page.parent.as_posix()
                served = _served(url if folder == "." else f"{url}{folder}/")
                if served != (clean / page).read_text(encoding="utf-8"):
                    differing.append(folder)
            assert differing == []
            for gone in ("emb/", "c/", "folder/d/"):
                assert _served(url + gone) is None, gone
            assert server.poll() is None  # still serving
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert settled < 30, f"the last save showed {settled:.1f} s after it"
    assert "Traceback" not in log_path.read_text()

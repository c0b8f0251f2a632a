"""Issue 17's reproduction in a real ``mkdocs serve``: a link to a heading whose anchor
follows another note's title goes stale when that note is retitled, as a fresh
build says, and the served page's heading takes the new anchor."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..site.test_serve import free_port, wait_for

pytestmark = pytest.mark.slow


def test_serve_reports_the_anchor_a_retitle_removed(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n\n## See [[b]]\n\nText.\n")
    project.write("b.md", "---\ntitle: Old Title\n---\n# B\n")
    project.write("c.md", "# C\n\n[[a#see-old-title]]\n")
    project.write_config()
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=project.root, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(url + "a/", lambda page: 'id="see-old-title"' in page)
        wait_for(url + "_beliefbase/diagnostics.json", lambda text: '"diagnostics": []' in text)
        time.sleep(1.0)  # let the watcher settle before the edit
        project.write("b.md", "---\ntitle: New Title\n---\n# B\n")
        wait_for(url + "a/", lambda page: 'id="see-new-title"' in page)
        text = wait_for(url + "_beliefbase/diagnostics.json",
                        lambda text: "unresolved-anchor" in text)
        assert "[[a#see-old-title]]" in text
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()

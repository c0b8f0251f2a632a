"""A real ``mkdocs serve`` (plain, and ``--dirty``): edit a note, and the pages that
depend on it follow."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - localhost
        return response.read().decode("utf-8")


def wait_for(url: str, predicate, timeout: float = 60) -> str:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        try:
            last = fetch(url)
            if predicate(last):
                return last
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {url}; last page:\n{last[:2000]}")


@pytest.mark.parametrize("flags", [[], ["--dirty"]], ids=["plain", "dirty"])
def test_serve_rebuilds_dependents(project, tmp_path: Path, flags) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nGo to [[target]] and [[Future Note]].\n")
    project.write("target.md", "---\ntitle: Old Title\n---\n# Target\n")
    project.write("unrelated.md", "# Unrelated\n\nNothing links here.\n")
    project.write_config()
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    temp = tmp_path / "temp"  # where MkDocs makes the site folder it serves
    temp.mkdir()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(temp)}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}", *flags],
        cwd=project.root, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(url, lambda page: ">Old Title</a>" in page)
        time.sleep(1.0)  # let the watcher settle before the edit
        project.write("target.md", "---\ntitle: New Title\n---\n# Target\n")
        project.write("future.md", "---\ntitle: Future Note\n---\n")
        page = wait_for(url, lambda page: ">New Title</a>" in page and "Future Note</a>" in page)
        assert "Old Title" not in page
        # a body edit: plain serve, too, leaves the pages that do not show it alone
        (unrelated,) = temp.glob("mkdocs_*/unrelated/index.html")
        before = unrelated.stat().st_mtime_ns
        time.sleep(0.05)
        project.write("target.md", "---\ntitle: New Title\n---\n# Target\n\nMore text.\n")
        wait_for(url + "target/", lambda page: "More text." in page)
        assert unrelated.stat().st_mtime_ns == before
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    output = (tmp_path / "serve.log").read_text()
    # the first build prints the dangling link; the rebuild only that it is fixed,
    # then one summary line (site/log.py)
    assert output.count("WARNING -  beliefbase: docs/index.md:3:22: unresolved-link: "
                        "[[Future Note]]") == 1
    assert output.count("beliefbase: fixed: docs/index.md:3:22: unresolved-link: "
                        "[[Future Note]]") == 1
    assert "beliefbase: no diagnostics, 0 new, 1 gone" in output
    assert output.count("Building documentation") >= 2 or output.count("Documentation built") >= 2
    # plain serve rebuilds dirty, without MkDocs' warning about a dirty build
    assert "A 'dirty' build is being performed" not in output or flags

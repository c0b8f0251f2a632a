"""``pip install .`` (not editable) gives a working plugin: theme/ is in the wheel.

Builds the wheel, installs it with its dependencies taken from this
environment (a fresh venv whose .pth points at our site-packages, so nothing
is downloaded but the build backend), and builds a small knowledge base with
``python -m mkdocs build`` from outside the repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, timeout=600)
    (wheel,) = out.glob("mkdocs_beliefbase-*.whl")
    return wheel


def test_wheel_contains_theme_and_packages(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for expected in ("beliefbase/theme/embed.html", "beliefbase/theme/backlinks.html",
                     "beliefbase/theme/assets/beliefbase.css", "beliefbase/compile/compiler.py",
                     "beliefbase/beliefs/schema.json", "beliefbase/py.typed"):
        assert expected in names
    packages = {p.parent.relative_to(ROOT / "plugin").as_posix().replace("/", ".")
                for p in (ROOT / "plugin" / "beliefbase").rglob("*.py")}
    in_wheel = {n.rsplit("/", 1)[0].replace("/", ".") for n in names if n.endswith(".py")}
    # The benchmark harness runs from a source checkout (`pip install -e .`), never
    # from an installed site: it is not shipped.
    shipped = {name for name in packages if not name.startswith("beliefbase.bench")}
    assert shipped <= in_wheel, f"packages missing from pyproject: {shipped - in_wheel}"
    assert not any(n.startswith("beliefbase/bench/") for n in names), "bench/ is shipped"


def test_installed_wheel_builds_a_site(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site_packages = Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    # dependencies from this environment, but not its (editable) beliefbase: its own
    # site-packages and those it sees (a venv made with --system-site-packages holds
    # the dependencies in the system's); a .pth in them (the editable install) is not read
    deps = dict.fromkeys([sysconfig.get_paths()["purelib"],
                          *(p for p in sys.path if p.endswith("-packages"))])
    (site_packages / "deps.pth").write_text("".join(f"{p}\n" for p in deps))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site_packages), str(wheel)], check=True, timeout=300)
    kb = tmp_path / "kb"
    (kb / "docs").mkdir(parents=True)
    (kb / "mkdocs.yml").write_text(textwrap.dedent("""\
        site_name: Installed
        theme: {name: material, font: false}
        plugins: [search, beliefbase]
        """))
    (kb / "docs" / "index.md").write_text("# Home\n\nSee [[other]].\n\n![[other]]\n")
    (kb / "docs" / "other.md").write_text("# Other\n\nOther text.\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = subprocess.run([python, "-c", "import beliefbase; print(beliefbase.__file__)"],
                           check=True, capture_output=True, text=True, cwd=kb, env=env)
    assert where.stdout.startswith(str(site_packages)), where.stdout
    build = subprocess.run([python, "-m", "mkdocs", "build", "--strict"], cwd=kb, env=env,
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    site = kb / "site"
    assert (site / "_beliefbase" / "beliefbase.css").exists()
    home = (site / "index.html").read_text()
    assert 'href="other/">Other</a>' in home and "Other text." in home
    assert "Linked from" in (site / "other" / "index.html").read_text()


def test_wheel_declares_its_licence_as_spdx(wheel: Path) -> None:
    """PEP 639: an SPDX ``license`` string (setuptools>=77), not the table form that
    setuptools stops building in February 2027."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(name).decode()
    assert "License-Expression: MIT\n" in metadata
    assert "\nLicense: " not in metadata
